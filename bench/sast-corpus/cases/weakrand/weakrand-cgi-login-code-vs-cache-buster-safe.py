#!/usr/bin/env python3
import cgi
import random

from mailer import send_mail

form = cgi.FieldStorage()
email = form.getvalue("email", "")
number = random.randint(100000, 999999)
print("Content-Type: text/html\n")
version = number
print(f'<link rel="stylesheet" href="/static/site.css?v={version}">')
print("<p>Check your inbox.</p>")
