import os

from flask import Flask, request, session

app = Flask(__name__)
app.secret_key = os.environ["FLASK_SECRET_KEY"]


@app.post("/cart/select")
def select_cart():
    cart = request.form.get("cart", "0")
    session["cart_id"] = int(cart)
    return "ok"
