from lxml import etree
import lxml.etree as LET


def parse_invoice(data):
    # ruleid: python.lxml-parse
    root = etree.fromstring(data)
    return root.xpath("//total/text()")


def parse_feed(path):
    # ruleid: python.lxml-parse
    return LET.parse(path)


def build_invoice():
    # ok: python.lxml-parse
    root = etree.Element("invoice")
    # ok: python.lxml-parse
    return etree.tostring(root)


SAFE = etree.XMLParser(resolve_entities=False, no_network=True)


def parse_upload(data):
    # ok: python.lxml-parse
    return etree.fromstring(data, SAFE)


def parse_upload_inline(data):
    # ok: python.lxml-parse
    return etree.fromstring(data, parser=etree.XMLParser(resolve_entities=False))


def parse_upload_resolving(data):
    # ruleid: python.lxml-parse
    return etree.fromstring(data, etree.XMLParser(resolve_entities=True))
