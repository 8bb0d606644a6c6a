"""Imports checked by python.import-lxml."""
# ruleid: python.import-lxml
from lxml import etree
# ruleid: python.import-lxml
import lxml.etree as LET
# ok: python.import-lxml
import xml.dom
# ok: python.import-lxml
from defusedxml import lxml
