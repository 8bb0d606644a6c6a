import xml.etree.ElementTree as ET

from flask import Flask, request
from lxml import etree

app = Flask(__name__)
TREE = etree.parse("users.xml")


@app.route("/user")
def user():
    name = request.args["name"]
    # ruleid: python.taint-xpath-injection
    found = TREE.xpath("//user[@name='" + name + "']")
    # ok: python.taint-xpath-injection
    safe = TREE.xpath("//user[@name=$name]", name=name)
    return str(found + safe)


@app.route("/books")
def books():
    author = request.args.get("author")
    root = ET.parse("books.xml").getroot()
    # ruleid: python.taint-xpath-injection
    titles = root.findall(f".//book[author='{author}']/title")
    # ok: python.taint-xpath-injection
    everything = root.findall(".//book/title")
    # ruleid: python.taint-xpath-injection
    finder = etree.XPath("//book[@id=%s]" % request.args["id"])
    return str(titles + everything) + str(finder)
