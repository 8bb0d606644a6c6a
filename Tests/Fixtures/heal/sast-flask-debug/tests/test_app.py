import json

from app import app


def call(path):
    captured = {}

    def start_response(status, headers):
        captured["status"] = status
        captured["headers"] = dict(headers)

    body = b"".join(app({"PATH_INFO": path, "REQUEST_METHOD": "GET"}, start_response))
    return captured["status"], captured["headers"], body


def test_health():
    status, headers, body = call("/health")
    assert status == "200 OK"
    assert headers["Content-Type"] == "application/json"
    assert json.loads(body) == {"status": "ok"}


def test_version():
    assert json.loads(call("/version")[2]) == {"version": "1.4.2"}


def test_unknown_path():
    status, _, body = call("/nope")
    assert status.startswith("404")
    assert body == b"not found"


def test_import_does_not_enable_debug():
    assert app.debug is False
