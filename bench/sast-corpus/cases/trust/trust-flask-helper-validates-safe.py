import os

from flask import Flask, request, session

app = Flask(__name__)
app.secret_key = os.environ["FLASK_SECRET_KEY"]
CURRENCIES = {"EUR", "USD", "GBP"}


def normalise_currency(code):
    code = code.upper()
    if code not in CURRENCIES:
        return "EUR"
    return code


@app.route("/currency")
def currency():
    session["currency"] = normalise_currency(request.args.get("c", "EUR"))
    return "ok"
