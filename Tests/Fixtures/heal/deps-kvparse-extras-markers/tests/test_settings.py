import pytest

from appconfig import DEFAULTS, load_settings


def test_defaults_for_empty_text():
    assert load_settings("") == {"host": "127.0.0.1", "port": 8080, "workers": 2}


def test_values_override_defaults():
    settings = load_settings("port = 9000\n# comment\nhost=example.test  # trailing\n")
    assert settings["port"] == 9000
    assert settings["host"] == "example.test"
    assert settings["workers"] == 2


def test_malformed_line_is_rejected():
    with pytest.raises(ValueError):
        load_settings("port 9000\n")


def test_defaults_not_modified():
    load_settings("workers = 8")
    assert DEFAULTS["workers"] == "2"
