"""Imports checked by python.import-xml-pulldom."""
# ruleid: python.import-xml-pulldom
import xml.dom.pulldom
# ruleid: python.import-xml-pulldom
from xml.dom.pulldom import parse as pull_parse
# ok: python.import-xml-pulldom
import defusedxml.pulldom
# ok: python.import-xml-pulldom
from defusedxml.pulldom import parse
