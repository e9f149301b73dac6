"""A chat-completion preset of the current SillyTavern has one media toggle, `media_inlining`.

SillyTavern (since Nov 2025, openai.js settingsToUpdate) saves `media_inlining` and, loading a
preset, migrates the old image_inlining / video_inlining / audio_inlining into it
(migrateChatCompletionSettings): image_inlining sets it either way, video or audio only to true.
"""

from __future__ import annotations

import json

from bunzai.adapters.registry import get_adapter
from bunzai.convert import convert_piece

CURRENT = {
    "chat_completion_source": "openai",
    "openai_model": "gpt-4-turbo",
    "temperature": 1,
    "openai_max_context": 4095,
    "openai_max_tokens": 300,
    "media_inlining": True,
    "inline_image_quality": "auto",
    "seed": -1,
}
LEGACY = {**{k: v for k, v in CURRENT.items() if k != "media_inlining"}, "image_inlining": False}


def no_media(ref):
    raise AssertionError("a preset has no media")


def read(document: dict):
    data = json.dumps(document, indent=4).encode()
    return get_adapter("sillytavern.preset.chat").read(data, "Preset.json", json.loads(data)).pieces[0]


def write(piece):
    crossing = convert_piece(piece, "sillytavern.preset.chat", no_media)
    return json.loads(crossing.data), {loss.code for loss in crossing.losses} - {"preset.name.file_stem"}


def test_the_one_toggle_reads_as_every_medium():
    media = read(CURRENT).body.media
    assert (media.image_inlining, media.video_inlining, media.audio_inlining) == (True, True, True)
    assert media.image_quality == "auto"
    media = read({**CURRENT, "media_inlining": False}).body.media
    assert (media.image_inlining, media.video_inlining, media.audio_inlining) == (False, False, False)


def test_turning_media_off_writes_the_one_toggle_and_no_old_key():
    piece = read(CURRENT)
    piece.body.media = piece.body.media.model_copy(
        update={"image_inlining": False, "video_inlining": False, "audio_inlining": False}
    )
    written, losses = write(piece)
    assert written == {**CURRENT, "media_inlining": False}
    assert losses == set()


def test_a_medium_the_one_toggle_cannot_hold_apart_is_named():
    piece = read(CURRENT)
    piece.body.media = piece.body.media.model_copy(update={"video_inlining": False})
    written, losses = write(piece)
    assert written == CURRENT
    assert losses == {"preset.media.one_toggle"}


def test_a_file_with_the_old_keys_keeps_them():
    piece = read(LEGACY)
    assert piece.body.media.image_inlining is False and piece.body.media.video_inlining is None
    assert write(piece) == (LEGACY, set())
    piece.body.media = piece.body.media.model_copy(update={"image_inlining": True})
    written, losses = write(piece)
    assert written == {**LEGACY, "image_inlining": True} and losses == set()


def test_a_piece_imported_before_the_toggle_was_read_keeps_the_files_toggle_and_says_so():
    piece = read(CURRENT)
    piece.body.media = piece.body.media.model_copy(  # as the older reading left it: nothing of media
        update={"image_inlining": None, "video_inlining": None, "audio_inlining": None}
    )
    written, losses = write(piece)
    assert written == CURRENT
    assert losses == {"preset.media.unread"}
