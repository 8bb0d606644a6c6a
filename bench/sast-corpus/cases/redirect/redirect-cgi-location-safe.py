#!/usr/bin/env python3
import cgi

PAGES = {"home": "/", "help": "/help/", "pricing": "/pricing/"}
form = cgi.FieldStorage()
page = form.getvalue("to", "home")
target = PAGES.get(page, "/")
print("Status: 302 Found")
print("Location: " + target)
print()
