import io
import xml.sax

import defusedxml.ElementTree as SafeET
import defusedxml.minidom as defused_minidom
import tornado.web
from aiohttp import web
from django.http import HttpResponse
from django.views import View
from fastapi import FastAPI, UploadFile
from flask import Flask, request
from lxml import etree, objectify

app = Flask(__name__)
api = FastAPI()


@app.route("/import", methods=["POST"])
def import_feed():
    # ruleid: python.taint-xxe
    doc = etree.fromstring(request.data)
    # ok: python.taint-xxe
    safe = SafeET.fromstring(request.data)
    # A number carries no markup.
    # ok: python.taint-xxe
    count = etree.fromstring("<n>%s</n>" % float(request.args["n"]))
    return str(len(doc) + len(safe) + len(count))


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
    # Minidom fetches no external entities since Python 3.7.1.
    # ok: python.taint-xxe
    return minidom.parseString(request.body)


def django_import_ges(request):
    from xml.dom import pulldom
    from xml.sax.handler import feature_external_ges
    sax = xml.sax.make_parser()
    sax.setFeature(feature_external_ges, True)
    # ruleid: python.taint-xxe
    return pulldom.parseString(request.body.decode(), parser=sax)


def django_import_no_ges(request):
    from xml.dom import pulldom
    from xml.sax.handler import feature_external_ges
    sax = xml.sax.make_parser()
    sax.setFeature(feature_external_ges, False)
    # ok: python.taint-xxe
    return pulldom.parseString(request.body.decode(), parser=sax)


def config():
    # ok: python.taint-xxe
    return etree.fromstring("<config><debug>false</debug></config>")


class FeedImportView(View):
    def post(self, request):
        # ruleid: python.taint-xxe
        feed = objectify.fromstring(request.body)
        # ok: python.taint-xxe
        safe = defused_minidom.parseString(request.body)
        return HttpResponse(str(feed.title) + safe.documentElement.tagName)


@api.post("/svg")
async def upload_svg(file: UploadFile):
    data = await file.read()
    # ruleid: python.taint-xxe
    tree = etree.parse(io.BytesIO(data), parser=etree.XMLParser(resolve_entities=True))
    # ok: python.taint-xxe
    tree2 = etree.parse(io.BytesIO(data), parser=etree.XMLParser(resolve_entities=False))
    return {"root": tree.getroot().tag, "root2": tree2.getroot().tag}


class SoapHandler(tornado.web.RequestHandler):
    def post(self):
        handler = xml.sax.ContentHandler()
        # External general entities are off by default since Python 3.7.1.
        # ok: python.taint-xxe
        xml.sax.parseString(self.request.body, handler)
        parser = xml.sax.make_parser()
        parser.setFeature(xml.sax.handler.feature_external_ges, True)
        parser.setContentHandler(handler)
        # ruleid: python.taint-xxe
        parser.parse(io.BytesIO(self.request.body))
        # ok: python.taint-xxe
        xml.sax.parseString(b"<ping/>", handler)


async def aiohttp_import(request):
    body = await request.text()
    # ruleid: python.taint-xxe
    doc = etree.XML(body.encode())
    return web.Response(text=doc.tag)


RESOLVE = True
RESOLVING_PARSER = etree.XMLParser(resolve_entities=RESOLVE, load_dtd=True)
SAFE_PARSER = etree.XMLParser(resolve_entities=False, no_network=True)


class InvoiceHandler(tornado.web.RequestHandler):
    parser = etree.XMLParser(resolve_entities=True)

    def post(self):
        # ruleid: python.taint-xxe
        a = etree.fromstring(self.request.body, RESOLVING_PARSER)
        # ok: python.taint-xxe
        b = etree.fromstring(self.request.body, SAFE_PARSER)
        # ruleid: python.taint-xxe
        c = etree.fromstring(self.request.body, self.parser)
        # A trusted document.
        # ok: python.taint-xxe
        d = etree.parse("/srv/app/defaults.xml", RESOLVING_PARSER)
        feed = etree.XMLParser(resolve_entities=True)
        # ruleid: python.taint-xxe
        feed.feed(self.request.body)
        # ruleid: python.taint-xxe
        for _, e in etree.iterparse(io.BytesIO(self.request.body), resolve_entities=True):
            e.clear()
        # ok: python.taint-xxe
        for _, e in etree.iterparse(io.BytesIO(self.request.body), resolve_entities=False):
            e.clear()
        self.write(str(len(a) + len(b) + len(c) + len(d.getroot()) + len(feed.close())))
