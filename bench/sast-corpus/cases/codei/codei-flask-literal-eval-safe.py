import ast

from flask import Flask, jsonify, request

app = Flask(__name__)


@app.post("/calc")
def calc():
    expr = request.form.get("expr", "0")
    value = ast.literal_eval(expr)
    return jsonify(result=value)
