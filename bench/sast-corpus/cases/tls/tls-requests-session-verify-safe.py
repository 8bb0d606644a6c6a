import requests
from flask import Flask

app = Flask(__name__)
http = requests.Session()
http.verify = "/etc/ssl/certs/partner-ca.pem"


@app.route("/orders")
def orders():
    return http.get("https://partner.example.com/api/orders", timeout=5).json()
