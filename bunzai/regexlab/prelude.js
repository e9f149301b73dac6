// bunzai's helpers inside the embedded ECMAScript engine (QuickJS). Written for bunzai:
// each function takes one JSON string and returns one JSON string, so Python and the
// engine share nothing but text. The platform rules here follow the behaviour described
// in docs/commands/regex-lab.md; the regexes themselves are the engine's own RegExp.
var bunzai = (function () {
    "use strict";

    // SillyTavern reads a findRegex string as /(\/?)(.+)\1([a-z]*)/i; flags it does not
    // know (or repeated ones) make it hand the whole string to RegExp with no flags.
    function stParse(text) {
        var m = /(\/?)(.+)\1([a-z]*)/i.exec(text);
        if (m === null) return { pattern: text, flags: "", whole: true };
        if (m[3] && !/^(?!.*?(.).*?\1)[gmixXsuUAJ]+$/.test(m[3])) return { pattern: text, flags: "", whole: true };
        return { pattern: m[2], flags: m[3], whole: false };
    }

    // A plain JavaScript literal: /pattern/flags when the text is written that way, else a bare
    // pattern with the default flags.
    function literalParse(text, bareFlags) {
        var m = /^\/([\s\S]+)\/([a-z]*)$/i.exec(text);
        if (m === null) return { pattern: text, flags: bareFlags, whole: true };
        return { pattern: m[1], flags: m[2], whole: false };
    }

    function parse(a) {
        if (a.platform === "sillytavern") return stParse(a.find);
        if (a.platform === "risuai") return { pattern: a.find, flags: "g", whole: true };
        return literalParse(a.find, "");
    }

    function compile(pattern, flags) {
        try {
            return { re: new RegExp(pattern, flags) };
        } catch (e) {
            return { error: String(e && e.message || e) };
        }
    }

    // Code points (Python's string index) that begin in text[from, to), counted in UTF-16
    // units. The low half of a pair belongs to its high half's code point even when a match
    // (no u flag) splits the pair, so counts added up match to match stay Python's index.
    function cp(text, from, to) {
        var n = 0;
        for (var i = from; i < to; i++) {
            var c = text.charCodeAt(i);
            if (c >= 0xdc00 && c <= 0xdfff && i > 0) {
                var h = text.charCodeAt(i - 1);
                if (h >= 0xd800 && h <= 0xdbff) continue;
            }
            n++;
        }
        return n;
    }

    function escapeRegex(value) {
        return String(value).replace(/[\n\r\t\v\f\0.^$*+?{}[\]\\/|()]/g, function (s) {
            var named = { "\n": "\\n", "\r": "\\r", "\t": "\\t", "\v": "\\v", "\f": "\\f", "\0": "\\0" };
            return named[s] || "\\" + s;
        });
    }

    // {{name}} for each given macro, case-insensitive; unknown macros stay as written.
    function macros(text, values, escape) {
        if (!values) return text;
        return text.replace(/\{\{([^{}]*)\}\}/g, function (whole, name) {
            var key = name.trim().toLowerCase();
            if (!Object.prototype.hasOwnProperty.call(values, key)) return whole;
            return escape ? escapeRegex(values[key]) : String(values[key]);
        });
    }

    function effectivePattern(a) {
        if (a.substitute === "raw") return macros(a.pattern, a.macros, false);
        if (a.substitute === "escaped") return macros(a.pattern, a.macros, true);
        return a.pattern;
    }

    // SillyTavern replaces with a function: {{match}} means $0; each $N or $<name> is the
    // capture with the trim strings removed (nothing when absent or empty); $&, $$, $` and
    // $' are not special; macros are expanded in the result ({{noop}} always, to nothing).
    function stReplace(text, re, a) {
        return text.replace(re, function () {
            var args = Array.prototype.slice.call(arguments);
            var groups = typeof args[args.length - 1] === "object" ? args[args.length - 1] : undefined;
            var template = a.replacement.replace(/{{match}}/gi, "$0");
            var filled = template.replace(/\$(\d+)|\$<([^>]+)>/g, function (whole, num, name) {
                var value = num !== undefined ? args[Number(num)] : (groups ? groups[name] : undefined);
                if (!value) return "";
                if (typeof value !== "string") {
                    // past the captures: the match position (a number), the whole text, the groups object;
                    // SillyTavern's trim step (and String of a null-prototype object) throws on them
                    if (typeof value === "object" || a.trims.length) {
                        throw new Error("bunzai-platform: SillyTavern fails on " + whole + ": it names " +
                            (typeof value === "object" ? "the named groups object" : "the match position") +
                            (typeof value === "object" ? "" : ", which its trim strings cannot be taken from"));
                    }
                    return String(value);
                }
                for (var i = 0; i < a.trims.length; i++) {
                    value = value.split(macros(a.trims[i], a.macros, false)).join("");
                }
                return value;
            });
            return macros(filled, a.macros, false).replace(/{{noop}}/gi, "");
        });
    }

    // RisuAI (src/ts/process/scripts.ts, executeScript) turns every $n in OUT into a newline
    // and gives an OUT ending in ">" a newline unless the no_end_nl token is set. A rule whose
    // OUT starts with @@, or whose flag field holds any <...> token but <order N> (a.actions:
    // RisuAI's pscript.actions, <cbs> and <no_end_nl> included), takes the test-first path
    // (risuTested); any other hands OUT to String.prototype.replace (so $1, $&, $<name>, $$
    // work) and then expands macros in the whole result, the matched text included.
    function risuReplace(text, re, a) {
        var acts = a.actions || [];
        var out = a.replacement.split("$n").join("\n");
        if (out.slice(-1) === ">" && !a.noEndNewline && acts.indexOf("no_end_nl") === -1) out += "\n";
        if (out.indexOf("@@") === 0 || acts.length) return risuTested(text, re, out, acts, a);
        return risuMacros(text.replace(re, out), a);
    }

    // RisuAI's test-first path, for a message in a chat, statement by statement: nothing
    // happens unless reg.test finds the pattern, and that test moves a g or y pattern's
    // lastIndex past the first match, where a later sticky (y without g) replace or match, and
    // a matchAll, starts. Then @@emo sets the character's emotion and leaves the text; an inject
    // takes the matches out (the chat message keeps them); a move (the flags' first g was dropped
    // when they were read) takes the matches out and puts OUT, its $N and $& filled, on a line of
    // its own above or below for the first match, or with a g left (gg) for every match after
    // the test's; anything else replaces as the plain path does, its macros expanded again.
    // With no match only repeat_back acts, from an earlier message the lab does not have, and
    // the text stays as it was, its macros not expanded a second time.
    function risuTested(text, re, out, acts, a) {
        var has = function (name) { return out.indexOf("@@" + name) === 0 || acts.indexOf(name) !== -1; };
        re.lastIndex = 0;  // RisuAI compiles the pattern afresh for every run
        if (!re.test(text)) return text;
        if (out.indexOf("@@emo ") === 0) return text;
        if (has("inject")) return text.replace(re, "");
        if (!has("move_top") && !has("move_bottom")) return risuMacros(text.replace(re, out), a);
        var all = re.global ? Array.from(text.matchAll(re)) : [text.match(re)];
        text = text.replace(re, "");
        all.forEach(function (matched) {
            if (!matched) return;
            var moved = out.replace("@@move_top ", "").replace("@@move_bottom ", "")
                .replace(/(?<!\$)\$[0-9]+/g, function (v) {
                    var index = parseInt(v.substring(1));
                    return index < matched.length ? matched[index] : v;
                })
                .replace(/\$\&/g, matched[0])
                .replace(/(?<!\$)\$<([^>]+)>/g, function (v) {
                    // RisuAI reads the name as a number: only a group named NaN is ever found
                    var name = parseInt(v.substring(2, v.length - 1));
                    return matched.groups && matched.groups[name] ? matched.groups[name] : v;
                });
            text = has("move_top") ? moved + "\n" + text : text + "\n" + moved;
        });
        return text;
    }

    // RisuAI expands macros over a message before its scripts run (processScriptFull), so a
    // pattern meets the expanded text.
    function seen(text, a) {
        return a.convention === "risuai" ? risuMacros(text, a) : text;
    }

    // The given macros, and RisuAI's {{blank}} / {{none}}, which expand to nothing.
    function risuMacros(text, a) {
        return macros(text, a.macros, false).replace(/{{\s*(?:blank|none)\s*}}/gi, "");
    }

    function replaceWith(text, re, a) {
        if (a.convention === "sillytavern") return stReplace(text, re, a);
        if (a.convention === "risuai") return risuReplace(text, re, a);
        return text.replace(re, a.replacement);
    }

    function matchList(text, re, max) {
        var found = [];
        var total = 0;
        var many = re.global;
        var seen = 0, seenCp = 0;  // code points are counted on from the last match, never from 0 again
        re.lastIndex = 0;
        while (true) {
            var m = re.exec(text);
            if (m === null) break;
            total++;
            if (found.length < max) {
                if (m.index < seen) { seen = 0; seenCp = 0; }
                seenCp += cp(text, seen, m.index);
                seen = m.index;
                var start = seenCp;
                var named = null;
                if (m.groups) {
                    named = {};
                    Object.keys(m.groups).forEach(function (k) {
                        named[k] = m.groups[k] === undefined ? null : m.groups[k];
                    });
                }
                found.push({
                    index: m.index,
                    start: start,
                    end: start + cp(text, m.index, m.index + m[0].length),
                    match: m[0],
                    groups: m.slice(1).map(function (g) { return g === undefined ? null : g; }),
                    named: named
                });
            }
            if (!many) break;
            if (m[0].length === 0) {
                // step over an empty match as matchAll does (a whole code point with u or v)
                var c = text.charCodeAt(re.lastIndex);
                var wide = (re.unicode || re.unicodeSets) && c >= 0xd800 && c <= 0xdbff;
                re.lastIndex += wide ? 2 : 1;
                if (re.lastIndex > text.length) break;
            }
        }
        return { matches: found, total: total };
    }

    function groupInfo(re) {
        // Any pattern matches the empty string once an empty alternative is added.
        var m = new RegExp("(?:" + re.source + ")|", re.flags.replace(/[gy]/g, "")).exec("");
        return { count: m.length - 1, names: m.groups ? Object.keys(m.groups) : [] };
    }

    // One entry point: {op, ...} in, {ok, ...} or {error} out. Interrupts (time, memory)
    // are not caught: they reach Python as exceptions.
    function call(json) {
        var a = JSON.parse(json);
        if (a.op === "parse") return JSON.stringify(parse(a));
        var pattern = effectivePattern(a);
        var compiled = compile(pattern, a.flags);
        if (compiled.error) return JSON.stringify({ error: compiled.error, pattern: pattern });
        var re = compiled.re;
        var out = { pattern: pattern, flags: re.flags };
        if (a.op === "compile") {
            out.groups = groupInfo(re);
        } else if (a.op === "match") {
            var listed = matchList(seen(a.text, a), re, a.max);
            out.matches = listed.matches;
            out.total = listed.total;
            out.groups = groupInfo(re);
        } else if (a.op === "replace") {
            out.result = replaceWith(seen(a.text, a), re, a);
        } else if (a.op === "test") {
            out.results = a.texts.map(function (t) { re.lastIndex = 0; return re.test(seen(t, a)); });
        } else if (a.op === "chain") {
            // this rule, then each of a.rules in order, over each text: the texts after
            out.results = a.texts.map(function (t) {
                re.lastIndex = 0;
                t = replaceWith(seen(t, a), re, a);
                a.rules.forEach(function (r) {
                    var c = compile(effectivePattern(r), r.flags);
                    if (!c.error) t = replaceWith(t, c.re, r);
                });
                return t;
            });
        } else {
            return JSON.stringify({ error: "unknown operation " + a.op });
        }
        return JSON.stringify(out);
    }

    return { call: call };
})();
