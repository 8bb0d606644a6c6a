"""Imports checked by python.import-xml-minidom."""
# ruleid: python.import-xml-minidom
from xml.dom.minidom import parseString
# ruleid: python.import-xml-minidom
from xml.dom import minidom
# ok: python.import-xml-minidom
from defusedxml.minidom import parseString
# ok: python.import-xml-minidom
from xml.dom import Node
