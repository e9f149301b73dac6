"""A regex set written as a .risum is checked against the regex piece the module reads back as,
not its lorebook: no loss is reported that the write does not make."""

from __future__ import annotations

import pytest
from cards_support import read
from risu_support import configured_checkout, module_bytes
from test_risu_binary import MODULE
from test_risu_writers import risu_read_module

from bunzai.convert import convert_piece, platform_impact
from bunzai.model import dump_piece


@pytest.fixture
def table(tmp_path, monkeypatch):
    yield from configured_checkout(tmp_path, monkeypatch)


def regex_piece(table):
    _adapter, decoded, media = read(module_bytes(MODULE, table), "weather.risum")
    return decoded.pieces[1], media


def test_a_regex_set_crossing_to_a_module_reports_no_loss_it_does_not_make(table):
    rules, media = regex_piece(table)
    crossing = convert_piece(rules, "risu.module", media)
    assert [loss for loss in crossing.losses if loss.code == "crossing.not_carried"] == []


def test_an_edit_of_a_regex_set_has_no_module_impact_it_does_not_make(table):
    rules, _media = regex_piece(table)
    before = dump_piece(rules)
    rule = rules.body.rules[0].model_copy(update={"replacement": "STORM"})
    after = dump_piece(rules.model_copy(update={"body": rules.body.model_copy(update={"rules": [rule]})}))
    assert [row for row in platform_impact(before, after) if row["platform"] == "risu.module"] == []


def test_a_regex_set_with_an_edit_a_module_cannot_hold_still_reports_it(table):
    rules, media = regex_piece(table)
    rule = rules.body.rules[0].model_copy(update={"min_depth": 2})
    edited = rules.model_copy(update={"body": rules.body.model_copy(update={"rules": [rule]})})
    crossing = convert_piece(edited, "risu.module", media)
    assert ("/body/rules/0/min_depth", "risu.regex.not_carried") in {
        (loss.pointer, loss.code) for loss in crossing.losses
    }


def test_the_module_is_named_so_its_scripts_read_back_under_the_set_s_name(table):
    rules, media = regex_piece(table)
    module, _blocks = risu_read_module(convert_piece(rules, "risu.module", media).data, table)
    assert (rules.name, module["name"]) == ("Weather regex", "Weather")
    renamed = convert_piece(rules.model_copy(update={"name": "Cleanup"}), "risu.module", media)
    assert risu_read_module(renamed.data, table)[0]["name"] == "Cleanup"
    assert [(loss.pointer, loss.code) for loss in renamed.losses if loss.pointer == "/name"] == [
        ("/name", "risu.module.regex_name")
    ]
