from xml.dom import minidom
from xml.dom.pulldom import parseString as pull_parse
import defusedxml.minidom


def read_config(path):
    # ruleid: python.xml-dom-parse
    doc = minidom.parse(path)
    return doc.documentElement


def stream_events(text):
    # ruleid: python.xml-dom-parse
    for event, node in pull_parse(text):
        yield event, node


def read_config_safely(path):
    # ok: python.xml-dom-parse
    return defusedxml.minidom.parse(path).documentElement


def new_document():
    # ok: python.xml-dom-parse
    return minidom.Document()
