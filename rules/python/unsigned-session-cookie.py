import base64
import json
import secrets

from itsdangerous import URLSafeSerializer


def create(response, username):
    session = base64.b64encode(json.dumps({"username": username}).encode())
    # ruleid: python.unsigned-session-cookie
    response.set_cookie("vulpy_session", session)
    # ruleid: python.unsigned-session-cookie
    response.set_cookie(key="user", value=json.dumps({"name": username, "role": "user"}))
    signed = URLSafeSerializer("k").dumps({"username": username})
    # ok: python.unsigned-session-cookie
    response.set_cookie("session", signed)
    # ok: python.unsigned-session-cookie
    response.set_cookie("session_id", secrets.token_urlsafe(32))
    # ok: python.unsigned-session-cookie
    response.set_cookie("theme", base64.b64encode(b"dark"))
