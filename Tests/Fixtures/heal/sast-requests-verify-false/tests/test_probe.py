import pytest
import requests

from healthcheck import probe


class FakeResponse:
    def __init__(self, status_code, payload):
        self.status_code = status_code
        self._payload = payload

    def json(self):
        return self._payload

    def raise_for_status(self):
        if self.status_code >= 400:
            raise requests.HTTPError(f"status {self.status_code}")


@pytest.fixture
def calls(monkeypatch):
    made = []
    responses = []

    def fake_get(url, **kwargs):
        made.append((url, kwargs))
        return responses.pop(0)

    monkeypatch.setattr(requests, "get", fake_get)
    return made, responses


def test_healthy(calls):
    made, responses = calls
    responses.append(FakeResponse(200, {"status": "ok"}))
    assert probe.service_healthy() is True
    assert made[0][0] == probe.STATUS_URL


def test_degraded(calls):
    made, responses = calls
    responses.append(FakeResponse(200, {"status": "degraded"}))
    assert probe.service_healthy("https://other.example/health") is False
    assert made[0][0] == "https://other.example/health"


def test_request_has_a_timeout(calls):
    made, responses = calls
    responses.append(FakeResponse(200, {"status": "ok"}))
    probe.service_healthy()
    assert made[0][1].get("timeout")


def test_http_error_propagates(calls):
    _, responses = calls
    responses.append(FakeResponse(503, {}))
    with pytest.raises(requests.HTTPError):
        probe.service_healthy()
