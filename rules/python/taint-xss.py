import html

from django.http import HttpResponse, HttpResponseNotFound
from django.template import loader
from django.utils.safestring import mark_safe
from flask import Flask, jsonify, make_response, render_template_string, request

app = Flask(__name__)


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
    return render_template_string("<p>" + greeting + "</p>")


@app.route("/api/echo")
def echo():
    # ok: python.taint-xss
    return make_response(jsonify(message=request.args["m"]))


@app.route("/error")
def error():
    # ruleid: python.taint-xss
    return make_response("<b>Unknown page %s</b>" % request.args["page"], 404)


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
