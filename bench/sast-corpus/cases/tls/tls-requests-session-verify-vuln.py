import requests
from flask import Flask

app = Flask(__name__)
http = requests.Session()
http.verify = False


@app.route("/orders")
def orders():
    return http.get("https://partner.example.com/api/orders", timeout=5).json()
