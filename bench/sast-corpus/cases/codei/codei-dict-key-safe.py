from flask import Flask, request

app = Flask(__name__)


@app.route("/plot")
def plot():
    exprs = {"user": request.args.get("f", ""), "default": "x * x"}
    fn = eval("lambda x: " + exprs["default"])
    return {"points": [fn(x) for x in range(10)]}
