#!/usr/bin/env python3
"""LabApp: a DELIBERATELY VULNERABLE web application, the second shape of each class the DAST
checks look for (issue 30). vulnapp.py is the first shape; each lab here differs from it where a
check tuned to the first could miss: the context, the place the value travels, what is shown.

Never deploy it. It binds 127.0.0.1 only and keeps all state in memory.

  GET  /item?id=2            VULNERABLE blind SQL, numeric, boolean: the item's name or "No such item"
                             (errors hidden)                      twin: /item-safe
  GET  /stock?id=2           VULNERABLE blind SQL, numeric, time-based: the page never changes
                             (MySQL-style SLEEP as vulnapp.py has)  twin: /stock-safe
  POST /api/comments         VULNERABLE stored XSS through a JSON API ({"text": ...}); shown raw on
                             /comments                            twin: /api/comments-safe, /comments-safe
  GET  /profile.js?jsonp=f   VULNERABLE JSONP: any callback name  twin: /profile-safe.js
  GET  /import?doc=<xml>     VULNERABLE XXE: an XML document in a query parameter, external
                             entities resolved, its text shown    twin: /import-safe
  GET  /member?name=alice    VULNERABLE XPath, a double-quoted literal, errors hidden
                                                                  twin: /member-safe
  GET  /people?q=alice       VULNERABLE LDAP: the value twice in (|(uid=q)(mail=q)), errors shown
                                                                  twin: /people-safe
  POST /card                 VULNERABLE SSTI: ${ expr } in a form field (not vulnapp's {{ }})
                                                                  twin: /card-safe
  GET  /notes?owner=         VULNERABLE SQL (a double-quoted value, errors a bare 500, one JSON line)
                             while POST /api/notes adds rows the same value matches: tested during
                             the writes, its answer changes under the probes  twin: /notes-safe
  POST /signin               VULNERABLE SQL in a sign-in form (a bare 500 on errors; a wrong password
                             and every AND answer alike: only a widening OR shows it; not XPath)
                                                                  twin: /signin-safe
  POST /graphql               a GraphQL API (introspection on, no link to it): books(author) VULNERABLE SQL
                             (errors in the answer's "errors"), booksSafe(author) its twin, the mutation
                             deleteAllBooks(confirm) destroys (a scan must never send it)
  GET  /<anything else>      VULNERABLE reflected XSS in the path: the not-found page shows the path
                             it was asked for, decoded and unescaped
  POST /wizard               VULNERABLE deserialisation: a pickle in a hidden form field (not a
                             cookie)                              twin: /wizard-safe (HMAC-checked)

Usage: python3 labapp.py [--port 0] [--port-file FILE]
Python 3.11 standard library only (and vulnapp.py's XPath, LDAP and entity code, imported).
"""

import argparse
import base64
import hashlib
import hmac
import html
import http.server
import io
import json
import os
import pickle
import re
import sqlite3
import sys
import threading
import time
import urllib.parse
import xml.sax

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vulnapp  # noqa: E402  (its XPath and LDAP engines and its entity resolver)

SECRET = os.urandom(16)
LOCK = threading.Lock()
COMMENTS = {"raw": [], "safe": []}
NOTES = sqlite3.connect(":memory:", check_same_thread=False)
NOTES.execute("CREATE TABLE notes (owner TEXT, text TEXT)")
NOTES.execute("INSERT INTO notes VALUES ('ada', 'buy rope')")


def page(title, body, status=200):
    return status, "text/html; charset=utf-8", (
        "<!doctype html><html><head><title>%s</title></head><body><h1>%s</h1>%s</body></html>" % (title, title, body))


def database():
    conn = sqlite3.connect(":memory:")
    conn.create_function("SLEEP", 1, lambda s: time.sleep(max(0.0, min(float(s), 10.0))) or 0)
    conn.execute("CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT, qty INTEGER)")
    conn.executemany("INSERT INTO items VALUES (?, ?, ?)", [(1, "anvil", 3), (2, "rope", 12), (3, "lamp", 0)])
    return conn


def item(query, safe):
    raw = query.get("id", "2")
    try:
        conn = database()
        row = (conn.execute("SELECT name FROM items WHERE id = ?", (raw,)) if safe
               else conn.execute("SELECT name FROM items WHERE id = " + raw)).fetchone()  # VULNERABLE unless safe
    except sqlite3.Error:
        row = None
    return page("Item", "<p>%s</p>" % (("Item: " + html.escape(row[0])) if row else "No such item"))


def stock(query, safe):
    raw = query.get("id", "2")
    try:
        conn = database()
        (conn.execute("SELECT qty FROM items WHERE id = ?", (raw,)) if safe
         else conn.execute("SELECT qty FROM items WHERE id = " + raw)).fetchall()  # VULNERABLE unless safe
    except sqlite3.Error:
        pass
    return page("Stock", "<p>We will e-mail you when it is back.</p>")


def notes(query, safe):
    owner = query.get("owner", "ada")
    try:
        with LOCK:
            rows = (NOTES.execute("SELECT owner, text FROM notes WHERE owner = ?", (owner,)) if safe else
                    NOTES.execute('SELECT owner, text FROM notes WHERE owner = "%s"' % owner)).fetchall()  # VULNERABLE
    except sqlite3.Error:
        return 500, "text/plain", "Internal Server Error"
    return 200, "application/json", json.dumps({"notes": rows})


def comments_page(kind):
    with LOCK:
        shown = list(COMMENTS[kind][-50:])
    render = (lambda t: t) if kind == "raw" else html.escape  # VULNERABLE for raw
    return page("Comments", "<ul>%s</ul>" % "".join("<li>%s</li>" % render(t) for t in shown))


def profile_js(query, safe):
    callback = query.get("jsonp", "showProfile")
    if safe and not re.fullmatch(r"[A-Za-z_$][\w$.]{0,63}", callback):
        callback = "showProfile"
    return 200, "application/javascript", '%s({"name": "Ada", "plan": "free"});' % callback


def import_doc(query, safe):
    doc = query.get("doc", "<note><to>Ada</to><body>hello</body></note>")
    parser = xml.sax.make_parser()
    parser.setFeature(xml.sax.handler.feature_external_ges, not safe)  # VULNERABLE unless safe
    parser.setFeature(xml.sax.handler.feature_external_pes, False)
    collector = vulnapp.TextCollector()
    parser.setContentHandler(collector)
    parser.setEntityResolver(vulnapp.EntityFetcher())
    try:
        parser.parse(io.BytesIO(doc.encode("utf-8")))
    except Exception:  # noqa: BLE001
        return page("Import", "<p>That document could not be read.</p>", 400)
    return page("Import", "<pre>%s</pre>" % html.escape("".join(collector.parts)))


def member(query, safe):
    name = query.get("name", "alice")
    literal = vulnapp.xpath_literal(name) if safe else '"' + name + '"'  # VULNERABLE unless safe
    try:
        found = vulnapp.xpath_select("//user[name/text()=" + literal + " and status/text()='active']")
    except vulnapp.XPathEvalError:
        found = []  # errors hidden
    return page("Members", "<p>%d member(s).</p><ul>%s</ul>" % (
        len(found), "".join("<li>%s</li>" % html.escape(u["email"]) for u in found)))


def people(query, safe):
    q = query.get("q", "alice")
    value = vulnapp.ldap_escape(q) if safe else q  # VULNERABLE unless safe
    try:
        found = vulnapp.ldap_search("(|(uid=%s)(mail=%s))" % (value, value))
    except Exception as e:  # noqa: BLE001
        return page("People", "<pre>ldap.FILTER_ERROR: %s</pre>" % html.escape(str(e)), 500)
    return page("People", "<ul>%s</ul>" % "".join("<li>%s</li>" % html.escape(e["cn"][0]) for e in found))


def card(form, safe):
    title = form.get("title", "Happy birthday")
    if safe:
        shown = title
    else:
        try:  # VULNERABLE: ${ expr } in the input is evaluated
            shown = re.sub(r"\$\{(.*?)\}", lambda m: str(eval(m.group(1), {"__builtins__": {}}, {})), title)
        except Exception:  # noqa: BLE001
            return page("Card", "<p>That card could not be made.</p>", 400)
    return page("Card", "<p class=card>%s</p>" % html.escape(shown))


def signin(form, safe):
    user, password = form.get("username", ""), form.get("password", "")
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE TABLE users (name TEXT, password TEXT)")
    conn.execute("INSERT INTO users VALUES ('ada', 'correct horse')")
    try:
        row = (conn.execute("SELECT name FROM users WHERE name = ? AND password = ?", (user, password)) if safe else
               conn.execute("SELECT name FROM users WHERE name = '%s' AND password = '%s'" % (user, password))
               ).fetchone()  # VULNERABLE unless safe
    except sqlite3.Error:
        return 500, "text/plain", "Internal Server Error"
    if not row:
        return page("Sign in", "<p>Wrong user name or password.</p>", 401)
    return page("Welcome", "<p>Signed in as %s.</p>" % html.escape(row[0]))


GRAPHQL_STRING = {"kind": "SCALAR", "name": "String", "ofType": None}
GRAPHQL_BOOK = {"kind": "OBJECT", "name": "Book", "ofType": None}
GRAPHQL_SCHEMA = {"data": {"__schema": {
    "queryType": {"name": "Query"}, "mutationType": {"name": "Mutation"},
    "types": [
        {"kind": "OBJECT", "name": "Query", "enumValues": None, "fields": [
            {"name": name, "args": [{"name": "author", "type": GRAPHQL_STRING}],
             "type": {"kind": "LIST", "name": None, "ofType": GRAPHQL_BOOK}} for name in ("books", "booksSafe")]},
        {"kind": "OBJECT", "name": "Mutation", "enumValues": None, "fields": [
            {"name": "deleteAllBooks", "args": [{"name": "confirm", "type": GRAPHQL_STRING}],
             "type": {"kind": "SCALAR", "name": "Boolean", "ofType": None}}]},
        {"kind": "OBJECT", "name": "Book", "enumValues": None, "fields": [
            {"name": "title", "args": [], "type": GRAPHQL_STRING},
            {"name": "author", "args": [], "type": GRAPHQL_STRING}]},
        {"kind": "SCALAR", "name": "String", "enumValues": None, "fields": None},
        {"kind": "SCALAR", "name": "Boolean", "enumValues": None, "fields": None}]}}}
GRAPHQL_DELETES = []


def graphql(raw):
    """Enough of GraphQL for a scanner: introspection, and the first field of the operation with
    its variables (`query ($a: String) { books(author: $a) { title } }`)."""
    try:
        sent = json.loads(raw or "{}")
        document, variables = str(sent.get("query", "")), sent.get("variables") or {}
    except (ValueError, AttributeError):
        return 400, "application/json", '{"errors": [{"message": "not JSON"}]}'
    if "__schema" in document:
        return 200, "application/json", json.dumps(GRAPHQL_SCHEMA)
    match = re.search(r"\{\s*(\w+)\s*\(\s*\w+\s*:\s*\$(\w+)", document)
    if not match:
        return 200, "application/json", '{"errors": [{"message": "Syntax Error"}]}'
    field, author = match.group(1), str(variables.get(match.group(2), ""))
    if field == "deleteAllBooks":
        GRAPHQL_DELETES.append(author)
        return 200, "application/json", '{"data": {"deleteAllBooks": true}}'
    conn = database()
    conn.execute("CREATE TABLE books (title TEXT, author TEXT)")
    conn.execute("INSERT INTO books VALUES ('Emma', 'Austen')")
    try:
        rows = (conn.execute("SELECT title, author FROM books WHERE author = ?", (author,)) if field == "booksSafe"
                else conn.execute("SELECT title, author FROM books WHERE author = '%s'" % author)  # VULNERABLE
                ).fetchall()
    except sqlite3.Error as e:
        return 200, "application/json", json.dumps({"errors": [{"message": "sqlite3.OperationalError: %s" % e}],
                                                    "data": {field: None}})
    return 200, "application/json", json.dumps({"data": {field: [{"title": t, "author": a} for t, a in rows]}})


def wizard_state(step):
    return base64.b64encode(pickle.dumps({"step": step, "plan": "free"})).decode()


def sign(state):
    return hmac.new(SECRET, state.encode(), hashlib.sha256).hexdigest()


def wizard(form, safe, action):
    state = form.get("state", wizard_state("1"))
    if safe and not hmac.compare_digest(form.get("sig", ""), sign(state)):
        return page("Wizard", "<p>The form was changed; start again.</p>", 400)
    try:
        obj = pickle.loads(base64.b64decode(state))  # VULNERABLE unless signed (safe)
    except Exception:  # noqa: BLE001
        return page("Wizard", "<p>Start again.</p>", 400)
    nxt = wizard_state("2")
    fields = '<input type="hidden" name="state" value="%s">' % nxt
    if safe:
        fields += '<input type="hidden" name="sig" value="%s">' % sign(nxt)
    step = obj.get("step", "?") if isinstance(obj, dict) else "?"
    return page("Wizard", '<p>Step %s.</p><form method="post" action="%s">%s<input type="submit" value="Next"></form>'
                % (html.escape(str(step)), action, fields))


def home():
    links = ["/item?id=2", "/item-safe?id=2", "/stock?id=2", "/stock-safe?id=2", "/comments", "/comments-safe",
             "/profile.js?jsonp=showProfile", "/profile-safe.js?jsonp=showProfile", "/member?name=alice",
             "/member-safe?name=alice", "/people?q=alice", "/people-safe?q=alice", "/openapi.json"]
    doc = "<note><to>Ada</to><body>hello</body></note>"
    links += ["/import?doc=" + urllib.parse.quote(doc), "/import-safe?doc=" + urllib.parse.quote(doc)]
    forms = "".join(
        '<form method="post" action="%s"><input name="title" value="Happy birthday"><input type="submit"></form>' % a
        for a in ("/card", "/card-safe"))
    forms += '<form method="post" action="/wizard"><input type="hidden" name="state" value="%s">' \
             '<input type="submit" value="Start"></form>' % wizard_state("1")
    forms += "".join(
        '<form method="post" action="%s"><input name="username"><input type="password" name="password">'
        '<input type="submit" value="Sign in"></form>' % a for a in ("/signin", "/signin-safe"))
    state = wizard_state("1")
    forms += '<form method="post" action="/wizard-safe"><input type="hidden" name="state" value="%s">' \
             '<input type="hidden" name="sig" value="%s"><input type="submit" value="Start"></form>' % (state, sign(state))
    return page("Labs", "<ul>%s</ul>%s" % ("".join('<li><a href="%s">%s</a></li>' % (html.escape(h), html.escape(h))
                                                   for h in links), forms))


def openapi():
    def post(path):
        return {"post": {"requestBody": {"content": {"application/json": {"schema": {
            "type": "object", "properties": {"text": {"type": "string", "example": "nice"}}}}}},
            "responses": {"200": {"description": "ok"}}}}
    def get(name):
        return {"get": {"parameters": [{"name": name, "in": "query", "required": True, "schema": {"type": "string"}}],
                        "responses": {"200": {"description": "ok"}}}}
    add = {"post": {"requestBody": {"content": {"application/json": {"schema": {
        "type": "object", "properties": {"owner": {"type": "string"}, "text": {"type": "string"}}}}}},
        "responses": {"200": {"description": "ok"}}}}
    document = {"openapi": "3.0.0", "info": {"title": "LabApp", "version": "1"},
                "paths": {"/api/comments": post("/api/comments"), "/api/comments-safe": post("/api/comments-safe"),
                          "/notes": get("owner"), "/notes-safe": get("owner"), "/api/notes": add}}
    return 200, "application/json", json.dumps(document)


class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def reply(self, answer):
        status, ctype, body = answer
        data = body.encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        query = {k: v[0] for k, v in urllib.parse.parse_qs(url.query, keep_blank_values=True).items()}
        path = url.path
        safe = "-safe" in path
        base = path.replace("-safe", "")
        routes = {
            "/": lambda: home(), "/openapi.json": lambda: openapi(), "/item": lambda: item(query, safe),
            "/stock": lambda: stock(query, safe), "/comments": lambda: comments_page("safe" if safe else "raw"),
            "/profile.js": lambda: profile_js(query, safe), "/import": lambda: import_doc(query, safe),
            "/member": lambda: member(query, safe), "/people": lambda: people(query, safe),
            "/notes": lambda: notes(query, safe),
            # What the test asks: was the destructive mutation ever sent?
            "/graphql/deletes": lambda: (200, "application/json", json.dumps(GRAPHQL_DELETES)),
        }
        missing = "<p>Nothing at %s.</p>" % urllib.parse.unquote(path)  # VULNERABLE: the path unescaped
        self.reply(routes[base]() if base in routes else page("Not found", missing, 404))

    def do_POST(self):
        url = urllib.parse.urlsplit(self.path)
        length = min(int(self.headers.get("Content-Length") or 0), 1 << 16)
        raw = self.rfile.read(length).decode("utf-8", "replace")
        safe = "-safe" in url.path
        base = url.path.replace("-safe", "")
        if base == "/api/comments":
            try:
                text = str(json.loads(raw or "{}").get("text", ""))
            except (ValueError, AttributeError):
                return self.reply((400, "application/json", '{"error": "not JSON"}'))
            with LOCK:
                COMMENTS["safe" if safe else "raw"].append(text[:500])
            return self.reply((200, "application/json", '{"ok": true}'))
        if base == "/api/notes":
            try:
                sent = json.loads(raw or "{}")
                row = (str(sent.get("owner", ""))[:100], str(sent.get("text", ""))[:500])
            except (ValueError, AttributeError):
                return self.reply((400, "application/json", '{"error": "not JSON"}'))
            with LOCK:
                NOTES.execute("INSERT INTO notes VALUES (?, ?)", row)
            return self.reply((200, "application/json", '{"ok": true}'))
        form = {k: v[0] for k, v in urllib.parse.parse_qs(raw, keep_blank_values=True).items()}
        if base == "/card":
            return self.reply(card(form, safe))
        if url.path == "/graphql":
            return self.reply(graphql(raw))
        if base == "/signin":
            return self.reply(signin(form, safe))
        if base == "/wizard":
            return self.reply(wizard(form, safe, url.path))
        self.reply(page("Not found", "<p>Nothing here.</p>", 404))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--port-file")
    args = parser.parse_args()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    if args.port_file:
        with open(args.port_file + ".tmp", "w") as f:
            f.write(str(server.server_address[1]))
        os.replace(args.port_file + ".tmp", args.port_file)
    server.serve_forever()


if __name__ == "__main__":
    main()
