import ast
import os
import socket

import tornado.web
from aiohttp import web
from django.views import View
from fastapi import FastAPI
from flask import Flask, request

app = Flask(__name__)
api = FastAPI()


@app.route("/calc")
def calc():
    expr = request.args.get("expr")
    # ruleid: python.taint-code-injection
    result = eval(expr)
    # ok: python.taint-code-injection
    safe = ast.literal_eval(expr)
    return str(result + safe)


@app.route("/hook", methods=["POST"])
def hook():
    payload = request.get_json()
    code = "handler_%s()" % payload["name"]
    # ruleid: python.taint-code-injection
    exec(code, {"__builtins__": {}})
    # ok: python.taint-code-injection
    exec("handler_default()")
    return "ok"


def django_view(request):
    limit = int(request.GET.get("limit", "10"))
    # ok: python.taint-code-injection
    eval("range(%d)" % limit)
    # ruleid: python.taint-code-injection
    eval(compile(request.POST["src"], "<input>", "eval"))


def compile_only(request):
    # ok: python.taint-code-injection
    code = compile(request.POST["src"], "<input>", "exec")
    # ruleid: python.taint-code-injection
    exec(code)


class FormulaView(View):
    def get(self, request):
        formula = self.request.GET["formula"]
        # ruleid: python.taint-code-injection
        return eval(formula)


class ReportView(View):
    def get(self, request, expression):
        # ruleid: python.taint-code-injection
        return eval(expression)


@api.post("/rules/{name}")
async def run_rule(name: str, body: str):
    # ruleid: python.taint-code-injection
    exec(body)
    return {"rule": name}


@api.get("/pages/{page}")
async def page(page: int):
    # ok: python.taint-code-injection
    return {"items": eval("list(range(%d))" % page)}


class EvalHandler(tornado.web.RequestHandler):
    def post(self):
        # ruleid: python.taint-code-injection
        result = eval(self.get_body_argument("expression"))
        self.write({"result": result})


async def aiohttp_exec(request: web.Request) -> web.Response:
    form = await request.post()
    # ruleid: python.taint-code-injection
    exec(form["code"])
    return web.Response(text="done")


def serve(port):
    sock = socket.create_server(("127.0.0.1", port))
    conn, _ = sock.accept()
    data = conn.recv(4096)
    # ruleid: python.taint-code-injection
    eval(data.decode())


def repl():
    # Local sources: a flow from the operator's own input is reported at most medium, low confidence.
    # ruleid: python.taint-code-injection
    eval(input(">>> "))
    startup = os.environ.get("PYTHONSTARTUP")
    if startup:
        with open(startup) as fh:
            # ruleid: python.taint-code-injection
            exec(compile(fh.read(), startup, "exec"))
