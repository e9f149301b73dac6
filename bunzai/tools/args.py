"""The base of every tool's input model: strict, so a misspelt argument is named, not ignored."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class ToolArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")
