from flask import Flask, request
from ldap3 import Connection, Server

from helpers.utils import clean

app = Flask(__name__)
server = Server("ldaps://ldap.example.com")


@app.post("/lookup")
def lookup():
    mail = clean(request.form["mail"])
    conn = Connection(server, auto_bind=True)
    conn.search("dc=example,dc=com", "(mail=" + mail + ")", attributes=["cn"])
    return {"found": [str(e.cn) for e in conn.entries]}
