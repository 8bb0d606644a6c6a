from flask import Flask, request
from lxml import etree

app = Flask(__name__)
ORDERS = etree.parse("/srv/orders.xml")


@app.route("/orders/status")
def order_status():
    order_id = request.args.get("id", "0")
    status = ORDERS.xpath("string(//order[@id=%s]/status)" % order_id)
    return {"status": status}
