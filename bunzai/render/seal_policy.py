"""The seal policy: what bunzai's sandboxed preview of a drawing (an HTML document) removes
or blocks, in one place. `html_will_draw` reads markup against it.

A preview is sealed: it runs no script, submits nothing, and loads nothing from the network.
So markup that relies on any of these draws differently there (and, on a frontend with
a stricter sanitizer, differently again). This is a description of one preview, not a
safety check: markup that passes it is not thereby safe to run anywhere.
"""

from __future__ import annotations

# Tags the preview removes with their content: script and embedding (they run or load
# something), form controls (a drawing displays; it does not take input or submit),
# and document-level tags that would reach outside the drawing.
STRIPPED_TAGS: dict[str, str] = {
    "script": "scripts never run in a sealed preview",
    "noscript": "removed with the scripts it stands in for",
    "iframe": "embedded pages are not loaded",
    "frame": "embedded pages are not loaded",
    "frameset": "embedded pages are not loaded",
    "object": "embedded objects are not loaded",
    "embed": "embedded objects are not loaded",
    "applet": "embedded objects are not loaded",
    "portal": "embedded pages are not loaded",
    "form": "form controls are removed: a drawing takes no input and submits nothing",
    "input": "form controls are removed: a drawing takes no input and submits nothing",
    "button": "form controls are removed: a drawing takes no input and submits nothing",
    "select": "form controls are removed: a drawing takes no input and submits nothing",
    "option": "form controls are removed: a drawing takes no input and submits nothing",
    "optgroup": "form controls are removed: a drawing takes no input and submits nothing",
    "textarea": "form controls are removed: a drawing takes no input and submits nothing",
    "datalist": "form controls are removed: a drawing takes no input and submits nothing",
    "output": "form controls are removed: a drawing takes no input and submits nothing",
    "link": "document links (stylesheets, preloads) are not loaded",
    "meta": "document settings (refresh, policies) do not apply inside a drawing",
    "base": "a base address would change every link of the page",
}

# Attributes removed from any tag (besides every inline handler, `on...`).
STRIPPED_ATTRIBUTES: dict[str, str] = {
    "action": "forms submit nothing",
    "formaction": "forms submit nothing",
    "srcdoc": "embedded documents are not loaded",
    "http-equiv": "document settings do not apply inside a drawing",
    "ping": "no request leaves the preview",
}

# Inline event handlers (`onclick`, `onload` ...) are removed: no script runs.
HANDLER_PREFIX = "on"

# Attributes whose value is an address the browser would fetch (or follow).
URL_ATTRIBUTES = ("src", "href", "xlink:href", "poster", "background", "data", "action", "formaction", "cite")
# Multi-address attribute: "url 1x, url 2x".
SRCSET_ATTRIBUTES = ("srcset", "imagesrcset")
# Schemes the preview never loads: the network. Relative and data: addresses stay.
REMOTE_SCHEMES = ("http://", "https://", "//")
# Schemes that are script: removed with the attribute that holds them.
SCRIPT_SCHEMES = ("javascript:", "vbscript:")

NOTE = (
    "a read of the markup against bunzai's seal policy (bunzai/render/seal_policy.py), "
    "not a safety check: markup that passes is not thereby safe to run anywhere"
)
