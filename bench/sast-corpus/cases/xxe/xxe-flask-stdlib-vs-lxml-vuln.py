import xml.etree.ElementTree as ET

from flask import Flask, request
from lxml import etree

app = Flask(__name__)
RESOLVING = etree.XMLParser(resolve_entities=True, no_network=False)


@app.post("/contacts/import")
def import_contacts():
    root = etree.fromstring(request.get_data(), RESOLVING)
    return {"contacts": len(root.findall("contact"))}
