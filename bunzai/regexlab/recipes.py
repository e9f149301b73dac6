"""`recipes`: common roleplay rules, written for bunzai, each with a sample and its result.

The result shown is computed by the engine every time (the `expected` text here is what the
tests check it against), and each recipe carries a rule ready for `regex.rules.add`.
"""

from __future__ import annotations

from typing import Any

from bunzai.errors import BunzaiError
from bunzai.regexlab.lab import parse_find, try_pattern

# the marks SillyTavern's trimToEndSentence (public/scripts/utils.js) ends a sentence on, besides emoji
_END_MARKS = r'.!?*")}\]`$。！？”）】’」_'
_EMOJI = r"\p{Emoji_Presentation}\p{Extended_Pictographic}"
_TRIM_FIND = rf"/(?:(?<!\s)([{_END_MARKS}])|([{_EMOJI}])|\s+[{_END_MARKS}])[^{_END_MARKS}{_EMOJI}]*$/u"

# Same matches as /(?<!<[^<>]*)"((?:<[^>]*>|[^"<\n])+)"/g, which looked back at every quote.
CURLY_QUOTES_FIND = r'/"(?<!<[^<>]{0,16}")(?=((?:<[^>]*>|[^"<\n])+)")(?<!<[^<>]*")\1"/g'

RECIPES: list[dict[str, Any]] = [
    {
        "name": "italic-narration",
        "summary": (
            "Wrap *narration* in an element a theme can style (the asterisks go); SillyTavern prefixes a "
            "message's classes, so style .custom-narration there."
        ),
        # not a ** of **bold**: that would leave *<em>...</em>* for markdown to misread
        "find": r"/(?<!\*)\*([^*\n]+)\*(?!\*)/g",
        "replace": '<em class="narration">$1</em>',
        "placements": ["ai_output"],
        "markdown_only": True,
        "sample": "*She smiles.* Hello there. *Waves.*",
        "expected": '<em class="narration">She smiles.</em> Hello there. <em class="narration">Waves.</em>',
    },
    {
        "name": "thoughts",
        "summary": (
            "Show `thoughts in backticks` as a thought bubble rather than code (SillyTavern: style .custom-thought)."
        ),
        "find": r"/`([^`\n]+)`/g",
        "replace": '<span class="thought">($1)</span>',
        "placements": ["ai_output"],
        "markdown_only": True,
        "sample": "I should leave. `Or should I?`",
        "expected": 'I should leave. <span class="thought">(Or should I?)</span>',
    },
    {
        "name": "ooc-removal",
        "summary": "Remove out-of-character notes like (OOC: ...) or [OOC: ...] from what the model sees.",
        # Each bracket closed by its own kind, with one level of the same kind inside: (OOC: see [note])
        # and (OOC: a (b) c) go whole. The two alternatives inside start differently, and the spaces before
        # a note are taken from the start of their run only (?<!\s): no backtracking blow-up on either.
        "find": r"/(?<!\s)\s*(?:\(OOC:(?:[^()]|\([^()]*\))*\)|\[OOC:(?:[^[\]]|\[[^[\]]*\])*\])/gi",
        "replace": "",
        "placements": ["user_input", "ai_output"],
        "prompt_only": True,
        "sample": "Let's go to the market. (OOC: keep replies short)",
        "expected": "Let's go to the market.",
    },
    {
        "name": "html-cleanup",
        "summary": "Strip layout tags (div, span, p, font) a model copied into its reply, keeping their text.",
        "find": r"/<\/?(?:div|span|p|font)\b[^>]*>/gi",
        "replace": "",
        "placements": ["ai_output"],
        "sample": '<div class="reply"><p>The rain <font color="red">stops</font>.</p></div>',
        "expected": "The rain stops.",
    },
    {
        "name": "hide-tracker",
        "summary": "Hide a <tracker>...</tracker> status block from the chat display; the model still sees it.",
        "find": r"/\n?<tracker>[\s\S]*?<\/tracker>/g",
        "replace": "",
        "placements": ["ai_output"],
        "markdown_only": True,
        "sample": "The door creaks open.\n<tracker>\nHP: 12/20\nMood: wary\n</tracker>",
        "expected": "The door creaks open.",
    },
    {
        "name": "curly-quotes",
        "summary": 'Turn straight "dialogue quotes" into curly ones.',
        # a quote inside a tag (an attribute's, after an unclosed <) stays straight; tags inside
        # the dialogue are stepped over whole, so their attributes keep theirs too. The quote's
        # dialogue is read first (once, the lookahead's capture reused by \1), and only a quote that
        # opens one looks back for an unclosed <, which may take the text back to the last < or >:
        # a quote that opens nothing (100 KB of them) costs no look back, one right after an
        # unclosed < (within 16 characters) is set aside before its dialogue is read.
        "find": CURLY_QUOTES_FIND,
        "replace": "\u201c$1\u201d",
        "placements": ["ai_output"],
        "markdown_only": True,
        "sample": 'She said, "Come <b class="x">in</b>."',
        "expected": 'She said, \u201cCome <b class="x">in</b>.\u201d',
    },
    {
        "name": "trim-unfinished-sentence",
        "summary": "Cut a reply that stopped mid-sentence back to its last finished sentence.",
        # SillyTavern's own "trim incomplete sentences" (trimToEndSentence): its marks and emoji end a
        # sentence; a mark after a space opens one, so it goes with what follows it
        "find": _TRIM_FIND,
        "replace": "$1$2",
        "placements": ["ai_output"],
        "sample": 'She nods. "Follow me." Then she turns and',
        "expected": 'She nods. "Follow me."',
    },
    {
        "name": "collapse-blank-lines",
        "summary": "Collapse runs of blank lines into one blank line.",
        "find": r"/\n{3,}/g",
        "replace": "\n\n",
        "placements": ["ai_output"],
        "sample": "One.\n\n\n\nTwo.",
        "expected": "One.\n\nTwo.",
    },
    {
        "name": "strip-name-prefix",
        "summary": (
            'Remove a "{{char}}:" the model wrote at the start of its reply (the pattern expands {{char}} first).'
        ),
        "find": r"/^\s*{{char}}:\s*/",
        "replace": "",
        "substitute_macros": "escaped",
        "placements": ["ai_output"],
        "macros": {"char": "Seraphina"},
        "sample": "Seraphina: Welcome back.",
        "expected": "Welcome back.",
    },
]


def _recipe(name: str) -> dict[str, Any]:
    for recipe in RECIPES:
        if recipe["name"] == name:
            return recipe
    raise BunzaiError("not_found", f"no recipe {name!r}", f"recipes: {', '.join(r['name'] for r in RECIPES)}")


def run_recipe(recipe: dict[str, Any]) -> str:
    """The recipe's sample after its rule, as SillyTavern runs it."""
    return try_pattern(
        recipe["find"],
        recipe["sample"],
        replace=recipe["replace"],
        platform="sillytavern",
        macros=recipe.get("macros"),
        substitute=recipe.get("substitute_macros", "none"),
    )["result"]


def recipe_rule(recipe: dict[str, Any]) -> dict[str, Any]:
    """The recipe as a canonical rule (the input of `regex.rules.add`)."""
    parsed = parse_find(recipe["find"], "sillytavern")
    rule = {
        "name": recipe["name"],
        "pattern": parsed["pattern"],
        "flags": parsed["flags"],
        "replacement": recipe["replace"],
        "placements": recipe["placements"],
    }
    for key in ("markdown_only", "prompt_only", "substitute_macros"):
        if key in recipe:
            rule[key] = recipe[key]
    return rule


def recipes(name: str | None = None) -> dict[str, Any]:
    """The catalog (each recipe with its sample and result), or one recipe with its rule."""
    if name is None:
        rows = [
            {
                "name": r["name"],
                "summary": r["summary"],
                "find": r["find"],
                "replace": r["replace"],
                "sample": r["sample"],
                "result": run_recipe(r),
            }
            for r in RECIPES
        ]
        return {"count": len(rows), "items": rows}
    recipe = _recipe(name)
    shown = {key: value for key, value in recipe.items() if key != "expected"}
    return {**shown, "platform": "sillytavern", "result": run_recipe(recipe), "input": {"rules": [recipe_rule(recipe)]}}
