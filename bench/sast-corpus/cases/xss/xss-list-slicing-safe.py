from flask import Flask, request

app = Flask(__name__)


@app.route("/title")
def title():
    values = [request.args.get("t", ""), "Welcome", "to the shop"]
    heading = " ".join(values[1:])
    return f"<h1>{heading}</h1>"
