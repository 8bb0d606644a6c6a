import re

import ldap
import tornado.web
from django.http import HttpResponse
from django.views import View
from fastapi import FastAPI
from flask import Flask, request
from ldap.filter import filter_format
from ldap3 import SUBTREE, Connection, Server
from ldap3.utils.conv import escape_filter_chars

app = Flask(__name__)
api = FastAPI()


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


class DirectoryView(View):
    def get(self, request, uid):
        con = ldap.initialize("ldap://ldap.example.com")
        # ruleid: python.taint-ldap-injection
        con.search_ext_s("dc=example,dc=com", ldap.SCOPE_SUBTREE, "(uid=%s)" % uid)
        # ok: python.taint-ldap-injection
        found = con.search_s("dc=example,dc=com", ldap.SCOPE_SUBTREE, filter_format("(uid=%s)", [uid]))
        return HttpResponse(str(found))


@api.get("/people")
async def people(mail: str):
    conn = Connection(Server("ldap.example.com"), auto_bind=True)
    # ruleid: python.taint-ldap-injection
    conn.search("dc=example,dc=com", "(mail=" + mail + ")", search_scope=SUBTREE)
    # ok: python.taint-ldap-injection
    matched = re.search(r"[^@]+@example\.com", mail)
    # ruleid: python.taint-ldap-injection
    pages = conn.extend.standard.paged_search("dc=example,dc=com", f"(cn={mail})", attributes=["cn"])
    return {"n": len(conn.entries), "ok": bool(matched), "pages": list(pages)}


class GroupHandler(tornado.web.RequestHandler):
    def get(self):
        group = self.get_query_argument("group")
        conn = Connection(Server("ldap.example.com"), auto_bind=True)
        # ruleid: python.taint-ldap-injection
        conn.search("ou=groups,dc=example,dc=com", "(cn=%s)" % group, SUBTREE)
        # ok: python.taint-ldap-injection
        conn.search("ou=groups,dc=example,dc=com", "(cn=%s)" % escape_filter_chars(group), SUBTREE)
