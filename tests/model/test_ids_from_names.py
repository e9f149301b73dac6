"""Ids derived from names: readable in any script, and distinct names stay distinct."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bunzai.adapters.common.naming import piece_id_for
from bunzai.model.ids import is_safe_id, name_hash, slugify


def test_latin_names_keep_their_plain_slug():
    assert slugify("Ada Lovelace") == "ada-lovelace"
    assert slugify("Élodie") == "elodie"


def test_names_in_other_scripts_are_transliterated_with_a_hash_of_the_name():
    assert slugify("ゆき") == f"yuki-{name_hash('ゆき')}"
    assert slugify("Сергей").startswith("sergey-")


def test_snow_names_give_three_ids_and_none_is_a_latin_name():
    ids = {slugify(name) for name in ("雪乃", "雪", "ゆき", "Yuki", "Xue")}
    assert len(ids) == 5
    assert all(is_safe_id(value) for value in ids)


def test_the_same_name_always_gives_the_same_id():
    assert slugify("雪乃") == slugify("雪乃")
    assert piece_id_for("雪乃", "a.png") == piece_id_for("雪乃", "b.png")


def test_a_name_with_nothing_usable_gets_a_hash_after_the_file_stem_or_fallback():
    star, white_star = piece_id_for("★", "card.png"), piece_id_for("☆", "card.png")
    assert star.startswith("card-") and white_star.startswith("card-") and star != white_star
    assert piece_id_for("★", "", "character").startswith("character-")
    assert piece_id_for("", "card.png") == "card"


def test_long_names_stay_within_the_id_length():
    assert is_safe_id(slugify("雪" * 400))
    assert is_safe_id(piece_id_for("★" * 10, "a" * 300 + ".png"))


def test_the_hash_length_mirrors_the_limit():
    from bunzai import limits
    from bunzai.model import ids

    assert ids.NAME_HASH_LENGTH == limits.NAME_HASH_LENGTH
    assert len(name_hash("雪")) == limits.NAME_HASH_LENGTH


@given(st.text(max_size=300), st.text(max_size=50))
def test_any_name_gives_a_safe_id_or_nothing(name, stem):
    slug = slugify(name)
    assert slug == "" or is_safe_id(slug)
    assert is_safe_id(piece_id_for(name, stem.replace("/", "") + ".json", "character"))


def test_a_windows_device_name_before_a_dot_still_gives_an_id():
    """Windows reserves `con` with any extension, so the `-1` goes before the first dot."""
    assert slugify("Con") == "con-1"
    assert slugify("Con. Artist") == "con-1.-artist"
    assert slugify("Aux.Bot") == "aux-1.bot"
    assert slugify("Com1.5") == "com1-1.5"
    assert slugify("Nul.x") == "nul-1.x"
    assert slugify("Console") == "console"
    assert all(is_safe_id(slugify(name)) for name in ("Con. Artist", "Aux.Bot", "Com1.5", "Nul.x", "LPT9.txt"))
    assert is_safe_id(slugify("con." + "x" * 200))
