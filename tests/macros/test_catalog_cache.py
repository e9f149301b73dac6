"""The JSON copy of the catalogs is current: every shipped YAML file matches its cached hash and document."""

from __future__ import annotations

from importlib import resources

from bunzai.macros.catalog_cache import CACHE_NAME, build_cache, cache_text, load_yaml_text


def test_the_catalog_cache_is_up_to_date() -> None:
    committed = (resources.files("bunzai") / "generated" / CACHE_NAME).read_text(encoding="utf-8")
    assert committed == cache_text(build_cache()), "run `make catalogs` to refresh bunzai/generated/catalogs.json"


def test_an_edited_catalog_is_parsed_not_read_from_the_cache() -> None:
    assert load_yaml_text("engine: test\n", "agnai.yaml") == {"engine": "test"}
