// Runs the regex case table in node (a second JavaScript runtime), for
// tests/regexlab/test_case_table.py. Reads the cases as JSON on stdin, prints the results
// as JSON on stdout. Plain cases use node's own RegExp and String.prototype.replace;
// platform cases (sillytavern, risuai) run bunzai's prelude.js in node.
"use strict";
const fs = require("fs");
const path = require("path");
const prelude = fs.readFileSync(path.join(__dirname, "..", "..", "bunzai", "regexlab", "prelude.js"), "utf8");
const bunzai = new Function(prelude + "\nreturn bunzai;")();

function run(c) {
    try {
        if (c.platform && c.platform !== "javascript") {
            const parsed = JSON.parse(bunzai.call(JSON.stringify({op: "parse", platform: c.platform, find: c.find})));
            const flags = c.flags !== undefined ? c.flags : parsed.flags;
            const pattern = c.flags !== undefined ? c.find : parsed.pattern;
            const out = JSON.parse(bunzai.call(JSON.stringify({op: "replace", pattern, flags, text: c.text,
                replacement: c.replace, convention: c.platform, trims: c.trims || [], macros: c.macros || {},
                substitute: c.substitute || "none", noEndNewline: false})));
            return out.error !== undefined ? {error: true} : {result: out.result};
        }
        const re = new RegExp(c.pattern, c.flags);
        if (c.op === "replace") return {result: c.text.replace(re, c.replace)};
        const found = [];
        if (re.global) {
            for (const m of c.text.matchAll(re)) found.push(row(m));
        } else {
            const m = re.exec(c.text);
            if (m) found.push(row(m));
        }
        return {matches: found};
    } catch (e) {
        return {error: true};
    }
}

function row(m) {
    const named = m.groups ? Object.fromEntries(Object.entries(m.groups).map(([k, v]) => [k, v === undefined ? null : v])) : null;
    return {index: m.index, match: m[0], groups: m.slice(1).map(g => g === undefined ? null : g), named};
}

const cases = JSON.parse(fs.readFileSync(0, "utf8"));
process.stdout.write(JSON.stringify(cases.map(run)));
