import tornado.web
from django.http import HttpResponse
from fastapi import Response
from flask import Flask, make_response, request

app = Flask(__name__)


@app.route("/login", methods=["POST"])
def login():
    resp = make_response("welcome")
    # ruleid: python.insecure-cookie-httponly
    resp.set_cookie("session_id", new_session_id())
    # A preference, not a credential: the page's scripts may read it.
    # ok: python.insecure-cookie-httponly
    resp.set_cookie("theme", request.form["theme"], secure=True)
    # ok: python.insecure-cookie-httponly
    resp.set_cookie("token", issue_token(), secure=True, httponly=True, samesite="Lax")
    # ok: python.insecure-cookie-httponly
    resp.set_cookie("lang", "en", httponly=True, max_age=3600, secure=True)
    return resp


def django_view(request):
    response = HttpResponse("ok")
    # ok: python.insecure-cookie-httponly
    response.set_cookie("csrftoken", token, httponly=True)
    # ok: python.insecure-cookie-httponly
    response.set_cookie("prefs", prefs, **COOKIE_DEFAULTS)
    return response


def remember_me(request):
    response = HttpResponse("ok")
    # ok: python.insecure-cookie-httponly
    response.set_cookie("remember", "1", secure=settings.COOKIE_SECURE, httponly=settings.COOKIE_HTTPONLY)
    # ok: python.insecure-cookie-httponly
    response.set_cookie("debug", "1", secure=False, httponly=True)
    # ruleid: python.insecure-cookie-httponly
    response.set_cookie("sid", sid, secure=True, httponly=False)
    return response


def logout(request):
    response = HttpResponse("bye")
    # A deleted cookie (max_age=0, expires=0, an empty value) carries no value.
    # ok: python.insecure-cookie-httponly
    response.set_cookie("session_id", max_age=0, path="/", expires="Thu, 01 Jan 1970 00:00:00 GMT")
    # ok: python.insecure-cookie-httponly
    response.set_cookie('vulpy_session', '', expires=0)
    # ok: python.insecure-cookie-httponly
    response.set_cookie("session_id", None)
    # ruleid: python.insecure-cookie-httponly
    response.set_cookie("session_id", max_age=60, path="/")
    return response


def prefs(request):
    response = HttpResponse("ok")
    # A literal value is still a value (only the empty one deletes).
    # ruleid: python.insecure-cookie-httponly
    response.set_cookie("remember", "1")
    return response


def preferences(response, request, settings, hub_auth, token):
    # ok: python.insecure-cookie-httponly
    response.set_cookie("sort", request.args.get("sort"))
    # ok: python.insecure-cookie-httponly
    response.set_cookie(settings.LANGUAGE_COOKIE_NAME, "de")
    # ok: python.insecure-cookie-httponly
    hub_auth.set_cookie(self, token)
    # ruleid: python.insecure-cookie-httponly
    # nofix: python.insecure-cookie-httponly (a parameter of unknown type: nothing says it is a framework's response)
    response.set_cookie("session", token)
    # ruleid: python.insecure-cookie-httponly
    # nofix: python.insecure-cookie-httponly (a parameter of unknown type: nothing says it is a framework's response)
    response.set_cookie(key="auth", value=token)


class ServiceAuth:
    def persist_token(self, handler, token):
        # The project's own `set_cookie` (a subclass's, below): it sets the flags, not a response.
        # ok: python.insecure-cookie-httponly
        self.set_cookie(handler, token)


class OAuthServiceAuth(ServiceAuth):
    def set_cookie(self, handler, token):
        handler.set_secure_cookie("token", token, httponly=True, secure=True)


class TokenHandler(tornado.web.RequestHandler):
    def post(self):
        # Tornado's own RequestHandler.set_cookie: no class of this file defines it.
        # ruleid: python.insecure-cookie-httponly
        # nofix: python.insecure-cookie-httponly (Tornado's handler sets cookies itself: not a response object)
        self.set_cookie("token", self.get_argument("token"))


def make_session_response(body):
    return make_response(body)


def wrapped(request):
    # The project's own helper returns Flask's response: the fix applies through it.
    resp = make_session_response("ok")
    # ruleid: python.insecure-cookie-httponly
    resp.set_cookie("session_id", "abc123", max_age=600)
    return resp


def annotated(response: Response, token):
    # FastAPI's Response, by the parameter's annotation.
    # ruleid: python.insecure-cookie-httponly
    response.set_cookie("auth", token)


def unknown_origin(jar, token):
    # ruleid: python.insecure-cookie-httponly
    # nofix: python.insecure-cookie-httponly (the receiver's origin is unknown: no fix by its name alone)
    jar.set_cookie("auth", token)
