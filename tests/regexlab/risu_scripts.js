// RisuAI's regex scripts, run in node for tests/regexlab/test_risu_scripts.py: the statements of
// processScriptFull that read a script's flag field, and of its executeScript, as they stand in
// src/ts/process/scripts.ts of kwaroran/RisuAI (460ecae2, 2025-12-31), cut to one script run over
// one message of a chat (chatID 0). Left out, as the lab leaves them out: the emotion image
// (@@emo), writing the chat message back (@@inject), the earlier message (@@repeat_back), Lua and
// plugin hooks, ordering, the cache. risuChatParser stands for the macros the test gives (each
// {{name}}, any case, and {{blank}} / {{none}} as nothing), as the lab expands them.
// Reads [{script: {in, out, flag, ableFlag}, text, macros}] as JSON on stdin, prints
// [{result} | {error}] as JSON on stdout.
"use strict";
const fs = require("fs");

function risuChatParser(text, { macros }) {
    return text
        .replace(/\{\{([^{}]*)\}\}/g, (whole, name) => {
            const key = name.trim().toLowerCase();
            return Object.prototype.hasOwnProperty.call(macros, key) ? String(macros[key]) : whole;
        })
        .replace(/{{\s*(?:blank|none)\s*}}/gi, "");
}

const dreg = /{{data}}/g;

function processScriptFull(script, data, macros) {
    const cbsConditions = { macros };
    data = risuChatParser(data, cbsConditions);

    function executeScript(pscript) {
        const script = pscript.script;

        if (script.in === "") {
            return;
        }

        let outScript2 = script.out.replaceAll("$n", "\n");
        let outScript = outScript2.replace(dreg, "$&");
        let flag = "g";
        if (script.ableFlag) {
            flag = script.flag || "g";
        }
        if (outScript.startsWith("@@move_top") || outScript.startsWith("@@move_bottom") || pscript.actions.includes("move_top") || pscript.actions.includes("move_bottom")) {
            flag = flag.replace("g", ""); //temperary fix
        }
        if (outScript.endsWith(">") && !pscript.actions.includes("no_end_nl")) {
            outScript += "\n";
        }
        //remove unsupported flag
        flag = flag.trim().replace(/[^dgimsuvy]/g, "");

        //remove repeated flags
        flag = flag.split("").filter((v, i, a) => a.indexOf(v) === i).join("");

        if (flag.length === 0) {
            flag = "u";
        }

        let input = script.in;
        if (pscript.actions.includes("cbs")) {
            input = risuChatParser(input, cbsConditions);
        }

        const reg = new RegExp(input, flag);
        if (outScript.startsWith("@@") || pscript.actions.length > 0) {
            if (reg.test(data)) {
                if (outScript.startsWith("@@emo ")) {
                    // the character's emotion image is set; the text is not touched
                }
                else if (outScript.startsWith("@@inject") || pscript.actions.includes("inject")) {
                    // (the chat message keeps the text)
                    data = data.replace(reg, "");
                }
                else if (
                    outScript.startsWith("@@move_top") || outScript.startsWith("@@move_bottom") ||
                    pscript.actions.includes("move_top") || pscript.actions.includes("move_bottom")
                ) {
                    const isGlobal = flag.includes("g");
                    const matchAll = isGlobal ? data.matchAll(reg) : [data.match(reg)];
                    data = data.replace(reg, "");
                    for (const matched of matchAll) {
                        if (matched) {
                            const inData = matched[0];
                            let out = outScript.replace("@@move_top ", "").replace("@@move_bottom ", "")
                                .replace(/(?<!\$)\$[0-9]+/g, (v) => {
                                    const index = parseInt(v.substring(1));
                                    if (index < matched.length) {
                                        return matched[index];
                                    }
                                    return v;
                                })
                                .replace(/\$\&/g, inData)
                                .replace(/(?<!\$)\$<([^>]+)>/g, (v) => {
                                    const groupName = parseInt(v.substring(2, v.length - 1));
                                    if (matched.groups && matched.groups[groupName]) {
                                        return matched.groups[groupName];
                                    }
                                    return v;
                                });
                            if (outScript.startsWith("@@move_top") || pscript.actions.includes("move_top")) {
                                data = out + "\n" + data;
                            }
                            else {
                                data = data + "\n" + out;
                            }
                        }
                    }
                }
                else {
                    data = risuChatParser(data.replace(reg, outScript), cbsConditions);
                }
            }
            else {
                // @@repeat_back copies from the speaker's earlier message: not here
            }
        }
        else {
            data = risuChatParser(data.replace(reg, outScript), cbsConditions);
        }
    }

    let parsedScripts = [];
    for (const one of [script]) {
        if (one.ableFlag && one.flag?.includes("<")) {
            const rregex = /<(.+?)>/g;
            const scriptData = structuredClone(one);
            let order = 0;
            const actions = [];
            scriptData.flag = scriptData.flag?.replace(rregex, (v, p1) => {
                const meta = p1.split(",").map((v) => v.trim());
                for (const m of meta) {
                    if (m.startsWith("order ")) {
                        order = parseInt(m.substring(6));
                    }
                    else {
                        actions.push(m);
                    }
                }

                return "";
            });
            parsedScripts.push({ script: scriptData, order, actions });
            continue;
        }
        parsedScripts.push({ script: one, order: 0, actions: [] });
    }
    for (const pscript of parsedScripts) {
        executeScript(pscript);  // (RisuAI logs a throw and goes on; here it is an error, as the lab refuses)
    }
    return data;
}

const cases = JSON.parse(fs.readFileSync(0, "utf8"));
process.stdout.write(JSON.stringify(cases.map((c) => {
    try {
        return { result: processScriptFull(c.script, c.text, c.macros || {}) };
    } catch (e) {
        return { error: true };
    }
})));
