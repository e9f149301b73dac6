"""`html-will-draw`: which parts of a drawing's markup a sealed preview strips or cannot load.

Reads the markup with the standard library's HTML tokenizer against the one seal policy
(bunzai.render.seal_policy) and names, with line numbers: tags that would be stripped,
attributes that would be stripped, inline handlers that never fire, and http(s) addresses
that cannot load. Nothing is rendered or run.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any

from bunzai import limits
from bunzai.errors import BunzaiError
from bunzai.render import seal_policy as policy

_CSS_URL = re.compile(r"""url\(\s*(['"]?)([^'")\s]+)\1\s*\)|@import\s+(['"])([^'"]+)\3""", re.I)


_URL_IGNORED = re.compile(r"[\t\n\r]")  # a browser's URL parser drops these anywhere in an address


def _address(url: str) -> str:
    """The address as a browser reads its scheme: tabs and line breaks gone, leading controls
    and spaces trimmed, lower case (`java&#9;script:` is `javascript:`)."""
    return _URL_IGNORED.sub("", url).lstrip("".join(map(chr, range(0x21)))).lower()


def _remote(url: str) -> bool:
    return _address(url).startswith(policy.REMOTE_SCHEMES)


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stripped_tags: list[dict] = []
        self.stripped_attributes: list[dict] = []
        self.handlers: list[dict] = []
        self.remote: list[dict] = []
        self._in_style = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        line = self.getpos()[0]
        if tag in policy.STRIPPED_TAGS:
            self.stripped_tags.append({"tag": tag, "line": line, "why": policy.STRIPPED_TAGS[tag]})
        self._in_style = tag == "style"
        for name, value in attrs:
            value = value or ""
            if name.startswith(policy.HANDLER_PREFIX) and len(name) > 2:
                self.handlers.append({"handler": name, "tag": tag, "line": line, "code": value[:80]})
            elif name in policy.STRIPPED_ATTRIBUTES:
                self.stripped_attributes.append(
                    {"attribute": name, "tag": tag, "line": line, "why": policy.STRIPPED_ATTRIBUTES[name]}
                )
            elif name in policy.URL_ATTRIBUTES and _address(value).startswith(policy.SCRIPT_SCHEMES):
                self.stripped_attributes.append(
                    {"attribute": name, "tag": tag, "line": line, "why": "a script address never runs"}
                )
            if name in policy.URL_ATTRIBUTES and _remote(value):
                self.remote.append({"url": value.strip(), "tag": tag, "attribute": name, "line": line})
            elif name in policy.SRCSET_ATTRIBUTES:
                for part in value.split(","):
                    url = part.split()[0] if part.split() else ""  # any whitespace ends the address
                    if _remote(url):
                        self.remote.append({"url": url, "tag": tag, "attribute": name, "line": line})
            elif name == "style":
                self._css(value, tag, line, lines=False)

    handle_startendtag = handle_starttag

    def parse_marked_section(self, i: int, report: int = 1) -> int:
        # `<![` that is not a CDATA or MS Office section (a typo, a cut-off drawing) makes the
        # standard parser raise AssertionError; a browser reads it as a bogus comment up to `>`.
        try:
            return super().parse_marked_section(i, report)
        except AssertionError:
            return self.parse_bogus_comment(i, report)

    def close(self) -> None:
        super().close()
        # A <style> left open runs to the end of the markup, and a browser applies it; the standard
        # parser keeps that text back rather than hand it on. getpos() is where the text starts.
        if self._in_style and self.rawdata:
            self.handle_data(self.rawdata)

    def handle_endtag(self, tag: str) -> None:
        if tag == "style":
            self._in_style = False

    def handle_data(self, data: str) -> None:
        if self._in_style:
            self._css(data, "style", self.getpos()[0])

    def _css(self, css: str, tag: str, line: int, lines: bool = True) -> None:
        """`line` is where `css` starts: a `<style>` block's addresses are reported on their own
        lines (`lines`), an inline style's on its tag's line, as every attribute finding is."""
        for match in _CSS_URL.finditer(css):
            url = match.group(2) or match.group(4) or ""
            if _remote(url):
                at = line + css.count("\n", 0, match.start()) if lines else line
                self.remote.append(
                    {"url": url, "tag": tag, "attribute": "style" if tag != "style" else "css", "line": at}
                )


def html_will_draw(markup: str) -> dict[str, Any]:
    """{stripped_tags, stripped_attributes, inline_handlers, remote_references, draws_as_written, note}."""
    if len(markup.encode("utf-8", "surrogatepass")) > limits.DRAWING_MAX_BYTES:
        raise BunzaiError(
            "too_large", f"the markup is over {limits.DRAWING_MAX_BYTES} bytes", "check one drawing at a time"
        )
    reader = _Reader()
    reader.feed(markup)
    reader.close()
    found = {
        "stripped_tags": reader.stripped_tags,
        "stripped_attributes": reader.stripped_attributes,
        "inline_handlers": reader.handlers,
        "remote_references": reader.remote,
    }
    return {**found, "draws_as_written": not any(found.values()), "note": policy.NOTE}
