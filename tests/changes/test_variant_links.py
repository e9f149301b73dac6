"""A character variant's own links are links of the piece: import renames follow them, and
the link readers (delete's referrers, duplicate's warnings) see them."""

from __future__ import annotations

from bunzai.changes.imports import links_of, relink_ids


def _card() -> dict:
    return {
        "kind": "character",
        "id": "ada",
        "body": {
            "links": {"lorebooks": ["eldoria"], "regex": [], "quickreplies": []},
            "variants": [
                {
                    "id": "winter",
                    "overrides": {"links": {"lorebooks": ["eldoria", "frost"]}, "media": {"pack": "furs"}},
                },
                {"id": "plain", "overrides": {}},
                "not a variant",
            ],
        },
    }


def test_links_of_reads_the_variants_links() -> None:
    assert links_of(_card()) == [
        ("lorebook", "eldoria"),
        ("lorebook", "eldoria"),
        ("lorebook", "frost"),
        ("pack", "furs"),
    ]


def test_a_renamed_piece_is_followed_into_the_variants() -> None:
    card = _card()
    book = {"kind": "lorebook", "id": "eldoria", "body": {}}
    relink_ids([card, book], {("lorebook", "eldoria"): "eldoria-2"}, {("pack", "furs"): "furs-2"})
    assert book["id"] == "eldoria-2"
    assert card["body"]["links"]["lorebooks"] == ["eldoria-2"]
    winter = card["body"]["variants"][0]["overrides"]
    assert winter["links"]["lorebooks"] == ["eldoria-2", "frost"] and winter["media"]["pack"] == "furs-2"
    assert card["body"]["variants"][1]["overrides"] == {}


def test_a_persona_has_no_variants_to_read() -> None:
    persona = {"kind": "persona", "id": "me", "body": {"lorebook": "eldoria", "variants": [{"overrides": {}}]}}
    assert links_of(persona) == [("lorebook", "eldoria")]


def test_a_promptbook_phase_links_its_preset_cards_and_regex_sets() -> None:
    # an import that renames a preset on a conflict follows it into the promptbook that runs it
    book = {
        "kind": "promptbook",
        "id": "turn",
        "body": {
            "phases": [
                {"id": "think", "preset": "house", "cards": ["ada"], "uses": {"regex": ["tidy"], "skills": ["x"]}},
                {"id": "reply", "preset": None, "cards": [], "uses": {}},
                "not a phase",
            ]
        },
    }
    assert links_of(book) == [("preset", "house"), ("character", "ada"), ("regex", "tidy")]
    relink_ids([book], {}, {("preset", "house"): "house-2", ("regex", "tidy"): "tidy-2"})
    phase = book["body"]["phases"][0]
    assert phase["preset"] == "house-2" and phase["cards"] == ["ada"] and phase["uses"]["regex"] == ["tidy-2"]
    assert phase["uses"]["skills"] == ["x"]  # the promptbook's own library: not a studio link
