"""Which studio a command works in, as the CLI chooses it (no Typer: the fast path uses it).

A read-only command never creates the default studio (`~/.bunzai/studio`): it answers
studio_missing instead. When the default is the one used, one stderr line names it, so a
person who meant another studio sees where the answer came from.
"""

from __future__ import annotations

import os


def open_studio(option: str | None, *, writes: bool = False):
    """The studio for `--studio` (None when not given); `writes` lets a writing command create
    the default studio on first use."""
    from bunzai.store.studio import ENV_STUDIO, default_studio_folder, find_studio

    studio = find_studio(option, create=writes)
    if (
        (option is None or option == "")
        and not os.environ.get(ENV_STUDIO)
        and os.path.normpath(studio.folder) == os.path.normpath(default_studio_folder())
    ):
        from bunzai.cli.output import say

        say(f"bunzai: using the default studio {studio.root} (choose another with --studio DIR or {ENV_STUDIO})")
    return studio
