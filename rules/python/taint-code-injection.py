import ast

from flask import Flask, request

app = Flask(__name__)


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
