"""The canonical macro operations: what a macro *does*, independent of how an engine spells it.

Catalogs name one of these ids for each of their forms (or an engine-only `x.<engine>.<what>`),
and every cross-engine answer is a join on these ids. Arguments are listed in the canonical
order: a catalog whose engine takes them in another order says so with `order:`.
Scope is part of a variable op (`var` persists per chat, `gvar` across chats, `tvar` for one
render, `pvar` is a preset-declared prompt variable), because a re-spelling that changes
scope changes what the prompt does.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bunzai.jstext import js_number


@dataclass(frozen=True)
class Op:
    id: str
    family: str
    args: tuple[str, ...]  # canonical argument names, in canonical order ("*" marks a list)
    summary: str
    block: bool = False  # takes a body between an opener and a closing tag
    keep_unresolved: bool = False  # never removed, even where the target lacks it


# Families group ops a reader would offer as alternatives for each other ("absent, but see...").
# The variable scopes share one family on purpose: an absent `var.set_default` should name the
# target's `var.set`, and an absent `var.set` should name its `tvar.set` (with the scope caveat).
_FAMILY_OF_PREFIX = {
    "char": "names",
    "user": "names",
    "group": "names",
    "card": "card",
    "persona": "persona",
    "pronoun": "persona",
    "prompt": "prompt",
    "instruct": "prompt",
    "wi": "prompt",
    "ltm": "prompt",
    "chat": "chat",
    "sys": "sys",
    "time": "time",
    "date": "time",
    "weekday": "time",
    "datetime": "time",
    "random": "random",
    "dice": "random",
    "var": "variables",
    "gvar": "variables",
    "tvar": "variables",
    "pvar": "variables",
    "cond": "control",
    "loop": "control",
    "block": "control",
    "func": "control",
    "comment": "comment",
    "text": "text",
    "gen": "text",
    "math": "math",
    "logic": "logic",
    "list": "list",
}

# id | args (space separated, "-" for none) | summary. Kept as one table so the vocabulary
# reads like the reference it comes from (shared/reference/macros.md §4).
_TABLE = """
char.name | - | the character's display name
user.name | - | the user's display name
group.members | - | comma list of the group's members
group.members_unmuted | - | comma list of the group's unmuted members
group.others | - | the group's members other than the speaker
group.title | - | the group chat's own name
card.description | - | the card's description
card.personality | - | the card's personality summary
card.scenario | - | the card's scenario
card.examples | - | example dialogue, formatted for the prompt
card.examples_raw | - | example dialogue as written on the card
card.first_message | index? | the card's greeting (an alternate by index)
card.system_prompt | - | the card's own system prompt override
card.post_history | - | the card's post-history instructions
card.depth_prompt | - | the card's depth prompt
card.creator_notes | - | the card's creator notes
card.version | - | the card's version string
card.creator | - | the card's creator
card.tags | - | the card's tags
card.backstory | - | the card's backstory field
card.appearance | - | the card's appearance field
persona.description | - | the user persona's description
pronoun.user.subj | - | the persona's subject pronoun
pronoun.user.obj | - | the persona's object pronoun
pronoun.user.poss | - | the persona's possessive pronoun
pronoun.char.subj | - | the character's subject pronoun
pronoun.char.obj | - | the character's object pronoun
pronoun.char.poss | - | the character's possessive pronoun
pronoun.char.poss_pro | - | the character's possessive pronoun, standing alone
prompt.system | - | the preset's main system prompt
prompt.system_default | - | the default system prompt of the instruct template
prompt.jailbreak | - | the preset's jailbreak / bottom instruction
prompt.post_history_note | - | a note placed after the chat history (Risu's global note)
prompt.original | - | the prompt a character override replaces (composed by the crossing: never removed)
prompt.authors_note | - | the author's note
prompt.post | - | the post-history line that starts the reply
prompt.summary | - | the chat summary
prompt.example_separator | - | the separator between example dialogues
prompt.chat_start | - | the marker that starts the chat
prompt.reasoning_prefix | mode? | the opening of a reasoning block
prompt.reasoning_suffix | mode? | the closing of a reasoning block
prompt.reasoning_separator | - | the separator after a reasoning block
instruct.sequence | - | one of the instruct template's sequences
wi.active | - | the activated lorebook entries
wi.before | - | lorebook entries placed before the card
wi.after | - | lorebook entries placed after the card
wi.outlet | key | the lorebook entries sent to a named outlet
ltm.retrieved | count? | memories retrieved for this turn
chat.input_draft | - | the text in the send box
chat.last_message | - | the last message of the chat
chat.last_user_message | - | the last user message
chat.last_char_message | - | the last character message
chat.last_message_id | - | the index of the last message
chat.first_included_id | - | the first message index sent in the prompt
chat.first_displayed_id | - | the first message index shown
chat.last_swipe_id | - | the number of swipes of the last message
chat.current_swipe_id | - | the index of the swipe shown
chat.id_range | - | the range of message indexes of the chat
chat.message_at | index | the message at an index
chat.history | role? | the chat history
chat.message_count | - | how many messages the chat holds
chat.id | - | the chat's id
chat.age | - | how long the chat has been going
chat.current_index | - | the index of the message being rendered
chat.last_generation_type | - | the kind of the last generation (normal, swipe, ...)
sys.model | - | the model in use
sys.max_context | - | the context size
sys.max_prompt | - | the prompt budget
sys.max_response | - | the response budget
sys.is_mobile | - | whether the client is a phone
sys.has_extension | name | whether an extension is enabled
time.now | offset? | the time of day
date.now | offset? | today's date
weekday.now | - | today's weekday
datetime.iso | - | a full ISO timestamp
time.format | format | the date and time in a given format
time.unix | - | seconds since the epoch
time.idle | - | time since the user's last message
time.diff | a b | the time between two dates
random.pick | items* | one of the items, drawn again at each render
random.pick_stable | items* | one of the items, stable for the chat and position
random.range | min max | an integer between min and max, inclusive
random.percent | - | an integer from 0 to 100 (an argument-less random in Marinara and RoleCall)
random.float | - | a number in [0, 1)
dice.roll | formula | a dice roll (the formula dialect differs per engine)
dice.roll_stable | formula | a dice roll, stable across renders
var.get | name | read a chat variable
var.set | name value | write a chat variable
var.add | name value | add to a chat variable
var.sub | name value | subtract from a chat variable (the `-=` shorthand)
var.inc | name | increment a chat variable
var.dec | name | decrement a chat variable
var.has | name | whether a chat variable exists
var.del | name | delete a chat variable
var.set_default | name value | write a chat variable unless it has a value
var.get_or | name fallback | read a chat variable, with a fallback
var.compare | name value | compare a chat variable with a value
gvar.get | name | read a global variable
gvar.set | name value | write a global variable
gvar.add | name value | add to a global variable
gvar.sub | name value | subtract from a global variable (the `-=` shorthand)
gvar.inc | name | increment a global variable
gvar.dec | name | decrement a global variable
gvar.has | name | whether a global variable exists
gvar.del | name | delete a global variable
gvar.set_default | name value | write a global variable unless it has a value
gvar.get_or | name fallback | read a global variable, with a fallback
gvar.compare | name value | compare a global variable with a value
tvar.get | name | read a variable that lasts one render
tvar.set | name value | write a variable that lasts one render
tvar.add | name value | add to a variable that lasts one render
tvar.sub | name value | subtract from a variable that lasts one render (the `-=` shorthand)
tvar.inc | name | increment a variable that lasts one render
tvar.dec | name | decrement a variable that lasts one render
tvar.has | name | whether a one-render variable exists
tvar.del | name | delete a one-render variable
pvar.get | name | read a preset-declared prompt variable
cond.if | cond | keep the body when the condition holds
cond.unless | cond | keep the body when the condition fails
cond.else | - | the branch taken otherwise
cond.elseif | cond | a further condition inside an if
loop.each | list | repeat the body for each item of a list
loop.each_history | - | repeat the body for each chat message
loop.each_char | - | repeat the body for each character
loop.slot | name | the current item inside a loop
block.raw | - | a body kept verbatim (no macros inside)
block.lowpriority | - | a body dropped first when the prompt is too long
block.insert_at_depth | depth | a body inserted N messages deep
func.define | name params* | define a reusable function
func.call | name args* | call a function defined with func.define
comment | text? | an author's note to self, removed from the prompt
comment.visible | text | a note removed from the prompt but shown in chat
text.newline | count? | a line break
text.space | count? | a space
text.noop | - | nothing (an empty string)
text.trim_around | - | remove this marker and the newlines around it
text.trim | text | the text without surrounding whitespace
text.trim_start | - | strip whitespace before this point
text.trim_end | - | strip whitespace after this point
text.reverse | text | the text reversed
text.upper | text | the text in upper case
text.lower | text | the text in lower case
text.capitalize | text | the text capitalised
text.replace | text find with | the text with find replaced by with
text.length | text | the text's length
text.split | text delim | the text split by a delimiter
text.contains | text sub | whether the text contains sub
text.startswith | text prefix | whether the text starts with prefix
text.endswith | text suffix | whether the text ends with suffix
text.substr | text start end? | part of the text
text.repeat | text count | the text repeated
text.regex_replace | pattern with text | the text with a regex replaced
gen.banned_word | word | a word banned from the reply
math.calc | expr | the value of an arithmetic expression
math.round | value | a number rounded
math.floor | value | a number rounded down
math.ceil | value | a number rounded up
math.abs | value | a number's absolute value
math.mod | a b | a modulo b
math.pow | a b | a to the power b
math.min | values* | the smallest value
math.max | values* | the largest value
math.sum | values* | the sum of the values
math.avg | values* | the mean of the values
math.fixed | value digits | a number with fixed decimals
logic.eq | a b | whether a equals b
logic.ne | a b | whether a differs from b
logic.gt | a b | whether a > b
logic.lt | a b | whether a < b
logic.ge | a b | whether a >= b
logic.le | a b | whether a <= b
logic.and | values* | whether all are true
logic.or | values* | whether any is true
logic.not | value | the negation
logic.all | values* | whether all values are true
logic.any | values* | whether any value is true
logic.is_blank | value | whether the value is blank
list.make | items* | a list of the items
list.len | list | the list's length
list.get | list index | the item at an index
list.join | list sep | the items joined by a separator
list.range | end | a list of numbers
list.contains | list item | whether the list holds the item
list.clean | list mode | the list cleaned up (empty or duplicate items removed)
list.filter_pred | list | the items for which the body holds
list.every_pred | list | whether the body holds for every item
list.some_pred | list | whether the body holds for some item
"""

# Ops whose body is a block between an opener and `{{/name}}`.
_BLOCK_OPS = {
    "cond.if",
    "cond.unless",
    "loop.each",
    "loop.each_history",
    "loop.each_char",
    "block.raw",
    "block.lowpriority",
    "block.insert_at_depth",
    "func.define",
    "list.filter_pred",
    "list.every_pred",
    "list.some_pred",
}
# `{{original}}` is filled by whoever composes the prompt (a character override wrapping the
# preset's prompt): removing it would silently drop the preset's text, so it always survives.
_KEEP_UNRESOLVED = {"prompt.original"}


def _parse_table() -> dict[str, Op]:
    ops: dict[str, Op] = {}
    for line in _TABLE.strip().splitlines():
        op_id, args, summary = (part.strip() for part in line.split("|"))
        ops[op_id] = Op(
            id=op_id,
            family=_FAMILY_OF_PREFIX[op_id.split(".")[0]],
            args=() if args == "-" else tuple(args.split()),
            summary=summary,
            block=op_id in _BLOCK_OPS,
            keep_unresolved=op_id in _KEEP_UNRESOLVED,
        )
    return ops


OPS: dict[str, Op] = _parse_table()

# Ops whose only job is to shape a block; a target without them flattens the block.
CONTROL_FAMILY = "control"


def is_engine_only(op_id: str) -> bool:
    """`x.<engine>.<what>`: an operation one engine alone has; absent everywhere else."""
    return op_id.startswith("x.")


def is_known(op_id: str) -> bool:
    if is_engine_only(op_id):
        parts = op_id.split(".")
        return len(parts) >= 3 and all(parts)
    return op_id in OPS


def family_of(op_id: str) -> str:
    """The family an op belongs to; an engine-only op is its own family `x.<engine>`."""
    if is_engine_only(op_id):
        return ".".join(op_id.split(".")[:2])
    return OPS[op_id].family


def canonical_args(op_id: str) -> tuple[str, ...]:
    """Canonical argument names (a trailing `?` marks optional, `*` a list)."""
    op = OPS.get(op_id)
    return op.args if op else ()


def is_block_op(op_id: str) -> bool:
    op = OPS.get(op_id)
    return bool(op and op.block)


def keeps_unresolved(op_id: str | None) -> bool:
    op = OPS.get(op_id or "")
    return bool(op and op.keep_unresolved)


# A subtraction is the addition of the negated value (SillyTavern's `-=`, MacroCstWalker's
# `sub`, adds `-Number(value)`): written so where the target has no subtraction of its own.
_SUBTRACTION_AS_ADDITION = {"var.sub": "var.add", "gvar.sub": "gvar.add", "tvar.sub": "tvar.add"}
_DECIMAL = re.compile(r"[+-]?(?:Infinity|[0-9]*\.?[0-9]+(?:[eE][+-]?[0-9]+)?|[0-9]+\.)")


def as_addition(op_id: str | None, args: list[str]) -> tuple[str, list[str]] | None:
    """(the addition op, its arguments) that says what subtraction `op_id` of `args` does, the
    value's sign flipped in writing; None unless the value is a number whose written negation
    JavaScript's Number() reads as its negative (`0x10` is, `-0x10` is not: NaN)."""
    added = _SUBTRACTION_AS_ADDITION.get(op_id or "")
    if added is None or len(args) != 2 or not _DECIMAL.fullmatch(args[1]):
        return None
    value = args[1]
    negated = value[1:] if value[0] == "-" else "-" + value.lstrip("+")
    if js_number(negated) != -js_number(value):
        return None
    return added, [args[0], negated]
