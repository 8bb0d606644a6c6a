import hashlib

from flask import make_response


def json_response(payload, status=200):
    response = make_response(payload, status)
    response.headers["Cache-Control"] = "no-store"
    return response


def session_for(user):
    return hashlib.sha256(("session:" + user).encode("utf-8")).hexdigest()


def login(user):
    if not user:
        return json_response({"error": "user required"}, 400)
    response = json_response({"user": user})
    response.set_cookie("session_id", session_for(user), httponly=True, samesite="Lax")
    return response
