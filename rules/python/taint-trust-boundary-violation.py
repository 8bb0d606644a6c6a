import uuid

import aiohttp_session
import tornado.web
from django.contrib.auth import authenticate
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.views import View
from fastapi import FastAPI, Request
from flask import Flask, request, session

app = Flask(__name__)
api = FastAPI()


@app.route("/login", methods=["POST"])
def login():
    username = request.form["username"]
    if check_password(username, request.form["password"]):
        # ok: python.taint-trust-boundary-violation
        session["user_id"] = lookup_user_id_from_db()
    # ruleid: python.taint-trust-boundary-violation
    session["display_name"] = username
    return "ok"


@app.route("/prefs")
def prefs():
    # ruleid: python.taint-trust-boundary-violation
    session["theme"] = request.args.get("theme", "light")
    # ok: python.taint-trust-boundary-violation
    session["page_size"] = int(request.args.get("size", 20))
    return "saved"


def django_view(request):
    # ruleid: python.taint-trust-boundary-violation
    request.session["cart"] = request.POST.get("cart")
    # ok: python.taint-trust-boundary-violation
    request.session["visited"] = True


class CheckoutView(View):
    def post(self, request):
        # ruleid: python.taint-trust-boundary-violation
        self.request.session["coupon"] = self.request.POST["coupon"]
        # ok: python.taint-trust-boundary-violation
        self.request.session["items"] = int(self.request.POST["items"])
        return HttpResponse("ok")


@login_required
def set_role(request, role):
    # ruleid: python.taint-trust-boundary-violation
    request.session.setdefault("role", role)
    # ok: python.taint-trust-boundary-violation
    request.session.setdefault("visits", 0)
    return HttpResponse("ok")


def remember_login(request, user):
    # A helper taking the request is not a view: its other parameters are not from the URL.
    # ok: python.taint-trust-boundary-violation
    request.session["uid"] = user.pk


@api.post("/prefs")
async def starlette_prefs(request: Request):
    form = await request.form()
    # ruleid: python.taint-trust-boundary-violation
    request.session["tz"] = form["tz"]
    # ok: python.taint-trust-boundary-violation
    request.session["updated"] = True
    return {"ok": True}


def sign_in(request):
    user = authenticate(request, username=request.POST["username"], password=request.POST["password"])
    if user is None:
        return HttpResponse(status=401)
    # ok: python.taint-trust-boundary-violation
    request.session["name"] = user.get_username()
    # ruleid: python.taint-trust-boundary-violation
    request.session["display"] = request.POST["username"]
    return HttpResponse("ok")


async def aiohttp_cart(request):
    session = await aiohttp_session.get_session(request)
    cart = request.match_info["cart"]
    # ruleid: python.taint-trust-boundary-violation
    session["cart"] = cart
    # ok: python.taint-trust-boundary-violation
    session["cart_id"] = str(uuid.UUID(cart))
    counters = {}
    # ok: python.taint-trust-boundary-violation
    counters["cart"] = cart
    return cart


class RoleHandler(tornado.web.RequestHandler):
    def post(self):
        # ruleid: python.taint-trust-boundary-violation
        self.set_signed_cookie("role", self.get_body_argument("role"))
        # ok: python.taint-trust-boundary-violation
        self.set_signed_cookie("theme", "dark")


@login_required
def change_password(request, uid):
    form = PasswordChangeForm(uid, request.POST)
    # The session hash is an HMAC the server derives from the stored password hash.
    # ok: python.taint-trust-boundary-violation
    request.session["auth_hash"] = form.user.get_session_auth_hash()
    # ruleid: python.taint-trust-boundary-violation
    request.session["auth_user"] = form.user.get_username()
    return HttpResponse("ok")
