#!/usr/bin/env python3
import cgi
import html

form = cgi.FieldStorage()
term = form.getfirst("term", "")
print("Content-Type: text/html\n")
print("<p>You searched for: " + term + "</p>")
