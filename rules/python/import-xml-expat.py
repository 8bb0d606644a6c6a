"""Imports checked by python.import-xml-expat."""
# ruleid: python.import-xml-expat
import xml.dom.expatbuilder
# ruleid: python.import-xml-expat
from xml.dom import expatbuilder
# ok: python.import-xml-expat
import defusedxml.expatbuilder
# ok: python.import-xml-expat
from defusedxml import expatbuilder
