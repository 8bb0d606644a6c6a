#!/usr/bin/env python3
import cgi
import shlex
import subprocess

form = cgi.FieldStorage()
name = form.getvalue("name", "report")
print("Content-Type: text/plain\n")
print(subprocess.getoutput("file /srv/reports/" + shlex.quote(name)))
