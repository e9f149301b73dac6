// The order RisuAI runs a set's scripts in, for tests/regexlab/test_lint_risu_order.py: the
// statements of processScriptFull (src/ts/process/scripts.ts of kwaroran/RisuAI, 460ecae2) that
// read each flag field's <...> tokens and sort by <order N>. A script is given by its flag tokens
// as the adapter keeps them (each already one token, as `meta` holds it).
// Reads [[token, ...], ...] lists on stdin, prints the indices of each list in run order.
"use strict";
const fs = require("fs");

const cases = JSON.parse(fs.readFileSync(0, "utf8"));
const out = cases.map((scripts) => {
    let orderChanged = false;
    const parsed = scripts.map((tokens, index) => {
        let order = 0;
        for (const m of tokens.map((v) => v.trim())) {
            if (m.startsWith("order ")) {
                order = parseInt(m.substring(6));
                orderChanged = true;
            }
        }
        return { index, order };
    });
    if (orderChanged) {
        parsed.sort((a, b) => b.order - a.order);
    }
    return parsed.map((p) => p.index);
});
process.stdout.write(JSON.stringify(out));
