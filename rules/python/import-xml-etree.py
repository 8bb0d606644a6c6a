"""Imports checked by python.import-xml-etree."""
# ruleid: python.import-xml-etree
import xml.etree.ElementTree as ET
# ruleid: python.import-xml-etree
from xml.etree.ElementTree import fromstring
# ok: python.import-xml-etree
import defusedxml.ElementTree as ET
# ok: python.import-xml-etree
from defusedxml.ElementTree import fromstring
