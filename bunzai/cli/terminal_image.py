"""Drawing an image inline on a terminal that can: kitty's graphics protocol, iTerm2's.

Detection reads only the environment (TERM, KITTY_WINDOW_ID, TERM_PROGRAM); sixel is not
offered, as no environment variable says reliably that a terminal draws it.
"""

from __future__ import annotations

import base64
import os

_CHUNK = 4096  # kitty takes the base64 payload in chunks of at most 4096 bytes


def protocol(environ=os.environ) -> str | None:
    """ "kitty", "iterm2" or None for the terminal these variables describe."""
    if environ.get("TERM") == "xterm-kitty" or environ.get("KITTY_WINDOW_ID"):
        return "kitty"
    if environ.get("TERM_PROGRAM") == "iTerm.app":
        return "iterm2"
    return None


def escape(kind: str, data: bytes, mime: str) -> str:
    """The escape sequence that draws `data` on a terminal speaking `kind`."""
    payload = base64.b64encode(data).decode("ascii")
    if kind == "iterm2":
        return f"\x1b]1337;File=inline=1;size={len(data)};preserveAspectRatio=1:{payload}\x07\n"
    chunks = [payload[i : i + _CHUNK] for i in range(0, len(payload), _CHUNK)] or [""]
    out = []
    for index, chunk in enumerate(chunks):
        more = 1 if index < len(chunks) - 1 else 0
        head = f"a=T,f=100,m={more}" if index == 0 else f"m={more}"  # f=100: the payload is a PNG file
        out.append(f"\x1b_G{head};{chunk}\x1b\\")
    return "".join(out) + "\n"


def can_draw(kind: str, mime: str) -> bool:
    """kitty draws PNG files only (other formats would need decoding); iTerm2 draws any image."""
    return mime == "image/png" if kind == "kitty" else mime.startswith("image/")
