from flask import Flask, request
from lxml import etree

app = Flask(__name__)


@app.post("/orders/xml")
def import_order():
    parser = etree.XMLParser(resolve_entities=False)
    root = etree.fromstring(request.get_data(), parser)
    return {"items": len(root.findall("item"))}
