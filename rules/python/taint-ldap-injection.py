import ldap
from flask import Flask, request
from ldap3 import Connection, Server
from ldap3.utils.conv import escape_filter_chars

app = Flask(__name__)


@app.route("/lookup")
def lookup():
    user = request.args["user"]
    con = ldap.initialize("ldap://ldap.example.com")
    # ruleid: python.taint-ldap-injection
    result = con.search_s("dc=example,dc=com", ldap.SCOPE_SUBTREE, "(uid=" + user + ")")
    # ok: python.taint-ldap-injection
    con.search_s("dc=example,dc=com", ldap.SCOPE_SUBTREE, "(objectClass=person)")
    return str(result)


@app.route("/members")
def members():
    group = request.args["group"]
    conn = Connection(Server("ldap.example.com"), auto_bind=True)
    # ruleid: python.taint-ldap-injection
    conn.search("ou=groups,dc=example,dc=com", f"(cn={group})", attributes=["member"])
    # ok: python.taint-ldap-injection
    conn.search("ou=groups,dc=example,dc=com", "(cn=%s)" % escape_filter_chars(group), attributes=["member"])
    # ruleid: python.taint-ldap-injection
    conn.search(search_base="dc=example,dc=com", search_filter="(mail=%s)" % request.form["mail"])
    return str(conn.entries)
