#!/usr/bin/env python3
import cgi
import random

from mailer import send_mail

form = cgi.FieldStorage()
email = form.getvalue("email", "")
number = random.randint(100000, 999999)
print("Content-Type: text/html\n")
login_code = number
send_mail(email, f"Your login code is {login_code}")
print("<p>Check your inbox.</p>")
