"""Real-engine mode: macros also evaluated by a SillyTavern checkout's own macro engine.

The checkout is found from BUNZAI_ST_ROOT, else `[engines] sillytavern = PATH` in the
studio's bunzai.toml (a relative path is read from the studio folder). With `node` on the
PATH, st_harness.mjs loads the checkout's legacy macro engine (public/scripts/macros.js and
public/scripts/variables.js, the engine of SillyTavern's "Experimental Macro Engine: off")
headless, with the browser frontend it imports replaced by the context (names, chat,
variables, a fixed clock), and evaluates each text. bunzai's evaluator runs the same texts
with the `sillytavern-legacy` catalog and every difference is reported.

Where the engine cannot be loaded (no node, no such file, an import that fails), the answer
says so with the reason; nothing is compared and nothing is pretended. Texts drawing random
values (`random`, `pick`, `roll`) are not compared: the two engines draw differently.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

from bunzai import limits
from bunzai.render.macro_eval import MacroContext, MacroEvaluator
from bunzai.store.settings import read_settings

ENV_ROOT = "BUNZAI_ST_ROOT"
HARNESS = Path(__file__).with_name("st_harness.mjs")
ENGINE = "SillyTavern's legacy macro engine (public/scripts/macros.js), run headless by bunzai"
_RANDOM = re.compile(r"\{\{\s*(random|pick|roll)\b", re.I)


def configured_root(studio=None) -> str | None:
    """The SillyTavern checkout to use: BUNZAI_ST_ROOT, else the studio's [engines] sillytavern."""
    given = os.environ.get(ENV_ROOT)
    if given:
        return given
    if studio is None:
        return None
    engines = read_settings(studio).get("engines")
    value = engines.get("sillytavern") if isinstance(engines, dict) else None
    if not isinstance(value, str) or not value:
        return None
    path = Path(value).expanduser()
    return str(path if path.is_absolute() else studio.root / path)


def _env(context: MacroContext) -> dict[str, str]:
    return {
        "user": context.user,
        "char": context.char,
        "group": context.char,
        "description": context.description,
        "personality": context.personality,
        "scenario": context.scenario,
        "persona": context.persona,
        "mesExamples": context.examples,
        "mesExamplesRaw": context.examples,
        "charPrompt": context.system_prompt,
        "charJailbreak": context.post_history,
        "charInstruction": context.post_history,
        "charDepthPrompt": context.depth_prompt,
        "creatorNotes": context.creator_notes,
        "charVersion": context.version,
        "char_version": context.version,
        "model": context.model,
        # no "original": substituteParams builds it only for a character's override, so the
        # engine leaves {{original}} as written, as bunzai's evaluator does outside one
    }


def run_engine(root: str, texts: list[str], context: MacroContext) -> dict[str, Any]:
    """{available, results} from the checkout's engine, or {available: false, reason}."""
    node = shutil.which("node")
    if node is None:
        return {"available": False, "reason": "node is not on the PATH, so the checkout's macro engine cannot run"}
    if not (Path(root) / "public" / "scripts" / "macros.js").is_file():
        return {
            "available": False,
            "reason": f"{root} holds no public/scripts/macros.js: not a SillyTavern checkout bunzai can load",
        }
    request = {
        "root": str(root),
        "now": context.clock.isoformat(),
        "env": _env(context),
        "max_context": context.max_context,
        "chat": [{"role": m.get("role"), "content": m.get("content", "")} for m in context.chat],
        "variables": dict(context.variables),
        "global_variables": dict(context.global_variables),
        "texts": texts[: limits.RENDER_ST_ENGINE_MAX_TEXTS],
    }
    try:
        proc = subprocess.run(
            [node, str(HARNESS)],
            input=json.dumps(request),
            capture_output=True,
            text=True,
            timeout=limits.RENDER_ST_ENGINE_SECONDS,
            env=dict(os.environ, TZ="UTC"),
        )
    except subprocess.TimeoutExpired:
        return {
            "available": False,
            "reason": f"the checkout's macro engine did not answer in {limits.RENDER_ST_ENGINE_SECONDS} s",
        }
    try:
        answer = json.loads(proc.stdout or "{}")
    except json.JSONDecodeError:
        answer = {}
    if "results" not in answer:
        why = answer.get("error") or (proc.stderr.strip().splitlines() or ["no answer"])[-1]
        stage = f" ({answer['stage']})" if answer.get("stage") else ""
        return {"available": False, "reason": f"the checkout's macro engine cannot be loaded headless{stage}: {why}"}
    return {"available": True, "results": answer["results"]}


def compare(root: str, texts: list[tuple[str, str]], context: MacroContext) -> dict[str, Any]:
    """Each (where, text) evaluated by both engines; the differences."""
    compared = [(where, text) for where, text in texts if "{{" in text and not _RANDOM.search(text)]
    skipped = [where for where, text in texts if "{{" in text and _RANDOM.search(text)]
    doc: dict[str, Any] = {"checkout": str(root), "engine": ENGINE, "bunzai_catalog": "sillytavern-legacy"}
    ran = run_engine(root, [text for _, text in compared], context)
    if not ran["available"]:
        return doc | {"available": False, "reason": ran["reason"]}
    disagreements = []
    for (where, text), theirs in zip(compared, ran["results"]):
        ours = MacroEvaluator(_copy(context), "sillytavern-legacy").evaluate(text, where).text
        if isinstance(theirs, dict):
            disagreements.append({"where": where, "text": text, "bunzai": ours, "error": theirs.get("error")})
        elif theirs != ours:
            disagreements.append({"where": where, "text": text, "bunzai": ours, "sillytavern": theirs})
    doc |= {"available": True, "compared": len(compared), "agree": not disagreements, "disagreements": disagreements}
    if skipped:
        doc["not_compared"] = {"reason": "random, pick and roll draw differently in each engine", "where": skipped}
    return doc


def _copy(context: MacroContext) -> MacroContext:
    from dataclasses import replace

    return replace(context, variables=dict(context.variables), global_variables=dict(context.global_variables))
