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
