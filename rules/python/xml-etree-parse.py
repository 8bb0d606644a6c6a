import xml.etree.ElementTree as ET
from xml.etree.ElementTree import fromstring
import defusedxml.ElementTree as SafeET


def parse_upload(data):
    # ruleid: python.xml-etree-parse
    root = ET.fromstring(data)
    return root.findall("item")


def parse_file(path):
    # ruleid: python.xml-etree-parse
    return ET.parse(path).getroot()


def parse_body(body):
    # ruleid: python.xml-etree-parse
    return fromstring(body)


def parse_upload_safely(data):
    # ok: python.xml-etree-parse
    return SafeET.fromstring(data)


def build(tag):
    # ok: python.xml-etree-parse
    return ET.Element(tag)
