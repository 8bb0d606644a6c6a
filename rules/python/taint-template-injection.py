import jinja2
from django.template import Template as DjangoTemplate
from fastapi import FastAPI
from flask import Flask, render_template, render_template_string, request

app = Flask(__name__)
api = FastAPI()


@app.errorhandler(404)
def not_found(error):
    # ruleid: python.taint-template-injection
    return render_template_string(f"<h1>{request.path} was not found</h1>"), 404


@app.route("/greet")
def greet():
    name = request.args.get("name", "")
    page = "<h1>Hello %s</h1>" % name
    # ruleid: python.taint-template-injection
    body = render_template_string(page)
    # The input as a variable of a fixed template is data, not template syntax.
    # ok: python.taint-template-injection
    safe = render_template_string("<h1>Hello {{ name }}</h1>", name=name)
    # ok: python.taint-template-injection
    other = render_template("greet.html", name=name)
    return body + safe + other


@api.get("/hello")
async def hello(name: str = ""):
    content = f"<h1>Hello, {name}!</h1>"
    # ruleid: python.taint-template-injection
    return jinja2.Template(content).render()


@app.route("/preview", methods=["POST"])
def preview():
    env = jinja2.Environment()
    # ruleid: python.taint-template-injection
    return env.from_string(request.form["template"]).render()


def django_preview(request):
    # ruleid: python.taint-template-injection
    return DjangoTemplate(request.POST["body"]).render({})
