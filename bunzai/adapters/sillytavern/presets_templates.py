"""SillyTavern templates: instruct, context, sysprompt and reasoning, one format each.

A template is named strings (`templates.sequences`, under SillyTavern's key names) and a
few typed options (`templates.options`); its `name` key names the piece. Unknown keys stay
in the escrow.

Instruct templates before 1.12.6 say `names` / `names_force_groups` (booleans) and
`separator_sequence`; they read as `names_behavior` and `output_suffix`, as SillyTavern
migrates them. The embedded `system_prompt` of those templates stays a named string (the
current SillyTavern moves it to a sysprompt preset "[Migrated] <name>" when it loads it).

A master export (Advanced Formatting -> Master Export, preset-manager.js performMasterExport)
is one object holding the selected templates and text-completion preset under `instruct`,
`context`, `sysprompt`, `preset` and `reasoning`: it reads as one piece per section, each
escrowed as the file of its own format, so it exports to SillyTavern as those files.
"""

from __future__ import annotations

from typing import Any

from bunzai.adapters.common.losses import LossRule
from bunzai.adapters.contract import Adapter, Decoded, Loss
from bunzai.adapters.registry import register
from bunzai.adapters.common.fieldmap import MISSING, Field, bool_reader, int_reader, str_reader
from bunzai.adapters.sillytavern.presets import PresetAdapter
from bunzai.adapters.sillytavern.presets_text import TEXTGEN
from bunzai.adapters.sillytavern.st_json import native_object
from bunzai.errors import BunzaiError

INSTRUCT_SEQUENCES = (
    "input_sequence",
    "input_suffix",
    "output_sequence",
    "output_suffix",
    "system_sequence",
    "system_suffix",
    "last_system_sequence",
    "first_input_sequence",
    "last_input_sequence",
    "first_output_sequence",
    "last_output_sequence",
    "system_sequence_prefix",
    "system_sequence_suffix",
    "stop_sequence",
    "user_alignment_message",
    "activation_regex",
    "story_string_prefix",
    "story_string_suffix",
    "system_prompt",
)
INSTRUCT_OPTIONS = (
    ("wrap", bool_reader(MISSING)),
    ("macro", bool_reader(MISSING)),
    ("skip_examples", bool_reader(MISSING)),
    ("system_same_as_user", bool_reader(MISSING)),
    ("sequences_as_stop_strings", bool_reader(MISSING)),
    ("names_behavior", str_reader(MISSING)),
)
LEGACY_INSTRUCT_KEYS = ("names", "names_force_groups", "separator_sequence")
# The instruct keys SillyTavern neither defaults (migrateInstructModeSettings) nor clears: loading a
# template without one keeps the value of the template selected before it (`#instruct_presets`
# change sets only the keys the template has).
KEPT_FROM_PREVIOUS = (
    ("sequences", "input_sequence"),
    ("sequences", "output_sequence"),
    ("sequences", "output_suffix"),
    ("sequences", "stop_sequence"),
    ("sequences", "first_output_sequence"),
    ("sequences", "last_output_sequence"),
    ("sequences", "activation_regex"),
    ("options", "wrap"),
    ("options", "macro"),
)
_KEPT_READERS = {"sequences": str_reader(MISSING), "options": bool_reader(MISSING)}
KEPT_RULE = LossRule(
    "/body/templates/(?:sequences|options)/[^/]+",
    "translated",
    "preset.template.kept_from_previous",
    "the template has no such key, and SillyTavern then keeps the value of the instruct template selected before it",
)

CONTEXT_SEQUENCES = ("story_string", "example_separator", "chat_start")
CONTEXT_OPTIONS = tuple(
    [
        (key, bool_reader(MISSING))
        for key in (
            "use_stop_strings",
            "allow_jailbreak",
            "names_as_stop_strings",
            "always_force_name2",
            "trim_sentences",
            "single_line",
        )
    ]
    + [(key, int_reader(MISSING)) for key in ("story_string_position", "story_string_depth", "story_string_role")]
)


def _rows(sequences: tuple[str, ...], options: tuple[tuple[str, Any], ...]) -> tuple[Field, ...]:
    return (
        *(Field(key, ("templates", "sequences", key), str_reader(MISSING)) for key in sequences),
        *(Field(key, ("templates", "options", key), decode) for key, decode in options),
    )


def _strings(parsed: Any, *keys: str) -> bool:
    return isinstance(parsed, dict) and all(isinstance(parsed.get(key), str) for key in keys)


class TemplateAdapter(PresetAdapter):
    named = True


class InstructTemplate(TemplateAdapter):
    format_id = "sillytavern.instruct"
    label = "SillyTavern instruct template"
    family = "instruct"
    id_suffix = "instruct"
    what = "a SillyTavern instruct template"
    name_first = False
    field_rows = _rows(INSTRUCT_SEQUENCES, INSTRUCT_OPTIONS)

    def sniff(self, data: bytes, name: str, parsed: Any) -> float:
        if not _strings(parsed, "input_sequence", "output_sequence"):
            return 0.0
        return 0.9 if _strings(parsed, "name") else 0.6

    def declared_losses(self, body: dict, prior: dict | None) -> list[Loss]:
        """A key SillyTavern does not default that the written file lacks, where the piece left it
        out (a new instruct template, or one removed from the file)."""
        if body["family"] != self.family:
            return []
        templates = body["templates"]
        return [
            KEPT_RULE.at(
                f"/body/templates/{part}/{key}",
                f"the template has no {key!r}: SillyTavern keeps the value of the instruct template selected "
                "before it; set it (an empty string, false) to clear it there",
            )
            for part, key in KEPT_FROM_PREVIOUS
            if key not in templates[part] and (prior is None or _KEPT_READERS[part](prior.get(key)) is not MISSING)
        ]

    def migrate(self, document: dict) -> dict:
        if not any(key in document for key in LEGACY_INSTRUCT_KEYS):
            return document
        current = {key: value for key, value in document.items() if key not in LEGACY_INSTRUCT_KEYS}
        if "names_behavior" not in document and ("names" in document or "names_force_groups" in document):
            current["names_behavior"] = (
                "always"
                if document.get("names") is True
                else "force"
                if document.get("names_force_groups") is True
                else "none"
            )
        if "separator_sequence" in document and "output_suffix" not in document:
            current["output_suffix"] = document["separator_sequence"]
        return current


class ContextTemplate(TemplateAdapter):
    format_id = "sillytavern.context"
    label = "SillyTavern context template"
    family = "context"
    id_suffix = "context"
    what = "a SillyTavern context template"
    name_first = False
    field_rows = _rows(CONTEXT_SEQUENCES, CONTEXT_OPTIONS)

    def sniff(self, data: bytes, name: str, parsed: Any) -> float:
        if not _strings(parsed, "story_string"):
            return 0.0
        return 0.9 if _strings(parsed, "name") else 0.6


class SyspromptTemplate(TemplateAdapter):
    format_id = "sillytavern.sysprompt"
    label = "SillyTavern system prompt"
    family = "sysprompt"
    id_suffix = "sysprompt"
    what = "a SillyTavern system prompt preset"
    field_rows = _rows(("content", "post_history"), ())

    def sniff(self, data: bytes, name: str, parsed: Any) -> float:
        if not _strings(parsed, "name", "content"):
            return 0.0
        if set(parsed) <= {"name", "content", "post_history"}:
            return 0.8
        # name + content is a weak sign: other formats' objects have those keys too.
        return (
            0.0
            if any(
                key in parsed
                for key in ("spec", "data", "entries", "prompts", "input_sequence", "story_string", "prefix")
            )
            else 0.4
        )


class ReasoningTemplate(TemplateAdapter):
    format_id = "sillytavern.reasoning"
    label = "SillyTavern reasoning template"
    family = "reasoning"
    id_suffix = "reasoning"
    what = "a SillyTavern reasoning template"
    field_rows = _rows(("prefix", "suffix", "separator"), ())

    def sniff(self, data: bytes, name: str, parsed: Any) -> float:
        if not _strings(parsed, "name", "prefix", "suffix"):
            return 0.0
        return 0.85 if _strings(parsed, "separator") else 0.6


class MasterExport(Adapter):
    """SillyTavern's master export: one preset piece per section it would import (read only)."""

    format_id = "sillytavern.master"
    label = "SillyTavern master export (Advanced Formatting)"
    kinds = ("preset",)
    extensions = (".json",)
    container = "text"
    can_write = False
    engine = "sillytavern"

    def __init__(self, sections: dict[str, tuple[PresetAdapter, tuple[str, ...]]]) -> None:
        # section key -> (the format it is saved as, the keys SillyTavern's isPossibly...Data asks for)
        self.sections = sections

    def _valid(self, parsed: dict) -> list[str]:
        return [
            key
            for key, (_, needed) in self.sections.items()
            if isinstance(parsed.get(key), dict) and all(name in parsed[key] for name in needed)
        ]

    def sniff(self, data: bytes, name: str, parsed: Any) -> float:
        if not isinstance(parsed, dict) or not self._valid(parsed):
            return 0.0
        return 0.9 if set(parsed) <= {*self.sections, "srw"} else 0.5

    def read(self, data: bytes, name: str, parsed: Any) -> Decoded:
        document = native_object(data, name, parsed, "a SillyTavern master export")
        valid = self._valid(document)
        if not valid:
            raise BunzaiError(
                "corrupt_file",
                f"{name or 'the file'} has no section SillyTavern's master import takes",
                "a master export holds instruct, context, sysprompt, preset or reasoning objects",
            )
        pieces = []
        for key in valid:
            adapter = self.sections[key][0]
            section = document[key]
            title = section.get("name")
            # SillyTavern saves it as <name>.json, its name sanitized as a file name (no path separators).
            stem = title.replace("/", "").replace("\\", "") if isinstance(title, str) and title.strip() else key
            stem = stem or key
            piece = adapter.read(b"", f"{stem}.json", section).pieces[0]
            piece.original.source = f"{stem}.json"  # the file SillyTavern's master import saves it as
            pieces.append(piece)
        skipped = sorted(set(document) - set(valid))
        warnings = [f"not read: {', '.join(skipped)} (no preset of their own, or not a section SillyTavern takes)"]
        return Decoded(pieces, warnings=warnings if skipped else [])


INSTRUCT = register(InstructTemplate())
CONTEXT = register(ContextTemplate())
SYSPROMPT = register(SyspromptTemplate())
REASONING = register(ReasoningTemplate())
# The sections in the order SillyTavern lists them, each saved through its own preset manager
# (the text-completion `preset` through TextGen's, whatever its backend).
register(
    MasterExport(
        {
            "instruct": (INSTRUCT, ("name", "input_sequence", "output_sequence")),
            "context": (CONTEXT, ("name", "story_string")),
            "sysprompt": (SYSPROMPT, ("name", "content")),
            "preset": (TEXTGEN, ("temp", "top_k", "top_p", "rep_pen")),
            "reasoning": (REASONING, ("name", "prefix", "suffix", "separator")),
        }
    )
)
