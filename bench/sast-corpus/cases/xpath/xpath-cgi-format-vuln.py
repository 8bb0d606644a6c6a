#!/usr/bin/env python3
import cgi

from lxml import etree

GLOSSARY = etree.parse("/srv/glossary.xml")
form = cgi.FieldStorage()
term = form.getvalue("term", "")
print("Content-Type: text/plain\n")
for node in GLOSSARY.xpath("//entry[@term='{}']/definition/text()".format(term)):
    print(node)
