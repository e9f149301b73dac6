"""ask_choice: ask the person one question with fixed answers, through the client (elicitation).

Present only when the client declared elicitation; the answer is the person's, not an author's.
"""

from pydantic import Field

from bunzai.limits import MCP_ASK_CHOICES_MAX, MCP_ASK_CHOICES_MIN, MCP_ASK_QUESTION_MAX_CHARS
from bunzai.tools.args import ToolArgs
from bunzai.tools.contract import Tool


class Args(ToolArgs):
    question: str = Field(
        min_length=1,
        max_length=MCP_ASK_QUESTION_MAX_CHARS,
        description="The question, in a sentence the person can answer.",
    )
    choices: list[str] = Field(
        min_length=MCP_ASK_CHOICES_MIN,
        max_length=MCP_ASK_CHOICES_MAX,
        description=f"The answers to choose from ({MCP_ASK_CHOICES_MIN} to {MCP_ASK_CHOICES_MAX}).",
    )


def run(ctx, args: Args):
    schema = {
        "type": "object",
        "properties": {"choice": {"type": "string", "title": "Choice", "enum": args.choices}},
        "required": ["choice"],
    }
    answer = ctx.elicit(args.question, schema)
    action = answer.get("action") if answer.get("action") in ("accept", "decline", "cancel") else "cancel"
    content = answer.get("content") if isinstance(answer.get("content"), dict) else {}
    choice = content.get("choice")
    if action != "accept" or choice not in args.choices:
        return {"action": action if action != "accept" else "cancel", "choice": None}
    return {"action": "accept", "choice": choice}


TOOL = Tool(
    name="ask_choice",
    title="Ask the person",
    input_model=Args,
    effect="read",
    run=run,
    available=lambda ctx: ctx.elicit is not None,
    description="Ask the person at the client one question with a fixed set of answers; returns the choice, "
    "or that they declined or cancelled.",
)
