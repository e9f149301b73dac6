"""The losses several RisuAI writers name (lorebook, regex and module exports): one rule per code.

Each writer passes a sentence naming the file it writes; the preset writer declares its own
read-back rules for the same codes (preset_write.RULES).
"""

from __future__ import annotations

from bunzai.adapters.common.losses import LossRule

ASSETS = LossRule("/assets", "dropped", "risu.assets", "a RisuAI export carries no media")
PROFILES = LossRule("/profiles", "dropped", "risu.profiles", "a RisuAI export has no per-platform profiles")
NAME_FILE_NAME = LossRule(
    "/name", "translated", "risu.name.file_name", "a RisuAI export has no name: the file name is the name"
)
