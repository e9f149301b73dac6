// bunzai's headless harness for a SillyTavern checkout's own legacy macro engine
// (public/scripts/macros.js, with public/scripts/variables.js for variables).
//
// Those two modules are copied into a temporary folder with their imports pointed at
// small modules written here: the browser frontend they import (script.js, utils.js,
// extensions.js, the slash commands, jQuery, the DOM) cannot run in node. What the stubs
// hold is the context: the chat, the names, the variables, a fixed clock. The macro
// substitution itself is the checkout's code. The libraries it expects as globals
// (moment, droll, Handlebars) are the checkout's own files from public/lib.
//
// stdin: {"root": PATH, "now": ISO, "env": {...}, "chat": [{role, content}], "texts": [...]}
// stdout: {"results": [string | {"error": message}]} or {"error": message, "stage": ...}
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import vm from 'node:vm';
import { pathToFileURL } from 'node:url';

function fail(stage, error) {
    process.stdout.write(JSON.stringify({ error: String(error && error.message || error).split('\n')[0], stage }));
    process.exit(0);
}

const request = JSON.parse(fs.readFileSync(0, 'utf8'));
const root = request.root;
const scripts = path.join(root, 'public', 'scripts');
const lib = path.join(root, 'public', 'lib');

// A fixed clock: a Date whose "now" is the request's instant, for the libraries and the modules.
const fixed = Date.parse(request.now);
const RealDate = Date;
class FixedDate extends RealDate {
    constructor(...args) {
        if (args.length === 0) super(fixed); else super(...args);
    }
    static now() { return fixed; }
}
globalThis.Date = FixedDate;

// The checkout's UMD libraries, run as browser scripts would be, onto globalThis.
for (const [file, name] of [['moment.min.js', 'moment'], ['droll.js', 'droll'], ['handlebars.js', 'Handlebars']]) {
    try {
        const source = fs.readFileSync(path.join(lib, file), 'utf8');
        const sandbox = { window: globalThis, self: globalThis, globalThis, Date: FixedDate, module: undefined, exports: undefined, define: undefined };
        vm.runInNewContext(source + `\n;globalThis.__bunzai_lib = typeof ${name} !== 'undefined' ? ${name} : (this.${name});`, sandbox);
        globalThis[name] = sandbox.__bunzai_lib || sandbox[name] || sandbox.window[name];
        if (!globalThis[name]) throw new Error(`${file} defined no ${name}`);
    } catch (error) {
        fail('library ' + file, error);
    }
}

const chat = (request.chat || []).map((m, i) => ({ is_user: m.role === 'user', is_system: m.role === 'system', mes: m.content, name: m.role === 'user' ? request.env.user : request.env.char, swipes: [m.content], swipe_id: 0 }));
globalThis.$ = () => ({ val: () => '', attr: () => undefined });
globalThis.document = { querySelector: () => null };

// The context modules. Every name the two modules import exists; the ones they use hold the context.
const names = new Map();
for (const file of ['macros.js', 'variables.js']) {
    let source;
    try {
        source = fs.readFileSync(path.join(scripts, file), 'utf8');
    } catch (error) {
        fail('read ' + file, error);
    }
    for (const match of source.matchAll(/import\s*\{([^}]*)\}\s*from\s*['"]([^'"]+)['"]/g)) {
        const spec = match[2];
        if (!names.has(spec)) names.set(spec, new Set());
        for (const part of match[1].split(',')) {
            const local = part.trim().split(/\s+as\s+/)[0].trim();
            if (local) names.get(spec).add(local);
        }
    }
}
const known = {
    chat: 'globalThis.__bunzai.chat',
    chat_metadata: 'globalThis.__bunzai.chat_metadata',
    extension_settings: 'globalThis.__bunzai.extension_settings',
    main_api: "'openai'",
    getMaxContextSize: '() => globalThis.__bunzai.max_context',
    getCurrentChatId: "() => 'bunzai-chat'",
    substituteParams: '(text) => text',
    textgenerationwebui_banned_in_macros: '[]',
    replaceInstructMacros: '(text) => text',
    timestampToMoment: '(value) => moment(value)',
    isDigitsOnly: '(text) => /^\\d+$/.test(String(text))',
    escapeRegex: "(text) => String(text).replace(/[/\\-\\\\^$*+?.()|[\\]{}]/g, '\\\\$&')",
    uuidv4: "() => 'bunzai-nonce'",
    getStringHash: '(text) => { let h = 0; for (const c of String(text)) { h = ((h << 5) - h + c.codePointAt(0)) | 0; } return h; }',
    isFalseBoolean: "(value) => ['false', 'off', '0'].includes(String(value).trim().toLowerCase())",
    convertValueType: '(value) => value',
};
globalThis.__bunzai = {
    chat,
    chat_metadata: { variables: { ...(request.variables || {}) } },
    extension_settings: { variables: { global: { ...(request.global_variables || {}) } } },
    max_context: request.max_context || 0,
};
const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'bunzai-st-'));
try {
    let index = 0;
    const stubFor = new Map();
    for (const [spec, wanted] of names) {
        const base = path.basename(spec);
        if (base === 'variables.js') continue;
        const file = `stub${index++}.mjs`;
        const body = [...wanted].map((name) =>
            `export const ${name} = ${known[name] ?? 'new Proxy(function () {}, { get: (t, k) => k === Symbol.toPrimitive ? () => "" : undefined, apply: () => undefined, construct: () => ({}) })'};`).join('\n');
        fs.writeFileSync(path.join(folder, file), body + '\n');
        stubFor.set(spec, './' + file);
    }
    for (const file of ['macros.js', 'variables.js']) {
        const source = fs.readFileSync(path.join(scripts, file), 'utf8').replace(
            /(import\s*\{[^}]*\}\s*from\s*)['"]([^'"]+)['"]/g,
            (all, head, spec) => path.basename(spec) === 'variables.js' ? `${head}'./variables.mjs'` : `${head}'${stubFor.get(spec)}'`);
        fs.writeFileSync(path.join(folder, file.replace(/\.js$/, '.mjs')), source);
    }
    let macros;
    try {
        macros = await import(pathToFileURL(path.join(folder, 'macros.mjs')).href);
    } catch (error) {
        fail('import macros.js', error);
    }
    if (typeof macros.evaluateMacros !== 'function') fail('import macros.js', 'the module exports no evaluateMacros');
    const results = request.texts.map((text) => {
        try {
            return macros.evaluateMacros(text, { ...request.env });
        } catch (error) {
            return { error: String(error && error.message || error).split('\n')[0] };
        }
    });
    process.stdout.write(JSON.stringify({ results }));
} finally {
    fs.rmSync(folder, { recursive: true, force: true });
}
