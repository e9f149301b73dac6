"""htmldoc.document.update: the markup (sealed) and the descriptions of an HTML document; found as "the wireframe"."""

from __future__ import annotations

from bundle_support import preview


def _doc() -> dict:
    return {
        "kind": "htmldoc",
        "id": "tavern-map",
        "name": "Tavern map",
        "body": {"summary": "A floor plan.", "markup": "<div class='room'>Bar</div>"},
    }


def test_document_update_replaces_markup_and_descriptions() -> None:
    markup = "<svg viewBox='0 0 10 10'><rect width='10' height='10'/></svg>"
    result = preview("htmldoc.document.update", _doc(), {"markup": markup, "tags": ["map", "tavern"], "notes": "v2"})
    assert result.after["body"] == {
        "summary": "A floor plan.",
        "tags": ["map", "tavern"],
        "notes": "v2",
        "markup": markup,
        "slots": [],
    }
    assert result.changes == [
        {"op": "replace", "path": "/body/markup", "before": "<div class='room'>Bar</div>", "after": markup},
        {"op": "replace", "path": "/body/notes", "before": "", "after": "v2"},
        {"op": "replace", "path": "/body/tags", "before": [], "after": ["map", "tavern"]},
    ]
    assert result.warnings == []


def test_document_update_keeps_scripts_sealed_and_says_so() -> None:
    result = preview("htmldoc.document.update", _doc(), {"markup": "<script>alert(1)</script>", "name": "Map"})
    assert result.after["body"]["markup"] == "<script>alert(1)</script>" and result.after["name"] == "Map"
    assert result.warnings == [
        "the markup holds <script>; bunzai stores it sealed and never runs it, but a frontend showing it may"
    ]


def test_edit_the_wireframe_finds_the_document_update() -> None:
    from bunzai.capabilities.discovery import visible_capabilities
    from bunzai.capabilities.search import rank

    for query in ("edit the wireframe", "change the mockup", "edit html page", "update the drawing"):
        assert rank(visible_capabilities(), query)[0]["id"] == "htmldoc.document.update", query
