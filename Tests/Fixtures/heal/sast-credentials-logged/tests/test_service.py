import logging

import pytest

from tokens.service import issue


def test_issues_a_token_for_the_user():
    body = issue("ada")
    assert body["user"] == "ada"
    assert len(body["token"]) >= 16


def test_tokens_differ():
    assert issue("ada")["token"] != issue("ada")["token"]


def test_user_is_required():
    with pytest.raises(ValueError):
        issue("")


def test_the_event_is_logged(caplog):
    with caplog.at_level(logging.DEBUG, logger="tokens.service"):
        issue("grace")
    assert any("grace" in record.getMessage() for record in caplog.records)
