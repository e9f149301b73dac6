"""A SillyTavern card's regex scripts crossing into a Marinara character: the card inside keeps
them in extensions.regex_scripts, but Marinara runs only the regex scripts of its own table
(generate.routes.ts, regexScriptsStore.list()), and its character import (st-character.importer.ts,
marinara.importer.ts) makes none of a card's; the crossing says so, and a file Marinara made
written back says nothing new."""

from __future__ import annotations

import json

from cards_support import read

from bunzai.convert import convert_piece

SCRIPT = {"id": "a", "scriptName": "caps", "findRegex": "/rain/g", "replaceString": "RAIN", "placement": [2]}
CODE = "marinara.import.st_regex_not_run"


def _st_card(*scripts: dict) -> bytes:
    data = {"name": "Sky", "first_mes": "hi", "extensions": {"regex_scripts": list(scripts)}}
    return json.dumps({"spec": "chara_card_v2", "spec_version": "2.0", "data": data}).encode()


def test_sillytavern_regex_scripts_crossing_into_marinara_are_named_as_never_run():
    _adapter, decoded, media = read(_st_card(SCRIPT, SCRIPT | {"id": "b", "scriptName": ""}), "Sky.json")
    crossing = convert_piece(decoded.pieces[0], "marinara.character", media)
    lost = [loss for loss in crossing.losses if loss.code == CODE]
    assert [(loss.pointer, loss.action) for loss in lost] == [
        ("/body/behavior_scripts/0", "dropped"),
        ("/body/behavior_scripts/1", "dropped"),
    ]
    assert "'caps'" in lost[0].why and "''" not in lost[1].why
    # the file keeps the scripts for other apps, and written back from it names nothing new
    _adapter, again, media = read(crossing.data, "Sky.marinara.json", "marinara.character")
    assert [script.payload["scriptName"] for script in again.pieces[0].body.behavior_scripts] == ["caps", ""]
    back = convert_piece(again.pieces[0], "marinara.character", media)
    assert CODE not in [loss.code for loss in back.losses]


def test_a_script_added_to_a_character_read_from_marinara_is_named_the_ones_it_held_are_not():
    _adapter, decoded, media = read(_st_card(SCRIPT), "Sky.json")
    crossing = convert_piece(decoded.pieces[0], "marinara.character", media)
    _adapter, again, media = read(crossing.data, "Sky.marinara.json", "marinara.character")
    piece = again.pieces[0]
    added = piece.body.behavior_scripts[0].model_copy(
        update={"name": "shout", "payload": SCRIPT | {"id": "c", "scriptName": "shout"}}
    )
    body = piece.body.model_copy(update={"behavior_scripts": [*piece.body.behavior_scripts, added]})
    back = convert_piece(piece.model_copy(update={"body": body}), "marinara.character", media)
    lost = [loss for loss in back.losses if loss.code == CODE]
    assert [loss.pointer for loss in lost] == ["/body/behavior_scripts/1"] and "'shout'" in lost[0].why


def _read_back_from_marinara(*scripts: dict):
    """A character read from the Marinara file written for a SillyTavern card holding `scripts`."""
    _adapter, decoded, media = read(_st_card(*scripts), "Sky.json")
    crossing = convert_piece(decoded.pieces[0], "marinara.character", media)
    _adapter, again, media = read(crossing.data, "Sky.marinara.json", "marinara.character")
    return again.pieces[0], media


def _with_scripts(piece, scripts):
    body = piece.body.model_copy(update={"behavior_scripts": scripts})
    return piece.model_copy(update={"body": body})


def test_a_held_script_edited_since_is_not_named_as_new():
    # SillyTavern gives every regex script an id (uuid); an edit keeps it
    piece, media = _read_back_from_marinara(SCRIPT, SCRIPT | {"id": "b", "scriptName": "hush"})
    first, second = piece.body.behavior_scripts
    edited = first.model_copy(update={"payload": first.payload | {"findRegex": "/storm/g"}})
    back = convert_piece(_with_scripts(piece, [edited, second]), "marinara.character", media)
    assert CODE not in [loss.code for loss in back.losses]


def test_an_added_copy_of_a_held_script_is_named_as_new():
    piece, media = _read_back_from_marinara(SCRIPT)
    [held] = piece.body.behavior_scripts
    back = convert_piece(_with_scripts(piece, [held, held.model_copy()]), "marinara.character", media)
    assert [loss.pointer for loss in back.losses if loss.code == CODE] == ["/body/behavior_scripts/1"]


def test_scripts_without_an_id_are_matched_by_content_each_once():
    bare = {key: value for key, value in SCRIPT.items() if key != "id"}
    piece, media = _read_back_from_marinara(bare)
    [held] = piece.body.behavior_scripts
    edited = held.model_copy(update={"payload": held.payload | {"findRegex": "/storm/g"}})
    back = convert_piece(_with_scripts(piece, [held, held.model_copy(), edited]), "marinara.character", media)
    lost = [loss.pointer for loss in back.losses if loss.code == CODE]
    assert lost == ["/body/behavior_scripts/1", "/body/behavior_scripts/2"]
