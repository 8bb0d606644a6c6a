import pytest
import requests

import users_client


class FakeResponse:
    def __init__(self, status_code, payload=None):
        self.status_code = status_code
        self._payload = payload

    def json(self):
        return self._payload

    def raise_for_status(self):
        if self.status_code >= 400:
            raise requests.HTTPError(str(self.status_code))


@pytest.fixture
def api(monkeypatch):
    users = {
        "7": {"login": "ada", "display_name": "Ada L."},
        "8": {"login": "alan", "display_name": ""},
    }
    seen = []

    def fake_get(url, *args, **kwargs):
        seen.append(url)
        user_id = url.rsplit("/", 1)[1]
        if user_id == "500":
            return FakeResponse(500)
        if user_id not in users:
            return FakeResponse(404)
        return FakeResponse(200, users[user_id])

    monkeypatch.setattr(requests, "get", fake_get)
    return seen


def test_fetch_user(api):
    assert users_client.fetch_user(7) == {"login": "ada", "display_name": "Ada L."}
    assert api == ["https://api.example.test/v1/users/7"]


def test_missing_user(api):
    assert users_client.fetch_user(99) is None
    assert users_client.display_name(99) == "unknown user"


def test_display_name_falls_back_to_login(api):
    assert users_client.display_name(7) == "Ada L."
    assert users_client.display_name(8) == "alan"


def test_server_error(api):
    with pytest.raises(requests.HTTPError):
        users_client.fetch_user(500)
