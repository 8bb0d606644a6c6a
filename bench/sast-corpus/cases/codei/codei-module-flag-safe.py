from flask import Flask, request

app = Flask(__name__)

ALLOW_USER_FORMULAS = False


@app.route("/score")
def score():
    formula = "hits * 2 - misses"
    if ALLOW_USER_FORMULAS:
        formula = request.args.get("formula", formula)
    result = eval(formula, {"hits": 10, "misses": 3})
    return {"score": result}
