import html
import os
from http.server import BaseHTTPRequestHandler

import bleach
import jinja2
import tornado.escape
import tornado.web
from aiohttp import web
from django.http import HttpResponse, HttpResponseNotFound, JsonResponse
from django.shortcuts import get_object_or_404
from django.template import loader
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.views import View
from fastapi import FastAPI
from fastapi.responses import HTMLResponse, PlainTextResponse
from flask import Flask, Response, jsonify, make_response, redirect, render_template_string, request, url_for
from markupsafe import Markup, escape
from rest_framework.decorators import api_view

app = Flask(__name__)
api = FastAPI()


@app.route("/hello")
def hello():
    name = request.args.get("name", "world")
    # ruleid: python.taint-xss
    return f"<h1>Hello {name}!</h1>"


@app.route("/hello-safe")
def hello_safe():
    name = html.escape(request.args.get("name", "world"))
    # ok: python.taint-xss
    return f"<h1>Hello {name}!</h1>"


@app.route("/greet")
def greet():
    greeting = request.args["greeting"]
    # ruleid: python.taint-xss
    # nofix: python.taint-xss (a template source: escaping its values leaves template syntax in them)
    return render_template_string("<p>" + greeting + "</p>")


@app.route("/api/echo")
def echo():
    # ok: python.taint-xss
    return make_response(jsonify(message=request.args["m"]))


@app.route("/error")
def error():
    # ruleid: python.taint-xss
    return make_response("<b>Unknown page %s</b>" % request.args["page"], 404)


@app.route("/users/<name>")
def user_card(name):
    if not name:
        # An empty name carries no markup.
        # ok: python.taint-xss
        return "<p>No user " + name + "</p>", 404
    if name == "me":
        # ok: python.taint-xss
        return redirect(url_for("hello", name=name))
    if name.startswith("api:"):
        # ok: python.taint-xss
        return {"user": name}
    if name.startswith("list:"):
        # ok: python.taint-xss
        return [name], 200
    # ok: python.taint-xss
    return name, 200, {"Content-Type": "text/plain"}


@app.route("/members/<name>")
def member_card(name):
    if not name.isalnum():
        # A failed check cleans nothing on its branch.
        # ruleid: python.taint-xss
        return "<p>No member " + name + "</p>", 404
    return "ok"


@app.route("/users/<int:user_id>/badge")
def badge(user_id):
    # ok: python.taint-xss
    return "<span>#%d</span>" % user_id


@app.route("/raw")
def raw():
    body = request.get_data(as_text=True)
    # ruleid: python.taint-xss
    resp = make_response("<pre>" + body + "</pre>")
    resp.headers["X-Frame-Options"] = "DENY"
    # ok: python.taint-xss
    return resp


@app.route("/text")
def text():
    # ok: python.taint-xss
    return Response(request.args["t"], mimetype="text/plain")


@app.route("/html")
def html_response():
    # ruleid: python.taint-xss
    return Response("<div>%s</div>" % request.args["t"])


@app.route("/markup")
def markup():
    # ok: python.taint-xss
    return Markup("<b>%s</b>") % request.args["who"]


@app.route("/markup-raw")
def markup_raw():
    # ruleid: python.taint-xss
    return Markup("<b>" + request.args["who"] + "</b>")


@app.route("/escaped")
async def escaped():
    # ok: python.taint-xss
    return "<i>%s</i>" % escape(request.args["q"])


@app.route("/async")
async def async_view():
    # ruleid: python.taint-xss
    return "<i>%s</i>" % request.args["q"]


@app.route("/jinja")
def jinja_template():
    # ruleid: python.taint-xss
    # nofix: python.taint-xss (a template source: escaping its values leaves template syntax in them)
    template = jinja2.Template(request.args["tpl"])
    # ok: python.taint-xss
    return template.render()


def profile(request):
    bio = request.POST["bio"]
    # ruleid: python.taint-xss
    intro = mark_safe("<div class='bio'>%s</div>" % bio)
    # ruleid: python.taint-xss
    return HttpResponse("<p>" + request.GET["q"] + "</p>")


def static_page(request):
    # ok: python.taint-xss
    return HttpResponse(mark_safe("<p>Welcome</p>"))


def not_found(request):
    template = loader.get_template("404.html")
    body = template.render({"path": request.path}, request)
    # ok: python.taint-xss
    return HttpResponseNotFound(body)


def bio(request):
    text = request.POST["bio"]
    # ok: python.taint-xss
    cleaned = mark_safe(bleach.clean(text, tags=["b", "i"]))
    # ok: python.taint-xss
    escaped = mark_safe("<p>%s</p>" % conditional_escape(text))
    # ruleid: python.taint-xss
    unsafe = SafeString("<p>%s</p>" % text)
    # ok: python.taint-xss
    return HttpResponse(format_html("<div>{}</div>", text) + cleaned + escaped + unsafe)


class SearchView(View):
    def get(self, request):
        q = self.request.GET.get("q", "")
        if request.GET.get("format") == "json":
            # ok: python.taint-xss
            return JsonResponse({"q": q})
        if request.GET.get("format") == "text":
            # ok: python.taint-xss
            return HttpResponse(q, content_type="text/plain")
        # ruleid: python.taint-xss
        return HttpResponse(f"<h1>Results for {q}</h1>")


@api_view(["GET"])
def tag_page(request, slug):
    # ruleid: python.taint-xss
    return HttpResponse("<h1>%s</h1>" % slug)


@api.get("/hi", response_class=HTMLResponse)
async def hi(name: str):
    # ruleid: python.taint-xss
    return f"<p>Hi {name}</p>"


@api.get("/hi.json")
async def hi_json(name: str):
    # ok: python.taint-xss
    return f"<p>Hi {name}</p>"


@api.get("/card")
async def card(name: str, age: int):
    # ok: python.taint-xss
    plain = PlainTextResponse(name)
    # ok: python.taint-xss
    HTMLResponse("<p>%d</p>" % age)
    # ruleid: python.taint-xss
    return HTMLResponse(content=f"<div>{name}</div>")


async def starlette_home(request):
    who = request.query_params.get("who", "")
    # ruleid: python.taint-xss
    return HTMLResponse("<h1>%s</h1>" % who)


async def aiohttp_hello(request):
    name = request.query.get("name", "")
    # ok: python.taint-xss
    plain = web.Response(text="Hello " + name)
    # ruleid: python.taint-xss
    return web.Response(text="<h1>Hello %s</h1>" % name, content_type="text/html")


class HelloHandler(tornado.web.RequestHandler):
    def get(self):
        name = self.get_argument("name")
        # ruleid: python.taint-xss
        self.write("<p>Hello " + name + "</p>")
        # ok: python.taint-xss
        self.write({"name": name})
        # ok: python.taint-xss
        self.write("<p>%s</p>" % tornado.escape.xhtml_escape(name))
        # ok: python.taint-xss
        self.render("hello.html", name=name)


class EchoHandler(BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"])).decode()
        self.send_response(200)
        self.end_headers()
        # ruleid: python.taint-xss
        # nofix: python.taint-xss (the body is encoded after it is built)
        self.wfile.write(("<pre>%s</pre>" % body).encode())
        # ok: python.taint-xss
        self.wfile.write(("<pre>%s</pre>" % html.escape(body)).encode())


@app.errorhandler(404)
def page_not_found(error):
    # ruleid: python.taint-xss
    return "<h1>No page at %s</h1>" % request.path, 404


@app.route("/report/<name>")
def report(name):
    # ok: python.taint-xss
    return open(os.path.join("/srv/reports", os.path.basename(name))).read()


def flat_page(request):
    # The page is the record the path selects: its content is the database's, not the request's.
    page = get_object_or_404(Page, url=request.path_info)
    # ok: python.taint-xss
    content = mark_safe(page.content)
    # ruleid: python.taint-xss
    # nofix: python.taint-xss (a value, not markup built around it)
    title = mark_safe(request.path_info)
    return HttpResponse(content + title)


def event_stream(request):
    # Server-sent events: the browser hands them to an EventSource, it never renders them.
    # ok: python.taint-xss
    return HttpResponse(request.GET["q"], content_type="text/event-stream")


def created_message(request):
    device = request.POST["device"]
    # A URL the URL configuration built, and the escaped name.
    # ok: python.taint-xss
    return HttpResponse(f'<a href="{device.get_absolute_url()}">{html.escape(device)}</a>')


@app.route("/patch")
def patch():
    text = request.args.get("diff", "")
    # The response is plain text: set after it was made.
    # ok: python.taint-xss
    response = make_response(text)
    response.headers["Content-Type"] = "text/plain; charset=utf-8"
    return response


@app.route("/echo")
def echo():
    text = request.args.get("q", "")
    # ruleid: python.taint-xss
    # nofix: python.taint-xss (a variable, not a string built here)
    response = make_response(text)
    response.headers["Cache-Control"] = "no-store"
    return response


@app.route("/asset/<name>")
def asset(name):
    response = make_response(load_asset_bytes())
    # A header set on a response is not its body.
    response.headers["X-Asset-Name"] = name
    response.headers.add("X-Requested", request.args.get("v", ""))
    # ok: python.taint-xss
    return response


@app.route("/echo-later")
def echo_later():
    response = make_response("")
    response.data = request.args["text"]
    # ruleid: python.taint-xss
    # nofix: python.taint-xss (a response object built elsewhere)
    return response
