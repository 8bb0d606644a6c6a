import xml.etree.ElementTree as ET

import elementpath
import tornado.web
from django.http import HttpResponse
from django.views import View
from fastapi import FastAPI
from flask import Flask, request
from lxml import etree

app = Flask(__name__)
api = FastAPI()
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


class CatalogView(View):
    def get(self, request, sku):
        # ruleid: python.taint-xpath-injection
        price = TREE.findtext("//product[@sku='%s']/price" % sku)
        # ok: python.taint-xpath-injection
        name = TREE.xpath("//product[@sku=$sku]/name/text()", sku=sku)
        return HttpResponse(str(price) + str(name))


@api.get("/nodes")
async def nodes(path: str, depth: int):
    # ruleid: python.taint-xpath-injection
    selected = elementpath.select(TREE.getroot(), path)
    # ok: python.taint-xpath-injection
    shallow = elementpath.select(TREE.getroot(), "/*" * depth)
    return {"n": len(selected) + len(shallow)}


class AuthorHandler(tornado.web.RequestHandler):
    def get(self):
        author = self.get_argument("author")
        # ruleid: python.taint-xpath-injection
        books = TREE.iterfind(".//book[author='" + author + "']")
        self.write({"count": len(list(books))})
