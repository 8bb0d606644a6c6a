"""Imports checked by python.import-xml-sax."""
# ruleid: python.import-xml-sax
import xml.sax
# ruleid: python.import-xml-sax
from xml import sax
# ok: python.import-xml-sax
import defusedxml.sax
# ok: python.import-xml-sax
from defusedxml import sax
