import requests
from flask import Flask

app = Flask(__name__)


@app.route("/rates")
def rates():
    resp = requests.get("https://rates.example.com/v1/latest", timeout=5, verify="/etc/ssl/certs/internal-ca.pem")
    return resp.json()
