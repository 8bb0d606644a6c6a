import pytest

from settings.loader import DEFAULTS, load_settings


def test_empty_document_gives_defaults():
    assert load_settings("") == DEFAULTS


def test_values_override_defaults():
    settings = load_settings("name: billing\nworkers: 8\ndebug: true\n")
    assert settings["name"] == "billing"
    assert settings["workers"] == 8
    assert settings["debug"] is True


def test_lists_and_nesting():
    settings = load_settings("hosts:\n  - a.example\n  - b.example\nlimits: {cpu: 2}\n")
    assert settings["hosts"] == ["a.example", "b.example"]
    assert settings["limits"] == {"cpu": 2}


def test_top_level_must_be_mapping():
    with pytest.raises(ValueError):
        load_settings("- just\n- a list\n")
