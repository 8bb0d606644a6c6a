import base64
import json
import marshal

from flask import Flask, request

app = Flask(__name__)


@app.route("/cart")
def cart():
    raw = base64.b64decode(request.cookies.get("cart", "e30="))
    items = json.loads(raw)
    return {"count": len(items)}
