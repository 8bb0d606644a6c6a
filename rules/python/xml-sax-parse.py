import xml.sax
from xml import sax
import defusedxml.sax


def count_items(stream, handler):
    # ruleid: python.xml-sax-parse
    xml.sax.parse(stream, handler)
    return handler.count


def parse_text(text, handler):
    # ruleid: python.xml-sax-parse
    sax.parseString(text, handler)


def parser():
    # ruleid: python.xml-sax-parse
    return sax.make_parser()


def count_items_safely(stream, handler):
    # ok: python.xml-sax-parse
    defusedxml.sax.parse(stream, handler)


class Handler(xml.sax.ContentHandler):
    def __init__(self):
        # ok: python.xml-sax-parse
        xml.sax.ContentHandler.__init__(self)
        self.count = 0
