#!/usr/bin/env python3
"""FidelityApp: a DELIBERATELY VULNERABLE web application for how values travel and how often one
fact is reported (issue 59). Never deploy it. It binds 127.0.0.1 only and keeps all state in memory.

  GET  /item?id=2            VULNERABLE blind SQL, numeric, boolean, in a hand-written handler that
                             decodes only %XX (urllib.parse.unquote, not unquote_plus): a '+' stays a
                             plus sign, so a probe whose spaces are '+' breaks its own SQL
                                                                  twin: /item-safe
  GET  /token?t=%80%04...    a link whose value is bytes that are not UTF-8: 200 only when they come
                             back exactly as linked, else 400 (no finding expected either way)
  GET  /app/<anything>       one page under any path, with relative links (static/js/, a.html): each
                             hop resolves one level deeper, the same page again (a crawl loop)
  every answer               Access-Control-Allow-Origin echoing the request's Origin, with credentials
                             (one application-wide fact)
  GET  /<anything else>      a 404 page saying "You're seeing this error because you have DEBUG = True"
                             (one application-wide fact, on every path a scanner probes)
  GET  /widget.js?cb=render  VULNERABLE JSONP served as text/plain without nosniff: a page's
                             <script src> runs it all the same       twin: /widget-safe.js (nosniff)
  GET  /guestbook?comment=hi VULNERABLE stored XSS written by a GET: the comment is kept and shown
                             raw on /guestbook/entries             twin: /guestbook-safe (escaped)
  POST /login                VULNERABLE SQL in a sign-in form that shows the database error and the
                             query it ran, both HTML-escaped as a template prints them (near &quot;y&quot;)
                                                                  twin: /login-safe
  GET  /calc?expr=1+1        VULNERABLE blind eval: the expression is evaluated and its result thrown
                             away ("queued"; a bare 500 on an error)   twin: /calc-safe (ast.literal_eval)
  GET  /seen                 what the application received: {"tokens": [...], "app_paths": [...]}

Usage: python3 fidelityapp.py [--port 0] [--port-file FILE]
Python 3.11 standard library only.
"""

import argparse
import ast
import html
import http.server
import json
import os
import sqlite3
import threading
import urllib.parse

TOKEN = bytes([0x80, 0x04, 0x95, 0x4B, 0x2B, 0x20, 0x41])
LOCK = threading.Lock()
SEEN = {"tokens": [], "app_paths": []}
GUESTBOOK = {"raw": [], "safe": []}
DEBUG_NOTE = "<p>You're seeing this error because you have DEBUG = True in your settings file.</p>"


def page(title, body, status=200):
    return status, "text/html; charset=utf-8", (
        "<!doctype html><html><head><title>%s</title></head><body><h1>%s</h1>%s</body></html>" % (title, title, body))


def percent_only(query):
    """name -> value, decoding %XX and nothing else (a '+' is a plus sign)."""
    pairs = {}
    for piece in query.split("&"):
        if not piece:
            continue
        name, _, value = piece.partition("=")
        pairs.setdefault(urllib.parse.unquote(name), urllib.parse.unquote(value))
    return pairs


def item(raw_query, safe):
    value = percent_only(raw_query).get("id", "2")
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT)")
    conn.executemany("INSERT INTO items VALUES (?, ?)", [(1, "anvil"), (2, "rope"), (3, "lamp")])
    try:
        row = (conn.execute("SELECT name FROM items WHERE id = ?", (value,)) if safe
               else conn.execute("SELECT name FROM items WHERE id = " + value)).fetchone()  # VULNERABLE unless safe
    except sqlite3.Error:
        return 500, "text/plain", "Internal Server Error"
    return page("Item", "<p>%s</p>" % (("Item: " + html.escape(row[0])) if row else "No such item"))


def token(raw_query):
    raw = raw_query.partition("t=")[2].partition("&")[0]
    sent = urllib.parse.unquote_to_bytes(raw)
    with LOCK:
        SEEN["tokens"].append(sent.hex())
    if sent != TOKEN:
        return 400, "text/plain", "bad token"
    return page("Token", "<p>Token accepted.</p>")


def app_page(path):
    with LOCK:
        if len(SEEN["app_paths"]) < 1000:
            SEEN["app_paths"].append(path)
    return page("App", '<p>The app.</p><a href="static/js/">scripts</a> <a href="a.html">a</a>')


def widget(raw_query, safe):
    callback = percent_only(raw_query).get("cb", "render")
    headers = {"X-Content-Type-Options": "nosniff"} if safe else {}
    return 200, "text/plain", callback + '({"count": 3});', headers  # VULNERABLE unless nosniff


def guestbook(raw_query, safe):
    comment = percent_only(raw_query).get("comment", "")
    with LOCK:
        entries = GUESTBOOK["safe" if safe else "raw"]
        if comment and len(entries) < 500:
            entries.append(comment[:300])
    return page("Guestbook", "<p>Thank you.</p>")


def guestbook_entries(safe):
    with LOCK:
        shown = list(GUESTBOOK["safe" if safe else "raw"][-50:])
    render = html.escape if safe else (lambda t: t)  # VULNERABLE unless safe
    return page("Entries", "<ul>%s</ul>" % "".join("<li>%s</li>" % render(t) for t in shown))


def login_form(action):
    return ('<form method="post" action="%s"><input name="username" value="alice">'
            '<input type="password" name="password" value="secret"><button>Sign in</button></form>' % action)


def login(form, safe):
    user, password = form.get("username", ""), form.get("password", "")
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE TABLE users (username TEXT, password TEXT)")
    conn.execute("INSERT INTO users VALUES ('alice', 'wonderland')")
    query = "SELECT username FROM users WHERE username = '%s' AND password = '%s'" % (user, password)
    try:
        row = (conn.execute("SELECT username FROM users WHERE username = ? AND password = ?", (user, password)) if safe
               else conn.execute(query)).fetchone()  # VULNERABLE unless safe
    except sqlite3.Error as e:
        return page("Sign in", "<p>Error: %s</p><pre>%s</pre>%s%s" % (html.escape(str(e)), html.escape(query),
                                                                        login_form("/login"), DEBUG_NOTE), 500)
    message = "Welcome" if row else "Invalid credentials"
    return page("Sign in", "<p>%s</p>%s" % (message, login_form("/login-safe" if safe else "/login")))


def calc(raw_query, safe):
    expr = percent_only(raw_query).get("expr", "1")
    try:
        (ast.literal_eval if safe else eval)(expr[:200])  # VULNERABLE unless safe
    except Exception:
        return 500, "text/plain", "Internal Server Error"
    return page("Calculator", "<p>Your calculation is queued.</p>")


def home():
    t = urllib.parse.quote_from_bytes(TOKEN, safe="")
    links = ['<a href="/item?id=2">item</a>', '<a href="/item-safe?id=2">safe item</a>',
             '<a href="/token?t=%s">token</a>' % t, '<a href="/app/">app</a>',
             '<a href="/guestbook?comment=hi">sign</a>', '<a href="/guestbook/entries">entries</a>',
             '<a href="/guestbook-safe?comment=hi">sign safely</a>', '<a href="/guestbook-safe/entries">safe entries</a>',
             '<a href="/calc?expr=1">calc</a>', '<a href="/calc-safe?expr=1">safe calc</a>',
             '<a href="/login">sign in</a>', '<a href="/login-safe">sign in safely</a>',
             '<script src="/widget.js?cb=render"></script>', '<script src="/widget-safe.js?cb=render"></script>']
    return page("FidelityApp", "<ul>%s</ul>" % "".join("<li>%s</li>" % link for link in links))


class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def reply(self, answer):
        status, ctype, body = answer[:3]
        data = body.encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        for name, value in (answer[3] if len(answer) > 3 else {}).items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(data)))
        origin = self.headers.get("Origin")
        if origin:  # VULNERABLE: any origin, with credentials, application-wide
            self.send_header("Access-Control-Allow-Origin", origin)
            self.send_header("Access-Control-Allow-Credentials", "true")
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        path, _, raw_query = self.path.partition("?")
        if path == "/":
            return self.reply(home())
        if path in ("/item", "/item-safe"):
            return self.reply(item(raw_query, path.endswith("-safe")))
        if path in ("/widget.js", "/widget-safe.js"):
            return self.reply(widget(raw_query, path == "/widget-safe.js"))
        if path in ("/guestbook", "/guestbook-safe"):
            return self.reply(guestbook(raw_query, path.endswith("-safe")))
        if path in ("/guestbook/entries", "/guestbook-safe/entries"):
            return self.reply(guestbook_entries(path.startswith("/guestbook-safe")))
        if path == "/token":
            return self.reply(token(raw_query))
        if path.startswith("/app/"):
            return self.reply(app_page(path))
        if path in ("/login", "/login-safe"):
            return self.reply(page("Sign in", login_form(path)))
        if path in ("/calc", "/calc-safe"):
            return self.reply(calc(raw_query, path == "/calc-safe"))
        if path == "/seen":
            with LOCK:
                return self.reply((200, "application/json", json.dumps(SEEN)))
        return self.reply(page("Page not found", DEBUG_NOTE, 404))


    def do_POST(self):
        length = min(int(self.headers.get("Content-Length") or 0), 1 << 16)
        raw = self.rfile.read(length).decode("utf-8", "replace")
        form = percent_only(raw.replace("+", "%20"))
        if self.path in ("/login", "/login-safe"):
            return self.reply(login(form, self.path == "/login-safe"))
        return self.reply(page("Not found", "<p>Nothing here.</p>", 404))


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
