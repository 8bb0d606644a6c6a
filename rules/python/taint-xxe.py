import defusedxml.ElementTree as SafeET
from flask import Flask, request
from lxml import etree

app = Flask(__name__)


@app.route("/import", methods=["POST"])
def import_feed():
    # ruleid: python.taint-xxe
    doc = etree.fromstring(request.data)
    # ok: python.taint-xxe
    safe = SafeET.fromstring(request.data)
    return str(len(doc) + len(safe))


@app.route("/upload", methods=["POST"])
def upload_xml():
    body = request.files["xml"].read()
    # ruleid: python.taint-xxe
    tree = etree.fromstring(body, parser=etree.XMLParser(resolve_entities=True))
    parser = etree.XMLParser(resolve_entities=False, no_network=True)
    # ok: python.taint-xxe
    tree2 = etree.fromstring(body, parser)
    return str(tree.tag + tree2.tag)


def django_import(request):
    from xml.dom import minidom
    # ruleid: python.taint-xxe
    return minidom.parseString(request.body)


def config():
    # ok: python.taint-xxe
    return etree.fromstring("<config><debug>false</debug></config>")
