import tornado.web
from django.http import HttpResponse
from fastapi import Response
from flask import Flask, make_response, request

app = Flask(__name__)


@app.route("/login", methods=["POST"])
def login():
    resp = make_response("welcome")
    # ruleid: python.taint-insecure-cookie
    resp.set_cookie("session_id", new_session_id())
    # ok: python.taint-insecure-cookie
    resp.set_cookie("theme", request.form["theme"], secure=True)
    # ok: python.taint-insecure-cookie
    resp.set_cookie("token", issue_token(), secure=True, httponly=True, samesite="Lax")
    # ok: python.taint-insecure-cookie
    resp.set_cookie("lang", "en", httponly=True, max_age=3600, secure=True)
    return resp


def django_view(request):
    response = HttpResponse("ok")
    # ruleid: python.taint-insecure-cookie
    response.set_cookie("csrftoken", token, httponly=True)
    # ok: python.taint-insecure-cookie
    response.set_cookie("prefs", prefs, **COOKIE_DEFAULTS)
    return response


def remember_me(request):
    response = HttpResponse("ok")
    # ok: python.taint-insecure-cookie
    response.set_cookie("remember", "1", secure=settings.COOKIE_SECURE, httponly=settings.COOKIE_HTTPONLY)
    # ruleid: python.taint-insecure-cookie
    response.set_cookie("debug", "1", secure=False, httponly=True)
    return response


def logout(request):
    response = HttpResponse("bye")
    # A deleted cookie (max_age=0, expires=0, an empty value) carries no value.
    # ok: python.taint-insecure-cookie
    response.set_cookie("session_id", max_age=0, path="/", expires="Thu, 01 Jan 1970 00:00:00 GMT")
    # ok: python.taint-insecure-cookie
    response.set_cookie('vulpy_session', '', expires=0)
    # ok: python.taint-insecure-cookie
    response.set_cookie("session_id", None)
    # ruleid: python.taint-insecure-cookie
    response.set_cookie("session_id", max_age=60, path="/")
    return response


def prefs(request):
    response = HttpResponse("ok")
    # A literal value is still a value (only the empty one deletes).
    # ruleid: python.taint-insecure-cookie
    response.set_cookie("remember", "1")
    # A preference, not a credential.
    # ok: python.taint-insecure-cookie
    response.set_cookie("lang", "en")
    return response


class ServiceAuth:
    def persist_token(self, handler, token):
        # The project's own `set_cookie` (a subclass's, below): it sets the flags, not a response.
        # ok: python.taint-insecure-cookie
        self.set_cookie(handler, token)


class OAuthServiceAuth(ServiceAuth):
    def set_cookie(self, handler, token):
        handler.set_secure_cookie("token", token, httponly=True, secure=True)


class TokenHandler(tornado.web.RequestHandler):
    def post(self):
        # Tornado's own RequestHandler.set_cookie: no class of this file defines it.
        # ruleid: python.taint-insecure-cookie
        # nofix: python.taint-insecure-cookie (Tornado's handler sets cookies itself: not a response object)
        self.set_cookie("token", self.get_argument("token"))


def make_session_response(body):
    return make_response(body)


def wrapped(request):
    # The project's own helper returns Flask's response: the fix applies through it.
    resp = make_session_response("ok")
    # ruleid: python.taint-insecure-cookie
    resp.set_cookie("session_id", "abc123", max_age=600)
    return resp


def annotated(response: Response, token):
    # FastAPI's Response, by the parameter's annotation.
    # ruleid: python.taint-insecure-cookie
    response.set_cookie("auth", token)


def unknown_origin(jar, token):
    # ruleid: python.taint-insecure-cookie
    # nofix: python.taint-insecure-cookie (the receiver's origin is unknown: no fix by its name alone)
    jar.set_cookie("auth", token)
