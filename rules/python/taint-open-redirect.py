import urllib.parse
from http.server import BaseHTTPRequestHandler

import tornado.web
from aiohttp import web
from django.http import HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect as django_redirect
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views import View
from fastapi import FastAPI
from fastapi.responses import RedirectResponse
from flask import Flask, redirect, request, url_for

app = Flask(__name__)
api = FastAPI()


@app.route("/login", methods=["POST"])
def login():
    next_url = request.args.get("next")
    if authenticate(request.form["user"], request.form["password"]):
        # ruleid: python.taint-open-redirect
        return redirect(next_url)
    # ok: python.taint-open-redirect
    return redirect(url_for("login_form", error=1))


@app.route("/go")
def go():
    # ok: python.taint-open-redirect
    return redirect("/dashboard")


def logout_view(request):
    target = request.GET.get("to", "/")
    # ruleid: python.taint-open-redirect
    return HttpResponseRedirect(target)


def back_view(request):
    # ruleid: python.taint-open-redirect
    return django_redirect(request.POST["back"])


def set_language(request):
    next_url = request.POST.get("next", request.GET.get("next"))
    if not url_has_allowed_host_and_scheme(url=next_url, allowed_hosts={request.get_host()}):
        next_url = "/"
    # ok: python.taint-open-redirect
    return HttpResponseRedirect(next_url)


class LoginView(View):
    def post(self, request):
        response = HttpResponse(status=302)
        # ruleid: python.taint-open-redirect
        response["Location"] = self.request.POST.get("next", "/")
        return response


def profile_redirect(request, username):
    # ok: python.taint-open-redirect
    return HttpResponseRedirect(reverse("profile", args=[username]))


def language_redirect(request):
    # ok: python.taint-open-redirect
    return django_redirect(request.get_full_path())


@api.get("/out")
async def outbound(to: str):
    # ruleid: python.taint-open-redirect
    return RedirectResponse(to)


@api.get("/quoted")
async def quoted(to: str):
    # ok: python.taint-open-redirect
    return RedirectResponse("/search?q=" + urllib.parse.quote(to))


class NextHandler(tornado.web.RequestHandler):
    def get(self):
        # ruleid: python.taint-open-redirect
        self.redirect(self.get_argument("next", "/"))
        # ok: python.taint-open-redirect
        self.redirect(self.reverse_url("home"))


async def aiohttp_login(request):
    data = await request.post()
    # ruleid: python.taint-open-redirect
    raise web.HTTPFound(data.get("return_to", "/"))


async def aiohttp_home(request):
    # ok: python.taint-open-redirect
    raise web.HTTPFound(request.app.router["home"].url_for())


class ShortLinkHandler(BaseHTTPRequestHandler):
    def do_GET(self):
        query = urllib.parse.parse_qs(self.rfile.readline().decode())
        self.send_response(302)
        # ruleid: python.taint-open-redirect
        self.send_header("Location", query["u"][0])
        self.end_headers()


def safe_for_redirect(url):
    """The project's own check (issue 55): its result vouches for `url`."""
    return url_has_allowed_host_and_scheme(url, allowed_hosts=None)


def looks_safe(url):
    # Not a check of `url`: a caller's `if` proves nothing about it.
    return len(url) > 0


def return_to(request):
    url = request.GET.get("return_url")
    if url and safe_for_redirect(url):
        # ok: python.taint-open-redirect
        return HttpResponseRedirect(url)
    if looks_safe(url):
        # ruleid: python.taint-open-redirect
        return HttpResponseRedirect(url)
    return HttpResponseRedirect("/")


def sync(request, pk):
    datasource = DataSource.objects.get(pk=request.POST["pk"])
    # ok: python.taint-open-redirect
    return django_redirect(datasource.get_absolute_url())


def sync_next(request, pk):
    # ruleid: python.taint-open-redirect
    return django_redirect(request.POST["next"] + DataSource.objects.get(pk=pk).get_absolute_url())


# Only the start of a URL decides where it leads (issue 55): text the request supplies after a
# path, a query or a fragment the program wrote stays on this site.
@app.route("/search-again")
def search_again():
    # ok: python.taint-open-redirect
    return redirect("/search?q=" + request.args.get("q", ""))


@app.route("/step")
def step():
    url = url_for("wizard")
    for key in request.args:
        url += f"&{key}={request.args[key]}"
    # ok: python.taint-open-redirect
    return redirect(url)


@app.route("/slash")
def slash():
    # ruleid: python.taint-open-redirect
    return redirect("/" + request.args.get("to", ""))


@app.route("/host")
def host():
    # ruleid: python.taint-open-redirect
    return redirect(f"https://{request.args.get('host')}/home")


def is_safe_redirect(target):
    """A project's own check: parsed, tested, True only when nothing failed."""
    if not target:
        return False
    parsed = urllib.parse.urlparse(target)
    if parsed.scheme or parsed.netloc:
        return False
    return True


def is_staff(name):
    return name in ("alice", "bob")


@app.route("/after-login")
def after_login():
    target = request.args.get("next", "")
    if is_safe_redirect(target):
        # ok: python.taint-open-redirect
        return redirect(target)
    if is_staff(target):
        # ruleid: python.taint-open-redirect
        return redirect(target)
    return redirect(url_for("index"))


def _split(url):
    return urllib.parse.urlsplit(url)


def is_local(url):
    """A check written over a helper that parses: it tests the parsed host and scheme."""
    parts = _split(url)
    return not parts.netloc and not parts.scheme


@app.route("/back")
def back():
    target = request.args.get("next", "")
    if is_local(target):
        # ok: python.taint-open-redirect
        return redirect(target)
    # ruleid: python.taint-open-redirect
    return redirect(target)


def invitation(request):
    # The row a lookup selects holds what the database holds, not the code looked up.
    invite = Invitation.objects.filter(code=request.GET["code"]).first()
    # ok: python.taint-open-redirect
    return django_redirect(invite.landing_url)


def invitation_by_url(request):
    # A positional argument of the lookup (an expression the ORM runs) still carries its text.
    invite = Invitation.objects.filter(request.GET["where"]).first()
    # ruleid: python.taint-open-redirect
    return django_redirect(invite)
