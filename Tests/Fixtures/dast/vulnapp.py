#!/usr/bin/env python3
"""VulnApp: a DELIBERATELY VULNERABLE web application, the target of Sentinel's DAST tests.

Never deploy it. It binds 127.0.0.1 only, keeps all state in memory (and a private temp dir it
removes on exit), and makes no network connection of its own: only /fetch and /xml fetch what a
request tells them to (that is the vulnerability), restricted to http:// with a 5 s timeout.

Every vulnerable endpoint has a SAFE TWIN under /safe/... that differs only in doing the right
thing. The truth manifest is expected.json beside this file; selftest.py proves it.

Usage: python3 vulnapp.py [--port 0] [--port-file FILE] [--verbose]
Python 3.11 standard library only.
"""

import argparse
import ast
import base64
import collections
import hashlib
import hmac
import html
import io
import json
import os
import pickle
import re
import secrets
import shlex
import shutil
import signal
import socketserver
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import urllib.error
import urllib.parse
import urllib.request
import xml.sax
import xml.sax.handler
import xml.sax.saxutils
import xml.sax.xmlreader
import zipfile
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

HERE = os.path.dirname(os.path.abspath(__file__))
SERVER_BANNER = "VulnApp/1.2.3 Python/3.11"
POWERED_BY = "VulnFramework 0.9"
BEARER_TOKEN = "sentinel-test-token"
MAX_BODY = 1 << 20
HUGE_SIZE = 100 * 1024 * 1024


# ---------------------------------------------------------------------------------------------
# Per-instance state (one process = one app instance)
# ---------------------------------------------------------------------------------------------


class State:
    def __init__(self, port, data_dir):
        self.port = port
        self.data_dir = data_dir
        self.files_dir = os.path.join(data_dir, "files")
        self.lock = threading.Lock()
        self.guestbook = collections.deque(maxlen=200)  # bounded: the scanner posts many payloads
        self.safe_guestbook = collections.deque(maxlen=200)
        self.sessions = collections.OrderedDict()  # token -> user name, bounded below
        self.hmac_key = secrets.token_bytes(32)  # signs the /safe/prefs cookie
        with open(os.path.join(HERE, "openapi.json"), "rb") as f:
            self.openapi = f.read()

    def new_session(self, user):
        token = secrets.token_hex(16)
        with self.lock:
            self.sessions[token] = user
            while len(self.sessions) > 1000:
                self.sessions.popitem(last=False)
        return token


APP = None  # set by main()


# ---------------------------------------------------------------------------------------------
# Request / response plumbing
# ---------------------------------------------------------------------------------------------


class Request:
    def __init__(self, handler, method, path, query, headers, body):
        self.handler = handler
        self.method = method
        self.path = path
        self.query = {k: v[0] for k, v in urllib.parse.parse_qs(query, keep_blank_values=True).items()}
        self.headers = headers
        self.body = body
        self.ctype = headers.get("Content-Type", "").split(";")[0].strip().lower()
        self.form = {}
        if self.ctype == "application/x-www-form-urlencoded":
            text = body.decode("utf-8", "replace")
            self.form = {k: v[0] for k, v in urllib.parse.parse_qs(text, keep_blank_values=True).items()}
        self.cookies = {}
        for part in headers.get("Cookie", "").split(";"):
            name, sep, value = part.strip().partition("=")
            if sep:
                self.cookies.setdefault(name, value)

    def arg(self, name, default=""):
        return self.query.get(name, default)

    def field(self, name, default=""):
        return self.form.get(name, default)

    def host(self):
        # For absolute URLs in robots/sitemap: the Host header if it names this server, so a
        # forged Host cannot poison them; otherwise 127.0.0.1:<port>.
        own = "127.0.0.1:%d" % APP.port
        host = self.headers.get("Host", "")
        return host if host in (own, "localhost:%d" % APP.port) else own


class Response:
    def __init__(self, body=b"", status=200, ctype="text/html; charset=utf-8", headers=(), raw_headers=()):
        self.body = body.encode("utf-8") if isinstance(body, str) else body
        self.status = status
        self.ctype = ctype
        self.headers = list(headers)  # sanitised before sending
        self.raw_headers = list(raw_headers)  # sent verbatim: only the CRLF-injection endpoint uses it


def esc(value):
    return html.escape(str(value), quote=True)


def esc_text(value):
    # Element content only: <, > and & escaped, quotes left readable (error messages, file text).
    return html.escape(str(value), quote=False)


def header_value(value):
    # Header values are sanitised centrally so only /lang is header-injectable.
    value = re.sub(r"[\r\n]", "", str(value))
    return value.encode("latin-1", "replace").decode("latin-1")


def location(url):
    # Percent-encode what may not appear raw in a Location header (CR/LF, spaces, non-ASCII).
    return urllib.parse.quote(url, safe="/:?#[]@!$&'()*+,;=%~-._")


def page(title, body, status=200, headers=(), powered=False, head=""):
    doc = (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>%s - VulnApp</title>%s"
        "<link rel=\"stylesheet\" href=\"/static/style.css\"></head>\n<body>\n"
        "<nav><a href=\"/\">Home</a> | <a href=\"/about\">About</a></nav>\n<h1>%s</h1>\n%s\n"
        "<footer><p>VulnApp 1.2.3</p></footer>\n</body></html>\n"
    ) % (esc(title), head, esc(title), body)
    headers = list(headers)
    if powered:
        headers.append(("X-Powered-By", POWERED_BY))
    return Response(doc, status, headers=headers)


def text(body, status=200, ctype="text/plain; charset=utf-8", headers=()):
    return Response(body, status, ctype, headers)


def not_found(req=None):
    return page("Not Found", "<p>The requested page was not found.</p>", 404)


def redirect(url, status=302, headers=()):
    return Response("", status, headers=[("Location", location(url))] + list(headers))


def field_html(f):
    """One form control from a tuple (type, name, default[, options])."""
    kind, name, default = f[0], f[1], f[2]
    if kind == "select":
        opts = "".join(
            "<option value=\"%s\"%s>%s</option>" % (esc(o), " selected" if o == default else "", esc(o)) for o in f[3]
        )
        return "<label>%s <select name=\"%s\">%s</select></label>" % (esc(name), esc(name), opts)
    if kind == "textarea":
        return "<label>%s <textarea name=\"%s\">%s</textarea></label>" % (esc(name), esc(name), esc(default))
    if kind == "checkbox":
        return "<label><input type=\"checkbox\" name=\"%s\" value=\"%s\" checked> %s</label>" % (
            esc(name), esc(default), esc(name))
    if kind == "hidden":
        return "<input type=\"hidden\" name=\"%s\" value=\"%s\">" % (esc(name), esc(default))
    return "<label>%s <input type=\"%s\" name=\"%s\" value=\"%s\"></label>" % (esc(name), kind, esc(name), esc(default))


def form_html(action, method, fields, submit="Submit"):
    return "<form action=\"%s\" method=\"%s\">\n%s\n<input type=\"submit\" value=\"%s\">\n</form>" % (
        esc(action), method, "\n".join(field_html(f) for f in fields), esc(submit))


# ---------------------------------------------------------------------------------------------
# Home page, discovery files, static content
# ---------------------------------------------------------------------------------------------

# (label, vulnerable URL, safe twin URL): plain links on the home page.
HOME_LINKS = [
    ("Search (reflected XSS, HTML body)", "/xss/reflect?q=hello", "/safe/xss/reflect?q=hello"),
    ("Profile name (XSS, quoted attribute)", "/xss/attr?name=guest", "/safe/xss/attr?name=guest"),
    ("Badge colour (XSS, unquoted attribute)", "/xss/attr-unquoted?color=blue", "/safe/xss/attr-unquoted?color=blue"),
    ("Welcome script (XSS, JavaScript string)", "/xss/js?name=guest", "/safe/xss/js?name=guest"),
    ("Contact form (XSS via POST field)", "/xss/post", "/safe/xss/post"),
    ("Guestbook (stored XSS)", "/guestbook", "/safe/guestbook"),
    ("Product details (SQL, numeric)", "/products?id=1", "/safe/products?id=1"),
    ("User directory (SQL, string)", "/users?name=alice", "/safe/users?name=alice"),
    ("Download a report (file read)", "/files?name=report.txt", "/safe/files?name=report.txt"),
    ("Greeting card (templates)", "/greet?name=guest", "/safe/greet?name=guest"),
    ("Continue to the about page (redirect)", "/redirect?next=/about", "/safe/redirect?next=/about"),
    ("Preview a URL (fetch)", None, None),  # filled in with the port by home()
    ("XML order import", "/xml", "/safe/xml"),
    ("Language: English", "/lang?lang=en", "/safe/lang?lang=en"),
    ("Display preferences (cookie)", "/prefs", "/safe/prefs"),
    ("Item inspector", "/debug?item=1", "/safe/debug?item=1"),
]

CATEGORIES = ["books", "games", "music"]

# (title, vulnerable action, safe action, method, fields): forms on the home page.
HOME_FORMS = [
    ("Browse the catalog", "/catalog", "/safe/catalog", "get", [("select", "category", "books", CATEGORIES)]),
    ("Track an order", "/orders/track", "/safe/orders/track", "get",
     [("text", "ref", "A1001"), ("hidden", "source", "home")]),
    ("Network check", "/tools/ping", "/safe/tools/ping", "get",
     [("text", "host", "127.0.0.1"), ("number", "count", "1")]),
    ("Notify me", "/tools/notify", "/safe/tools/notify", "post",
     [("email", "email", "user@example.com"), ("select", "channel", "email", ["email", "sms"]),
      ("checkbox", "urgent", "yes"), ("textarea", "note", "Please call back")]),
    ("Calculator", "/calc", "/safe/calc", "get", [("text", "expr", "6*7")]),
    ("Feedback", "/xss/post", "/safe/xss/post", "post",
     [("text", "name", "Visitor"), ("email", "email", "visitor@example.com"), ("textarea", "message", "Nice site"),
      ("hidden", "source", "home"), ("checkbox", "subscribe", "yes")]),
]


def home(req):
    port = APP.port
    fetch_default = "http://127.0.0.1:%d/static/welcome.txt" % port
    rows = []
    for label, vuln, safe in HOME_LINKS:
        if vuln is None:
            q = urllib.parse.quote(fetch_default, safe="")
            vuln, safe = "/fetch?url=" + q, "/safe/fetch?url=" + q
        rows.append("<li>%s: <a href=\"%s\">try it</a> (<a href=\"%s\">safe version</a>)</li>" % (
            esc(label), esc(vuln), esc(safe)))
    forms = []
    for title, vuln, safe, method, fields in HOME_FORMS:
        forms.append("<h3>%s</h3>\n%s\n<h4>%s (safe version)</h4>\n%s" % (
            esc(title), form_html(vuln, method, fields), esc(title), form_html(safe, method, fields)))
    other_port = port + 1 if port < 65535 else port - 1
    body = """
<p>Welcome to VulnApp, a deliberately vulnerable test shop. Every feature has a safe version.</p>
<h2>Features</h2>
<ul>
%s
</ul>
<h2>Forms</h2>
%s
<h2>Account</h2>
<ul>
<li><a href="/login">Log in</a> (<a href="/safe/login">safe login</a>)</li>
<li><a href="/account">My account</a></li>
<li><a href="/logout">Log out</a></li>
<li><a href="/secure">Security headers demo</a></li>
<li><a href="/calendar?month=1">Events calendar</a></li>
<li><a href="/static/">Static files</a> &middot; <a href="/static/welcome.txt">welcome.txt</a></li>
<li><a href="/openapi.json">API documentation (OpenAPI)</a></li>
</ul>
<h2>Partners</h2>
<ul>
<li><a href="http://out-of-scope.invalid/page">Partner page</a></li>
<li><a href="https://example.com/">Example</a></li>
<li><a href="http://localhost:%d/">This site via localhost</a></li>
<li><a href="http://127.0.0.1:%d/">Staging</a></li>
<li><a href="/go?to=elsewhere">Visit our partner</a></li>
</ul>
<h3>Partner sign-in</h3>
%s
<script src="http://cdn.invalid/x.js"></script>
<script src="/static/app.js"></script>
""" % ("\n".join(rows), "\n".join(forms), port, other_port, form_html(
        "http://evil.invalid/submit", "post", [("text", "user", "alice"), ("password", "password", "")], "Sign in"))
    return page("VulnApp", body, powered=True,
                head="<link rel=\"service-desc\" type=\"application/openapi+json\" href=\"/openapi.json\">")


def about(req):
    return page("About", "<p>VulnApp is a test fixture. It is vulnerable on purpose.</p>", powered=True)


def robots(req):
    # /admin/ is discoverable only here (it leads to the LDAP endpoints); the sitemap too.
    return text("User-agent: *\nDisallow: /admin/\nDisallow: /logout\nSitemap: http://%s/sitemap.xml\n" % req.host())


def sitemap(req):
    base = "http://" + req.host()
    urls = [base + "/", base + "/about", base + "/xpath/lookup?name=alice", base + "/safe/xpath/lookup?name=alice",
            "http://out-of-scope.invalid/from-sitemap"]
    body = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
    body += "".join("  <url><loc>%s</loc></url>\n" % xml.sax.saxutils.escape(u) for u in urls) + "</urlset>\n"
    return text(body, ctype="application/xml")


def openapi(req):
    return text(APP.openapi, ctype="application/json")


def admin(req):
    # Reachable only through robots.txt's Disallow line.
    return page("Admin tools", """
<p>Internal directory tools.</p>
<ul>
<li><a href="/ldap/search?user=alice">Directory search</a></li>
<li><a href="/safe/ldap/search?user=alice">Directory search (safe version)</a></li>
</ul>""")


STATIC = {
    "style.css": ("text/css", "body { font-family: sans-serif; margin: 2em; }\nnav { margin-bottom: 1em; }\n"),
    "app.js": ("application/javascript", "document.documentElement.dataset.app = 'vulnapp';\n"),
    "welcome.txt": ("text/plain; charset=utf-8", "Welcome to VulnApp! This text is served from /static/.\n"),
    "terms.txt": ("text/plain; charset=utf-8", "Terms of service: this application is a test fixture.\n"),
}


def static_index(req):
    # Directory listing (CWE-548), in the style of Apache / http.server.
    items = "".join("<li><a href=\"%s\">%s</a></li>\n" % (esc(n), esc(n)) for n in sorted(STATIC))
    return Response("<!DOCTYPE html>\n<html><head><title>Index of /static/</title></head><body>\n"
                    "<h1>Index of /static/</h1>\n<hr>\n<ul>\n<li><a href=\"../\">../</a></li>\n%s</ul>\n<hr>\n"
                    "</body></html>\n" % items)


def static_file(req):
    name = req.path[len("/static/"):]
    if name not in STATIC:
        return not_found()
    ctype, body = STATIC[name]
    return text(body, ctype=ctype)


def static_redirect(req):
    return redirect("/static/", 301)


# ---------------------------------------------------------------------------------------------
# 1-3, 6. Reflected XSS
# ---------------------------------------------------------------------------------------------


def search_page(action, q, shown):
    return page("Search", "%s\n<p>You searched for: %s</p>\n<p>No products matched.</p>" % (
        form_html(action, "get", [("text", "q", q)], "Search"), shown))


def xss_reflect(req):
    q = req.arg("q", "hello")
    return search_page("/xss/reflect", q, q)  # VULNERABLE: raw in the HTML body


def safe_xss_reflect(req):
    q = req.arg("q", "hello")
    return search_page("/safe/xss/reflect", q, esc(q))


def profile_page(value_attr):
    return page("Profile", "<form action=\"\" method=\"get\"><label>Display name "
                "<input type=\"text\" name=\"name\" value=\"%s\"></label>"
                "<input type=\"submit\" value=\"Save\"></form>" % value_attr)


def xss_attr(req):
    return profile_page(req.arg("name", "guest"))  # VULNERABLE: raw inside value="..."


def safe_xss_attr(req):
    return profile_page(esc(req.arg("name", "guest")))


def badge_page(action, color, class_attr):
    return page("Badge", "<p><span class=%s>Your badge</span></p>\n%s" % (
        class_attr, form_html(action, "get", [("text", "color", color)], "Change colour")))


def xss_attr_unquoted(req):
    color = req.arg("color", "blue")
    return badge_page("/xss/attr-unquoted", color, color)  # VULNERABLE: raw, unquoted attribute


def safe_xss_attr_unquoted(req):
    color = req.arg("color", "blue")
    return badge_page("/safe/xss/attr-unquoted", color, "\"%s\"" % esc(color))  # quoted and escaped


def js_page(literal):
    return page("Welcome", "<p id=\"greeting\"></p>\n<script>\nvar q = '%s';\n"
                "document.getElementById('greeting').textContent = 'Welcome, ' + q;\n</script>" % literal)


def xss_js(req):
    return js_page(req.arg("name", "guest"))  # VULNERABLE: raw inside a JS string


def js_string_escape(s):
    # JSON escaping plus the characters that can end the string or the <script> element.
    inner = json.dumps(s)[1:-1]
    for ch, rep in (("'", "\\u0027"), ("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026")):
        inner = inner.replace(ch, rep)
    return inner


def safe_xss_js(req):
    return js_page(js_string_escape(req.arg("name", "guest")))


CONTACT_FIELDS = [("text", "name", "Visitor"), ("email", "email", "visitor@example.com"),
                  ("textarea", "message", "Nice site"), ("hidden", "source", "contact"),
                  ("checkbox", "subscribe", "yes")]


def xss_post_form(req):
    return page("Contact", form_html("/xss/post", "post", CONTACT_FIELDS, "Send"))


def safe_xss_post_form(req):
    return page("Contact", form_html("/safe/xss/post", "post", CONTACT_FIELDS, "Send"))


def contact_thanks(name, message):
    return page("Contact", "<p>Thank you, %s. Your message:</p>\n<blockquote>%s</blockquote>" % (esc(name), message))


def xss_post(req):
    return contact_thanks(req.field("name", "Visitor"), req.field("message", "Nice site"))  # VULNERABLE


def safe_xss_post(req):
    return contact_thanks(req.field("name", "Visitor"), esc(req.field("message", "Nice site")))


def json_body(req):
    try:
        data = json.loads(req.body.decode("utf-8") or "{}")
    except (ValueError, UnicodeDecodeError):
        return None
    return data if isinstance(data, dict) else None


def echo_fragment(message):
    return Response("<div class=\"echo\"><p>%s</p></div>\n" % message)


def api_echo(req):
    data = json_body(req)
    if data is None:
        return text("{\"error\": \"expected a JSON object\"}", 400, "application/json")
    return echo_fragment(str(data.get("message", "")))  # VULNERABLE: JSON field into text/html


def safe_api_echo(req):
    data = json_body(req)
    if data is None:
        return text("{\"error\": \"expected a JSON object\"}", 400, "application/json")
    return echo_fragment(esc(data.get("message", "")))


# ---------------------------------------------------------------------------------------------
# 4. JSONP
# ---------------------------------------------------------------------------------------------

STATUS_JSON = json.dumps({"status": "ok", "user": "guest", "version": "1.2.3"})
CALLBACK_RE = re.compile(r"[A-Za-z_$][\w$]{0,63}", re.ASCII)


def api_jsonp(req):
    cb = req.arg("callback", "handleStatus")
    return text("%s(%s);\n" % (cb, STATUS_JSON), ctype="application/javascript")  # VULNERABLE: unvalidated


def safe_api_jsonp(req):
    cb = req.arg("callback", "handleStatus")
    if not CALLBACK_RE.fullmatch(cb):
        return text("{\"error\": \"invalid callback\"}", 400, "application/json")
    return text("%s(%s);\n" % (cb, STATUS_JSON), ctype="application/javascript")


# ---------------------------------------------------------------------------------------------
# 5. Stored XSS (guestbook, in memory, last 200 entries)
# ---------------------------------------------------------------------------------------------

GUESTBOOK_FIELDS = [("text", "name", "Visitor"), ("textarea", "comment", "Great shop!"), ("hidden", "lang", "en")]


def guestbook_page(action, entries, render_comment):
    with APP.lock:
        items = list(entries)
    shown = "".join("<li><b>%s</b>: %s</li>\n" % (esc(n), render_comment(c)) for n, c in items)
    return page("Guestbook", "<ul class=\"entries\">\n%s</ul>\n<h2>Sign the guestbook</h2>\n%s" % (
        shown or "<li>No entries yet.</li>", form_html(action, "post", GUESTBOOK_FIELDS, "Sign")))


def guestbook(req):
    return guestbook_page("/guestbook", APP.guestbook, lambda c: c)  # VULNERABLE: stored comment raw


def safe_guestbook(req):
    return guestbook_page("/safe/guestbook", APP.safe_guestbook, esc)


def guestbook_post(req):
    with APP.lock:
        APP.guestbook.append((req.field("name", "Visitor"), req.field("comment", "")))
    return redirect("/guestbook", 303)  # post/redirect/get: the payload shows up on GET /guestbook


def safe_guestbook_post(req):
    with APP.lock:
        APP.safe_guestbook.append((req.field("name", "Visitor"), req.field("comment", "")))
    return redirect("/safe/guestbook", 303)


# ---------------------------------------------------------------------------------------------
# 7-9. SQL injection (a fresh in-memory sqlite database per request: no locking, no shared state)
# ---------------------------------------------------------------------------------------------

SCHEMA = """
CREATE TABLE products (id INTEGER PRIMARY KEY, name TEXT, category TEXT, price REAL);
INSERT INTO products VALUES (1, 'Desk lamp', 'home', 19.99), (2, 'Paperback novel', 'books', 7.5),
  (3, 'Cookbook', 'books', 24.0), (4, 'Board game', 'games', 35.0), (5, 'Vinyl record', 'music', 22.0);
CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT, email TEXT, role TEXT);
INSERT INTO users VALUES (1, 'alice', 'alice@example.com', 'admin'), (2, 'bob', 'bob@example.com', 'user'),
  (3, 'carol', 'carol@example.com', 'user');
CREATE TABLE orders (ref TEXT PRIMARY KEY, status TEXT);
INSERT INTO orders VALUES ('A1001', 'shipped'), ('A1002', 'processing'), ('A1003', 'delivered');
"""


def sql_sleep(seconds):
    # MySQL-style SLEEP(n) so time-based payloads work on sqlite; capped at 10 s.
    try:
        seconds = float(seconds)
    except (TypeError, ValueError):
        return 0
    time.sleep(max(0.0, min(seconds, 10.0)))
    return 0


def db(with_sleep=False):
    conn = sqlite3.connect(":memory:")
    conn.executescript(SCHEMA)
    if with_sleep:
        conn.create_function("SLEEP", 1, sql_sleep)
    return conn


def catalog_page(action, category, rows):
    items = "".join("<li>%s - $%.2f</li>\n" % (esc(r[1]), r[2]) for r in rows)
    return page("Catalog", "%s\n<h2>Category: %s</h2>\n<ul>\n%s</ul>" % (
        form_html(action, "get", [("select", "category", category if category in CATEGORIES else "books",
                                   CATEGORIES)], "Browse"), esc(category), items or "<li>No products.</li>"))


def catalog(req):
    category = req.arg("category", "books")
    sql = "SELECT id, name, price FROM products WHERE category = '" + category + "' ORDER BY id"  # VULNERABLE
    try:
        rows = db().execute(sql).fetchall()
    except sqlite3.Error as e:
        # Error-based: the database error is shown to the user.
        return page("Database error", "<p>Query failed.</p>\n<pre>sqlite3.%s: %s\nQuery: %s</pre>" % (
            type(e).__name__, esc_text(e), esc_text(sql)), 500)
    return catalog_page("/catalog", category, rows)


def safe_catalog(req):
    category = req.arg("category", "books")
    try:
        rows = db().execute("SELECT id, name, price FROM products WHERE category = ? ORDER BY id",
                            (category,)).fetchall()
    except sqlite3.Error as e:
        return page("Database error", "<p>Query failed.</p>\n<pre>sqlite3.%s: %s</pre>" % (
            type(e).__name__, esc_text(e)), 500)
    return catalog_page("/safe/catalog", category, rows)


def product_page(rows):
    # The input is deliberately not echoed, so true/false conditions differ only by the result.
    if not rows:
        return page("Product", "<p>No results.</p>")
    return page("Product", "".join("<h2>%s</h2><p>Category: %s. Price: $%.2f</p>\n" % (
        esc(r[1]), esc(r[3]), r[2]) for r in rows))


def products(req):
    sql = "SELECT id, name, price, category FROM products WHERE id = " + req.arg("id", "1")  # VULNERABLE
    try:
        rows = db().execute(sql).fetchall()
    except sqlite3.Error:
        rows = []  # blind: errors look like "no results"
    return product_page(rows)


def safe_products(req):
    try:
        rows = db().execute("SELECT id, name, price, category FROM products WHERE id = ?",
                            (req.arg("id", "1"),)).fetchall()
    except sqlite3.Error:
        rows = []
    return product_page(rows)


def users_page(rows):
    if not rows:
        return page("Users", "<p>No results.</p>")
    return page("Users", "<table>\n%s</table>" % "".join(
        "<tr><td>%s</td><td>%s</td><td>%s</td></tr>\n" % (esc(a), esc(b), esc(c)) for a, b, c in rows))


def users(req):
    sql = "SELECT name, email, role FROM users WHERE name = '" + req.arg("name", "alice") + "'"  # VULNERABLE
    try:
        rows = db().execute(sql).fetchall()
    except sqlite3.Error:
        rows = []
    return users_page(rows)


def safe_users(req):
    try:
        rows = db().execute("SELECT name, email, role FROM users WHERE name = ?", (req.arg("name", "alice"),)).fetchall()
    except sqlite3.Error:
        rows = []
    return users_page(rows)


TRACK_FIELDS = [("text", "ref", "A1001"), ("hidden", "source", "track")]


def track_page(action):
    # Time-based blind: the page is the same whatever the query did.
    return page("Order tracking", "<p>Thank you. If the order exists, its status will be emailed to you.</p>\n%s" %
                form_html(action, "get", TRACK_FIELDS, "Track"))


def orders_track(req):
    sql = "SELECT status FROM orders WHERE ref = '" + req.arg("ref", "A1001") + "'"  # VULNERABLE
    try:
        db(with_sleep=True).execute(sql).fetchall()
    except sqlite3.Error:
        pass
    return track_page("/orders/track")


def safe_orders_track(req):
    try:
        db(with_sleep=True).execute("SELECT status FROM orders WHERE ref = ?", (req.arg("ref", "A1001"),)).fetchall()
    except sqlite3.Error:
        pass
    return track_page("/safe/orders/track")


# ---------------------------------------------------------------------------------------------
# 10-11. OS command injection (only `echo`; never a real network tool)
# ---------------------------------------------------------------------------------------------

HOST_RE = re.compile(r"[A-Za-z0-9.:-]{1,253}", re.ASCII)


def ping_page(action, host, output):
    return page("Network check", "%s\n<pre>%s</pre>" % (
        form_html(action, "get", [("text", "host", host), ("number", "count", "1")], "Check"), esc_text(output)))


def run_shell(command):
    try:
        # In the instance's own directory: an injected `>NAME` must not land in the caller's checkout.
        done = subprocess.run(["sh", "-c", command], capture_output=True, timeout=15, stdin=subprocess.DEVNULL,
                              cwd=APP.data_dir)
        return (done.stdout + done.stderr).decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        return "timed out"
    except ValueError:  # e.g. an embedded NUL byte
        return "invalid input"


def tools_ping(req):
    host = req.arg("host", "127.0.0.1")
    out = run_shell("echo PING " + host)  # VULNERABLE: input concatenated into a shell command
    return ping_page("/tools/ping", host, out + "1 packets transmitted, 1 received\n")


def safe_tools_ping(req):
    host = req.arg("host", "127.0.0.1")
    if not HOST_RE.fullmatch(host):
        return page("Network check", "<p>Invalid host name.</p>", 400)
    done = subprocess.run(["echo", "PING", host], capture_output=True, timeout=15, stdin=subprocess.DEVNULL)
    return ping_page("/safe/tools/ping", host, done.stdout.decode("utf-8", "replace") +
                     "1 packets transmitted, 1 received\n")


def notify_page(action):
    return page("Notify me", "<p>Thanks, we will notify you.</p>\n%s" % form_html(action, "post", HOME_FORMS[3][4]))


def tools_notify_form(req):
    return notify_page("/tools/notify")


def safe_tools_notify_form(req):
    return notify_page("/safe/tools/notify")


def tools_notify(req):
    # Blind: output discarded, the page never changes; only timing (e.g. `; sleep 2`) shows it.
    run_shell("echo " + req.field("email", "user@example.com") + " > /dev/null")  # VULNERABLE
    return notify_page("/tools/notify")


def safe_tools_notify(req):
    email = req.field("email", "user@example.com").replace("\x00", "")
    run_shell("echo " + shlex.quote(email) + " > /dev/null")
    return notify_page("/safe/tools/notify")


# ---------------------------------------------------------------------------------------------
# 12. Path traversal
# ---------------------------------------------------------------------------------------------

REPORT_FILES = {
    "report.txt": "Quarterly report\nRevenue: 120k\nCosts: 80k\n",
    "summary.txt": "Summary: all systems nominal.\n",
    "q1.csv": "month,revenue\njan,40\nfeb,38\nmar,42\n",
}


def file_page(name, content):
    return page("Report", "<p>File: %s</p>\n<pre>%s</pre>" % (esc(name), esc_text(content)))


def read_limited(path):
    with open(path, "rb") as f:
        return f.read(MAX_BODY).decode("utf-8", "replace")


def files(req):
    name = req.arg("name", "report.txt")
    path = os.path.join(APP.files_dir, name)  # VULNERABLE: no check, ../ and absolute paths escape
    try:
        return file_page(name, read_limited(path))
    except (OSError, ValueError):
        return page("Report", "<p>File not found.</p>", 404)


def safe_files(req):
    name = req.arg("name", "report.txt").replace("\x00", "")
    root = os.path.realpath(APP.files_dir)
    path = os.path.realpath(os.path.join(root, os.path.basename(name)))
    if not path.startswith(root + os.sep):
        return page("Report", "<p>File not found.</p>", 404)
    try:
        return file_page(name, read_limited(path))
    except (OSError, ValueError):
        return page("Report", "<p>File not found.</p>", 404)


# ---------------------------------------------------------------------------------------------
# 13. Code evaluation
# ---------------------------------------------------------------------------------------------


def calc_page(action, expr, result):
    return page("Calculator", "%s\n<p>Result: <output>%s</output></p>" % (
        form_html(action, "get", [("text", "expr", expr)], "Compute"), esc(result)))


def calc(req):
    expr = req.arg("expr", "6*7")
    try:
        result = eval(expr)  # VULNERABLE: Python eval of user input
    except Exception as e:  # noqa: BLE001 - the error text is part of the page
        result = "error: %s" % type(e).__name__
    return calc_page("/calc", expr, result)


ARITH_OPS = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
             ast.Div: lambda a, b: a / b, ast.Mod: lambda a, b: a % b}


def arith(node):
    # Numbers and + - * / % only; anything else (names, calls, strings, **) is rejected.
    if isinstance(node, ast.Expression):
        return arith(node.body)
    if isinstance(node, ast.Constant) and type(node.value) in (int, float):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        v = arith(node.operand)
        return -v if isinstance(node.op, ast.USub) else v
    if isinstance(node, ast.BinOp) and type(node.op) in ARITH_OPS:
        return ARITH_OPS[type(node.op)](arith(node.left), arith(node.right))
    raise ValueError("only numbers and + - * / % are allowed")


def safe_calc(req):
    expr = req.arg("expr", "6*7")
    try:
        if len(expr) > 200:
            raise ValueError("expression too long")
        result = arith(ast.parse(expr, mode="eval"))
    except (SyntaxError, ValueError, ZeroDivisionError, OverflowError) as e:
        result = "error: %s" % e
    return calc_page("/safe/calc", expr, result)


# ---------------------------------------------------------------------------------------------
# 14. Server-side template injection (a tiny engine: {{ expr }} is a Python expression)
# ---------------------------------------------------------------------------------------------

TEMPLATE_RE = re.compile(r"\{\{(.*?)\}\}", re.S)


def render_template(template, context):
    return TEMPLATE_RE.sub(lambda m: str(eval(m.group(1).strip(), {}, dict(context))), template)


def greet_page(action, name, greeting):
    return page("Greeting card", "%s\n<div class=\"card\"><p>%s</p></div>" % (
        form_html(action, "get", [("text", "name", name)], "Make card"), esc(greeting)))


def greet(req):
    name = req.arg("name", "guest")
    try:
        # VULNERABLE: the input becomes part of the template source.
        greeting = render_template("Hello " + name + ", welcome to {{ site }}!", {"site": "VulnApp"})
    except Exception as e:  # noqa: BLE001
        return page("Template error", "<pre>TemplateError: %s</pre>" % esc(e), 500)
    return greet_page("/greet", name, greeting)


def safe_greet(req):
    name = req.arg("name", "guest")
    # The input is data in the context; rendered values are not rendered again.
    greeting = render_template("Hello {{ name }}, welcome to {{ site }}!", {"site": "VulnApp", "name": name})
    return greet_page("/safe/greet", name, greeting)


# ---------------------------------------------------------------------------------------------
# 15. Open redirect (and the out-of-scope /go redirect)
# ---------------------------------------------------------------------------------------------


def open_redirect(req):
    return redirect(req.arg("next", "/about"))  # VULNERABLE: any URL


def safe_redirect(req):
    nxt = req.arg("next", "/about")
    # Only a local path: one leading "/", not "//" or "/\" (browsers treat both as another host).
    if not nxt.startswith("/") or nxt[1:2] in ("/", "\\") or re.search(r"[\x00-\x1f]", nxt):
        nxt = "/"
    return redirect(nxt)


def go(req):
    return redirect("http://out-of-scope.invalid/landing")  # out of scope: a scanner must not follow


# ---------------------------------------------------------------------------------------------
# 16. SSRF (echoing)
# ---------------------------------------------------------------------------------------------

# No proxies from the environment: a fetch goes exactly where the URL says.
OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def http_get(url):
    # Only http://, 5 s timeout, first 256 KiB.
    if not url.lower().startswith("http://"):
        raise ValueError("only http:// URLs are supported")
    with OPENER.open(url, timeout=5) as r:
        return r.status, r.read(256 * 1024)


def fetch_page(action, url, body_html, status=200):
    return page("URL preview", "%s\n%s" % (form_html(action, "get", [("text", "url", url)], "Preview"), body_html),
                status)


def do_fetch(action, url):
    try:
        status, body = http_get(url)
    except urllib.error.HTTPError as e:
        return fetch_page(action, url, "<p>Upstream answered HTTP %d.</p>" % e.code, 502)
    except Exception as e:  # noqa: BLE001 - bad URLs, refused connections, protocol errors
        return fetch_page(action, url, "<p>Could not fetch: %s</p>" % esc(e), 502)
    return fetch_page(action, url, "<p>Status %d</p>\n<pre>%s</pre>" % (status, esc_text(body.decode("utf-8", "replace"))))


def fetch(req):
    url = req.arg("url", "http://127.0.0.1:%d/static/welcome.txt" % APP.port)
    return do_fetch("/fetch", url)  # VULNERABLE: fetches any http:// URL


def safe_fetch(req):
    url = req.arg("url", "http://127.0.0.1:%d/static/welcome.txt" % APP.port)
    allowed = {"http://127.0.0.1:%d/static/%s" % (APP.port, n) for n in STATIC}  # exact URLs only
    if url not in allowed:
        return fetch_page("/safe/fetch", url, "<p>That URL is not on the allow-list.</p>", 400)
    return do_fetch("/safe/fetch", url)


# ---------------------------------------------------------------------------------------------
# 17. XXE (xml.sax with external general entities)
# ---------------------------------------------------------------------------------------------


class EntityFetcher(xml.sax.handler.EntityResolver):
    """Resolves external entities: file:// from disk, http:// with the 5 s rule; nothing else."""

    def resolveEntity(self, publicId, systemId):
        sid = systemId or ""
        if sid.lower().startswith("file://"):
            data = open(urllib.request.url2pathname(urllib.parse.urlparse(sid).path), "rb").read(MAX_BODY)
        elif sid.lower().startswith("http://"):
            data = http_get(sid)[1]
        else:
            raise ValueError("unsupported entity URL")
        src = xml.sax.xmlreader.InputSource(sid)
        src.setByteStream(io.BytesIO(data))
        return src


class TextCollector(xml.sax.handler.ContentHandler):
    def __init__(self):
        super().__init__()
        self.parts = []

    def characters(self, content):
        self.parts.append(content)


def xml_info(req, action):
    example = "<?xml version=\"1.0\"?><order><item>book</item><quantity>1</quantity></order>"
    return page("XML order import", """
<p>POST an XML order to <code>%s</code> with <code>Content-Type: application/xml</code>; the server
echoes the text it parsed. Example body:</p>
<pre>%s</pre>
<p>Or paste it here:</p>
%s""" % (esc(action), esc(example), form_html(action, "post", [("textarea", "xml", example)], "Import")))


def xml_get(req):
    return xml_info(req, "/xml")


def safe_xml_get(req):
    return xml_info(req, "/safe/xml")


def parse_order(req, external_entities):
    raw = req.field("xml").encode("utf-8") if req.ctype == "application/x-www-form-urlencoded" else req.body
    parser = xml.sax.make_parser()
    parser.setFeature(xml.sax.handler.feature_external_ges, external_entities)
    parser.setFeature(xml.sax.handler.feature_external_pes, False)
    collector = TextCollector()
    parser.setContentHandler(collector)
    parser.setEntityResolver(EntityFetcher())
    try:
        parser.parse(io.BytesIO(raw))
    except Exception as e:  # noqa: BLE001 - malformed XML or an entity that could not be fetched
        return text("<error>%s</error>\n" % xml.sax.saxutils.escape(str(e)), 400, "application/xml")
    parsed = "".join(collector.parts)
    return text("<?xml version=\"1.0\"?>\n<result><status>received</status><parsed>%s</parsed></result>\n" %
                xml.sax.saxutils.escape(parsed), ctype="application/xml")


def xml_post(req):
    return parse_order(req, external_entities=True)  # VULNERABLE: external entities resolved and echoed


def safe_xml_post(req):
    return parse_order(req, external_entities=False)


# ---------------------------------------------------------------------------------------------
# 18. CRLF / header injection
# ---------------------------------------------------------------------------------------------


def lang_page(lang):
    return page("Language", "<p>Language preference saved: %s</p>" % esc(lang))


def lang(req):
    value = req.arg("lang", "en")
    raw = value.encode("latin-1", "replace").decode("latin-1")
    # VULNERABLE: send_header() does not reject CR/LF, so %0d%0a starts a new header (or the body).
    return Response(lang_page(value).body, raw_headers=[("Set-Cookie", "lang=" + raw + "; Path=/")])


def safe_lang(req):
    value = req.arg("lang", "en")
    if "\r" in value or "\n" in value or not re.fullmatch(r"[A-Za-z-]{1,16}", value):
        return page("Language", "<p>Invalid language.</p>", 400)
    return Response(lang_page(value).body, headers=[("Set-Cookie", "lang=" + value + "; Path=/")])


# ---------------------------------------------------------------------------------------------
# 19. XPath injection: a small real XPath 1.0 subset (paths, predicates, =, !=, and, or, functions)
# ---------------------------------------------------------------------------------------------

XPATH_USERS = [
    {"name": "alice", "password": "wonderland", "email": "alice@example.com", "status": "active"},
    {"name": "bob", "password": "builder", "email": "bob@example.com", "status": "active"},
    {"name": "carol", "password": "singer", "email": "carol@example.com", "status": "inactive"},
    {"name": "mallory", "password": "hunter2", "email": "mallory@example.com", "status": "locked"},
]


class XPathEvalError(Exception):
    pass


XPATH_TOKEN = re.compile(r"\s*(?:(//|/|\[|\]|\(|\)|!=|=|,|@)|('[^']*'|\"[^\"]*\")|(\d+(?:\.\d+)?)|"
                         r"([A-Za-z_][\w.-]*)|(\S))")


def xpath_tokens(expr):
    pos, out = 0, []
    while pos < len(expr):
        m = XPATH_TOKEN.match(expr, pos)
        if not m or m.end() == pos:
            break
        pos = m.end()
        op, lit, num, name, bad = m.groups()
        if bad is not None:  # e.g. an unterminated quote
            raise XPathEvalError("Invalid predicate" if "[" in expr[:m.start()] else "Invalid expression")
        out.append(("op", op) if op else ("str", lit[1:-1]) if lit else ("num", float(num)) if num else ("name", name))
    return out


class XPathParser:
    """Recursive descent: path := '//' NAME ['[' or ']']; or := and ('or' and)*; and := eq ('and' eq)*;
    eq := primary (('='|'!=') primary)*; primary := literal | number | '(' or ')' | func(args) | relpath."""

    def __init__(self, expr):
        self.toks = xpath_tokens(expr)
        self.i = 0

    def peek(self, kind=None, value=None):
        if self.i >= len(self.toks):
            return False
        k, v = self.toks[self.i]
        return (kind is None or k == kind) and (value is None or v == value)

    def take(self, kind, value=None, error="Invalid predicate"):
        if not self.peek(kind, value):
            raise XPathEvalError(error)
        self.i += 1
        return self.toks[self.i - 1][1]

    def parse(self):
        self.take("op", "//", "Invalid expression")
        element = self.take("name", error="Invalid expression")
        pred = None
        if self.peek("op", "["):
            self.i += 1
            pred = self.parse_or()
            self.take("op", "]")
        if self.i != len(self.toks):
            raise XPathEvalError("Invalid expression")
        return element, pred

    def parse_or(self):
        node = self.parse_and()
        while self.peek("name", "or"):
            self.i += 1
            node = ("or", node, self.parse_and())
        return node

    def parse_and(self):
        node = self.parse_eq()
        while self.peek("name", "and"):
            self.i += 1
            node = ("and", node, self.parse_eq())
        return node

    def parse_eq(self):
        node = self.parse_primary()
        while self.peek("op", "=") or self.peek("op", "!="):
            op = self.take("op")
            node = (op, node, self.parse_primary())
        return node

    def parse_primary(self):
        if self.peek("str") or self.peek("num"):
            kind, value = self.toks[self.i]
            self.i += 1
            return (kind, value)
        if self.peek("op", "("):
            self.i += 1
            node = self.parse_or()
            self.take("op", ")")
            return node
        if self.peek("name") and self.i + 1 < len(self.toks) and self.toks[self.i + 1] == ("op", "(") \
                and self.toks[self.i][1] != "text":
            fname = self.take("name")
            self.i += 1
            args = []
            if not self.peek("op", ")"):
                args.append(self.parse_or())
                while self.peek("op", ","):
                    self.i += 1
                    args.append(self.parse_or())
            self.take("op", ")")
            return ("call", fname, args)
        steps = [self.parse_step()]
        while self.peek("op", "/"):
            self.i += 1
            steps.append(self.parse_step())
        return ("path", steps)

    def parse_step(self):
        name = self.take("name")
        if name == "text" and self.peek("op", "("):
            self.i += 1
            self.take("op", ")")
            return "text()"
        return name


def xp_string(v):
    if isinstance(v, list):
        return v[0] if v else ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return str(int(v)) if v == int(v) else str(v)
    return v


def xp_number(v):
    try:
        return float(xp_string(v)) if not isinstance(v, (bool, float)) else float(v)
    except ValueError:
        return float("nan")


def xp_bool(v):
    if isinstance(v, list):
        return bool(v)
    if isinstance(v, float):
        return v != 0 and v == v
    return bool(v)


def xp_compare(a, b, op):
    eq = (lambda x, y: x == y) if op == "=" else (lambda x, y: x != y)
    if isinstance(a, list) or isinstance(b, list):  # node-set: true if any node compares true
        left = a if isinstance(a, list) else [a]
        right = b if isinstance(b, list) else [b]
        return any(xp_compare(x, y, op) for x in left for y in right)
    if isinstance(a, bool) or isinstance(b, bool):
        return eq(xp_bool(a), xp_bool(b))
    if isinstance(a, float) or isinstance(b, float):
        return eq(xp_number(a), xp_number(b))
    return eq(a, b)


XPATH_FUNCS = {
    "true": lambda: True, "false": lambda: False, "not": lambda x: not xp_bool(x),
    "string": lambda x: xp_string(x), "concat": lambda *xs: "".join(xp_string(x) for x in xs),
    "contains": lambda a, b: xp_string(b) in xp_string(a),
    "starts-with": lambda a, b: xp_string(a).startswith(xp_string(b)),
    "string-length": lambda x: float(len(xp_string(x))), "count": lambda x: float(len(x) if isinstance(x, list) else 0),
}


def xp_eval(node, element):
    kind = node[0]
    if kind in ("str", "num"):
        return node[1]
    if kind == "or":
        return xp_bool(xp_eval(node[1], element)) or xp_bool(xp_eval(node[2], element))
    if kind == "and":
        return xp_bool(xp_eval(node[1], element)) and xp_bool(xp_eval(node[2], element))
    if kind in ("=", "!="):
        return xp_compare(xp_eval(node[1], element), xp_eval(node[2], element), kind)
    if kind == "call":
        fn = XPATH_FUNCS.get(node[1])
        if fn is None:
            raise XPathEvalError("Unregistered function")
        try:
            return fn(*[xp_eval(a, element) for a in node[2]])
        except TypeError:
            raise XPathEvalError("Invalid number of arguments") from None
    # Relative path from a <user> element: child elements' text (string values).
    steps = [s for s in node[1] if s != "text()"]
    if len(steps) != 1:
        return []
    return [element[steps[0]]] if steps[0] in element else []


def xpath_select(expr):
    element, pred = XPathParser(expr).parse()
    nodes = XPATH_USERS if element == "user" else []
    return [n for n in nodes if pred is None or xp_bool(xp_eval(pred, n))]


def xpath_literal(s):
    # XPath 1.0 has no escape inside literals: pick the other quote, or concat() the pieces.
    if "'" not in s:
        return "'%s'" % s
    if '"' not in s:
        return '"%s"' % s
    return "concat(%s)" % ", \"'\", ".join("'%s'" % part for part in s.split("'"))


def lookup_page(action, name, expr):
    try:
        found = xpath_select(expr)
    except XPathEvalError as e:
        return page("User lookup", "<p>Lookup failed.</p>\n<pre>lxml.etree.XPathEvalError: %s</pre>" % esc(e), 500)
    rows = "".join("<tr><td>%s</td><td>%s</td><td>%s</td></tr>\n" % (esc(u["name"]), esc(u["email"]),
                                                                      esc(u["status"])) for u in found)
    return page("User lookup", "%s\n<p>%d user(s) found.</p>\n<table>\n%s</table>" % (
        form_html(action, "get", [("text", "name", name)], "Look up"), len(found), rows))


def xpath_lookup(req):
    name = req.arg("name", "alice")
    # VULNERABLE: the input is pasted into the XPath. The input is the LAST operand so that
    # `' or '1'='1` is a tautology under XPath precedence ("and" binds tighter than "or").
    return lookup_page("/xpath/lookup", name, "//user[status/text()='active' and name/text()='" + name + "']")


def safe_xpath_lookup(req):
    name = req.arg("name", "alice")
    return lookup_page("/safe/xpath/lookup", name,
                       "//user[status/text()='active' and name/text()=" + xpath_literal(name) + "]")


# ---------------------------------------------------------------------------------------------
# 20. LDAP injection: an RFC 4515 filter parser over an in-memory directory
# ---------------------------------------------------------------------------------------------

DIRECTORY = [
    {"uid": ["alice"], "cn": ["Alice Liddell"], "mail": ["alice@example.com"], "objectClass": ["person"]},
    {"uid": ["bob"], "cn": ["Bob Builder"], "mail": ["bob@example.com"], "objectClass": ["person"]},
    {"uid": ["carol"], "cn": ["Carol Singer"], "mail": ["carol@example.com"], "objectClass": ["person"]},
    {"uid": ["svc-backup"], "cn": ["Backup service"], "mail": ["backup@example.com"],
     "objectClass": ["application"]},
]


class LDAPFilterError(Exception):
    pass


def ldap_parse(s, i):
    """filter := '(' ( '&' filter+ | '|' filter+ | '!' filter | attr op value ) ')'. Returns (node, i)."""
    if i >= len(s) or s[i] != "(":
        raise LDAPFilterError()
    i += 1
    if i < len(s) and s[i] in "&|":
        op, children = s[i], []
        i += 1
        while i < len(s) and s[i] == "(":
            child, i = ldap_parse(s, i)
            children.append(child)
        if not children:
            raise LDAPFilterError()
        node = (op, children)
    elif i < len(s) and s[i] == "!":
        child, i = ldap_parse(s, i + 1)
        node = ("!", child)
    else:
        m = re.compile(r"([A-Za-z][A-Za-z0-9-]*|[0-9.]+)(~=|>=|<=|=)").match(s, i)
        if not m:
            raise LDAPFilterError()
        attr, op, i = m.group(1), m.group(2), m.end()
        start = i
        while i < len(s) and s[i] not in "()":
            i += 1
        raw = s[start:i]
        if "\x00" in raw or re.search(r"\\(?![0-9A-Fa-f]{2})", raw):
            raise LDAPFilterError()
        node = ("item", attr, op, raw)
    if i >= len(s) or s[i] != ")":
        raise LDAPFilterError()
    return node, i + 1


def ldap_unescape(raw):
    return re.sub(r"\\([0-9A-Fa-f]{2})", lambda m: chr(int(m.group(1), 16)), raw)


def ldap_match_item(entry, attr, op, raw):
    values = next((v for k, v in entry.items() if k.lower() == attr.lower()), [])
    if op == "=" and raw == "*":
        return bool(values)  # presence
    if op == "=" and "*" in raw:  # substring: unescaped '*' are wildcards
        pattern = ".*".join(re.escape(ldap_unescape(p)) for p in raw.split("*"))
        return any(re.fullmatch(pattern, v, re.I | re.S) for v in values)
    want = ldap_unescape(raw).lower()
    if op == ">=":
        return any(v.lower() >= want for v in values)
    if op == "<=":
        return any(v.lower() <= want for v in values)
    return any(v.lower() == want for v in values)


def ldap_eval(node, entry):
    if node[0] == "&":
        return all(ldap_eval(c, entry) for c in node[1])
    if node[0] == "|":
        return any(ldap_eval(c, entry) for c in node[1])
    if node[0] == "!":
        return not ldap_eval(node[1], entry)
    return ldap_match_item(entry, *node[1:])


def ldap_search(filter_string):
    # Like OpenLDAP, only the first complete filter is used; whatever follows must still parse.
    node, i = ldap_parse(filter_string, 0)
    while i < len(filter_string):
        _, i = ldap_parse(filter_string, i)
    return [e for e in DIRECTORY if ldap_eval(node, e)]


def ldap_escape(value):
    # RFC 4515 section 3: escape \ * ( ) NUL as \XX.
    return "".join("\\%02x" % ord(c) if c in "\\*()\x00" else c for c in value)


def ldap_page(action, user, filter_string):
    try:
        found = ldap_search(filter_string)
    except LDAPFilterError:
        return page("Directory search", "<p>Search failed.</p>\n<pre>ldap.FILTER_ERROR: {'result': -7, "
                    "'desc': 'Bad search filter', 'ctrls': []}</pre>", 500)
    rows = "".join("<tr><td>%s</td><td>%s</td><td>%s</td></tr>\n" % (
        esc(e["uid"][0]), esc(e["cn"][0]), esc(e["mail"][0])) for e in found)
    return page("Directory search", "%s\n<p>%d entr%s found.</p>\n<table>\n%s</table>" % (
        form_html(action, "get", [("text", "user", user)], "Search"), len(found),
        "y" if len(found) == 1 else "ies", rows))


def ldap_search_page(req):
    user = req.arg("user", "alice")
    return ldap_page("/ldap/search", user, "(&(uid=" + user + ")(objectClass=person))")  # VULNERABLE


def safe_ldap_search_page(req):
    user = req.arg("user", "alice")
    return ldap_page("/safe/ldap/search", user, "(&(uid=" + ldap_escape(user) + ")(objectClass=person))")


# ---------------------------------------------------------------------------------------------
# 21. Insecure deserialisation (pickle cookie) vs a signed JSON cookie
# ---------------------------------------------------------------------------------------------

DEFAULT_PREFS = {"theme": "light", "lang": "en", "items_per_page": 20}
THEMES = ["light", "dark", "contrast"]


def b64decode_loose(value):
    value = urllib.parse.unquote(value).strip().strip('"').replace("-", "+").replace("_", "/")
    return base64.b64decode(value + "=" * (-len(value) % 4))


def prefs_page(action, theme):
    return page("Display preferences", "<p>Current theme: <b>%s</b></p>\n%s" % (
        esc(theme), form_html(action, "get", [("select", "theme", "dark", THEMES)], "Save")))


def prefs(req):
    cookie = req.cookies.get("prefs")
    if cookie is None or "theme" in req.query:
        obj = dict(DEFAULT_PREFS, theme=req.arg("theme", "light"))
        cookie = base64.b64encode(pickle.dumps(obj)).decode()
    else:
        try:
            obj = pickle.loads(b64decode_loose(cookie))  # VULNERABLE: unpickling a client-supplied cookie
        except Exception:  # noqa: BLE001
            return page("Display preferences", "<p>Invalid preferences cookie.</p>", 400)
    theme = obj.get("theme", "light") if isinstance(obj, dict) else obj
    return Response(prefs_page("/prefs", theme).body, headers=[("Set-Cookie", "prefs=" + cookie + "; Path=/")])


def sign(payload):
    return hmac.new(APP.hmac_key, payload.encode(), hashlib.sha256).hexdigest()


def safe_prefs(req):
    cookie = req.cookies.get("safe_prefs")
    if cookie is None or "theme" in req.query:
        obj = dict(DEFAULT_PREFS, theme=req.arg("theme", "light"))
        payload = base64.urlsafe_b64encode(json.dumps(obj).encode()).decode()
        cookie = payload + "." + sign(payload)
    else:
        payload, _, mac = urllib.parse.unquote(cookie).rpartition(".")
        if not payload or not hmac.compare_digest(mac, sign(payload)):
            return page("Display preferences", "<p>Tampered or invalid preferences cookie.</p>", 400)
        obj = json.loads(base64.urlsafe_b64decode(payload))  # JSON, signed by us: never unpickled
    theme = obj.get("theme", "light") if isinstance(obj, dict) else "light"
    return Response(prefs_page("/safe/prefs", theme).body,
                    headers=[("Set-Cookie", "safe_prefs=" + cookie + "; Path=/")])


# ---------------------------------------------------------------------------------------------
# Login, account (auth-only XSS), logout, security headers, passive issues
# ---------------------------------------------------------------------------------------------

LOGIN_FIELDS = [("text", "username", "alice"), ("password", "password", "wonderland"),
                ("checkbox", "remember", "yes")]


def login_form(req):
    return page("Log in", form_html("/login", "post", LOGIN_FIELDS, "Log in"), powered=True)


def safe_login_form(req):
    return page("Log in", form_html("/safe/login", "post", LOGIN_FIELDS, "Log in"), powered=True)


def logged_in(user, cookie_attrs):
    if not user:
        return page("Log in", "<p>Please enter a user name.</p>", 200, powered=True)
    token = APP.new_session(user)
    return page("Logged in", "<p>Welcome, %s. Go to <a href=\"/account\">your account</a>.</p>" % esc(user),
                headers=[("Set-Cookie", "session=" + token + cookie_attrs)], powered=True)


def login(req):
    return logged_in(req.field("username"), "; Path=/")  # no Secure, HttpOnly or SameSite


def safe_login(req):
    # HttpOnly and SameSite; Secure cannot be set because the app is plain http.
    return logged_in(req.field("username"), "; Path=/; HttpOnly; SameSite=Lax")


def logout(req):
    with APP.lock:
        APP.sessions.pop(req.cookies.get("session", ""), None)
    return page("Logged out", "<p>You have been logged out.</p>",
                headers=[("Set-Cookie", "session=; Path=/; Max-Age=0")])


def current_user(req):
    if req.headers.get("Authorization", "") == "Bearer " + BEARER_TOKEN:
        return "api-user"
    with APP.lock:
        return APP.sessions.get(req.cookies.get("session", ""))


def unauthorized():
    return page("Unauthorized", "<p>Please <a href=\"/login\">log in</a>.</p>", 401,
                headers=[("WWW-Authenticate", "Bearer realm=\"vulnapp\"")])


def account(req):
    user = current_user(req)
    if user is None:
        return unauthorized()
    return page("My account", """<p>Signed in as %s.</p>
<ul><li><a href="/account/search?q=invoice">Search my orders</a></li>
<li><a href="/safe/account/search?q=invoice">Search my orders (safe version)</a></li></ul>""" % esc(user),
                powered=True)


def account_search(req):
    if current_user(req) is None:
        return unauthorized()
    return page("Order search", "<p>No orders match %s.</p>" % req.arg("q", "invoice"))  # VULNERABLE (auth only)


def safe_account_search(req):
    if current_user(req) is None:
        return unauthorized()
    return page("Order search", "<p>No orders match %s.</p>" % esc(req.arg("q", "invoice")))


def secure(req):
    # Negative control for the header checks.
    return page("Security headers", "<p>This page sends every recommended security header.</p>", headers=[
        ("Content-Security-Policy", "default-src 'self'; frame-ancestors 'none'"),
        ("X-Content-Type-Options", "nosniff"), ("X-Frame-Options", "DENY"),
        ("Referrer-Policy", "no-referrer")])


def calendar(req):
    # Crawl trap: "next month" forever.
    try:
        month = int(req.arg("month", "1"))
    except ValueError:
        month = 1
    return page("Events calendar", "<p>Month %d: no events.</p>\n<p><a href=\"/calendar?month=%d\">Next month</a>"
                "</p>" % (month, month + 1))


DEBUG_ITEMS = ["alpha", "beta", "gamma"]


def debug(req):
    item = req.arg("item", "1")
    try:
        value = DEBUG_ITEMS[int(item)]
    except Exception:  # noqa: BLE001
        # Leaks the traceback (HTML-escaped like a framework debug page, quotes left readable).
        return page("Internal Server Error", "<pre>%s</pre>" % esc_text(traceback.format_exc()), 500)
    return page("Item inspector", "<p>Item %s: %s</p>" % (esc(item), esc(value)))


def safe_debug(req):
    item = req.arg("item", "1")
    try:
        value = DEBUG_ITEMS[int(item)]
    except (ValueError, IndexError):
        return page("Error", "<p>Invalid item.</p>", 400)
    return page("Item inspector", "<p>Item %s: %s</p>" % (esc(item), esc(value)))


CORS_BODY = json.dumps({"user": "alice", "plan": "pro", "apiKey": "demo-key-not-secret"})
TRUSTED_ORIGIN = "https://app.example.com"


def api_cors(req):
    headers = [("Vary", "Origin")]
    origin = req.headers.get("Origin")
    if origin:
        headers += [("Access-Control-Allow-Origin", origin), ("Access-Control-Allow-Credentials", "true")]  # VULN
    return text(CORS_BODY, ctype="application/json", headers=headers)


def safe_api_cors(req):
    headers = [("Vary", "Origin")]
    if req.headers.get("Origin") == TRUSTED_ORIGIN:
        headers += [("Access-Control-Allow-Origin", TRUSTED_ORIGIN), ("Access-Control-Allow-Credentials", "true")]
    return text(CORS_BODY, ctype="application/json", headers=headers)


# Exposed files, found only by probing well-known paths. All values are fake.
GIT_CONFIG = """[core]
\trepositoryformatversion = 0
\tfilemode = true
\tbare = false
\tlogallrefupdates = true
[remote "origin"]
\turl = https://git.invalid/vulnapp/vulnapp.git
\tfetch = +refs/heads/*:refs/remotes/origin/*
[branch "main"]
\tremote = origin
\tmerge = refs/heads/main
"""
DOTENV = """APP_ENV=production
DEBUG=true
SECRET_KEY=vulnapp-fixture-secret-key-not-real
DATABASE_URL=postgres://vulnapp:fixture-not-a-password@db.invalid:5432/vulnapp
"""
SQL_DUMP = """-- VulnApp database backup
-- Dumped by sqlite3 .dump
BEGIN TRANSACTION;
CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT, email TEXT, password_hash TEXT);
INSERT INTO users VALUES(1,'alice','alice@example.com','fixture-hash-not-real-1');
INSERT INTO users VALUES(2,'bob','bob@example.com','fixture-hash-not-real-2');
COMMIT;
"""


def backup_zip_bytes():
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("vulnapp/db.sql", SQL_DUMP)
        z.writestr("vulnapp/.env", DOTENV)
    return buf.getvalue()


BACKUP_ZIP = backup_zip_bytes()


def git_head(req):
    return text("ref: refs/heads/main\n")


def git_config(req):
    return text(GIT_CONFIG)


def dotenv(req):
    return text(DOTENV)


def backup_zip(req):
    return text(BACKUP_ZIP, ctype="application/zip")


def db_backup(req):
    return text(SQL_DUMP, ctype="application/octet-stream")


# ---------------------------------------------------------------------------------------------
# Bad-input helpers (never linked): hang, huge bodies, slow drip
# ---------------------------------------------------------------------------------------------


def hang(req):
    time.sleep(300)  # its own thread: the rest of the server keeps serving
    return text("finally\n")


def huge(req):
    h = req.handler
    h.send_response(200)
    h.send_header("Content-Type", "text/plain")
    h.send_header("Content-Length", str(HUGE_SIZE))
    h.end_headers()
    if req.method != "HEAD":
        chunk, left = b"A" * 65536, HUGE_SIZE
        while left > 0:
            h.wfile.write(chunk[:left])
            left -= len(chunk)


def huge_chunked(req):
    h = req.handler
    h.send_response(200)
    h.send_header("Content-Type", "text/plain")
    h.send_header("Transfer-Encoding", "chunked")
    h.end_headers()
    if req.method != "HEAD":
        chunk = b"10000\r\n" + b"A" * 65536 + b"\r\n"
        for _ in range(HUGE_SIZE // 65536):
            h.wfile.write(chunk)
        h.wfile.write(b"0\r\n\r\n")


def slow_drip(req):
    h = req.handler
    h.send_response(200)
    h.send_header("Content-Type", "text/plain")
    h.send_header("Content-Length", "300")
    h.end_headers()
    if req.method != "HEAD":
        for _ in range(300):
            h.wfile.write(b"A")
            time.sleep(1)


# ---------------------------------------------------------------------------------------------
# Routing table
# ---------------------------------------------------------------------------------------------

ROUTES = [
    ("GET", "/", home), ("GET", "/about", about), ("GET", "/robots.txt", robots),
    ("GET", "/sitemap.xml", sitemap), ("GET", "/openapi.json", openapi), ("GET", "/admin/", admin),
    ("GET", "/static", static_redirect), ("GET", "/static/", static_index),
    # 1-3, 6. reflected XSS
    ("GET", "/xss/reflect", xss_reflect), ("GET", "/safe/xss/reflect", safe_xss_reflect),
    ("GET", "/xss/attr", xss_attr), ("GET", "/safe/xss/attr", safe_xss_attr),
    ("GET", "/xss/attr-unquoted", xss_attr_unquoted), ("GET", "/safe/xss/attr-unquoted", safe_xss_attr_unquoted),
    ("GET", "/xss/js", xss_js), ("GET", "/safe/xss/js", safe_xss_js),
    ("GET", "/xss/post", xss_post_form), ("GET", "/safe/xss/post", safe_xss_post_form),
    ("POST", "/xss/post", xss_post), ("POST", "/safe/xss/post", safe_xss_post),
    ("POST", "/api/echo", api_echo), ("POST", "/safe/api/echo", safe_api_echo),
    # 4. JSONP
    ("GET", "/api/jsonp", api_jsonp), ("GET", "/safe/api/jsonp", safe_api_jsonp),
    # 5. stored XSS
    ("GET", "/guestbook", guestbook), ("GET", "/safe/guestbook", safe_guestbook),
    ("POST", "/guestbook", guestbook_post), ("POST", "/safe/guestbook", safe_guestbook_post),
    # 7-9. SQL injection
    ("GET", "/catalog", catalog), ("GET", "/safe/catalog", safe_catalog),
    ("GET", "/products", products), ("GET", "/safe/products", safe_products),
    ("GET", "/users", users), ("GET", "/safe/users", safe_users),
    ("GET", "/orders/track", orders_track), ("GET", "/safe/orders/track", safe_orders_track),
    # 10-11. command injection
    ("GET", "/tools/ping", tools_ping), ("GET", "/safe/tools/ping", safe_tools_ping),
    ("GET", "/tools/notify", tools_notify_form), ("GET", "/safe/tools/notify", safe_tools_notify_form),
    ("POST", "/tools/notify", tools_notify), ("POST", "/safe/tools/notify", safe_tools_notify),
    # 12-14. file read, eval, templates
    ("GET", "/files", files), ("GET", "/safe/files", safe_files),
    ("GET", "/calc", calc), ("GET", "/safe/calc", safe_calc),
    ("GET", "/greet", greet), ("GET", "/safe/greet", safe_greet),
    # 15-17. redirect, SSRF, XXE
    ("GET", "/redirect", open_redirect), ("GET", "/safe/redirect", safe_redirect), ("GET", "/go", go),
    ("GET", "/fetch", fetch), ("GET", "/safe/fetch", safe_fetch),
    ("GET", "/xml", xml_get), ("GET", "/safe/xml", safe_xml_get),
    ("POST", "/xml", xml_post), ("POST", "/safe/xml", safe_xml_post),
    # 18-21. CRLF, XPath, LDAP, deserialisation
    ("GET", "/lang", lang), ("GET", "/safe/lang", safe_lang),
    ("GET", "/xpath/lookup", xpath_lookup), ("GET", "/safe/xpath/lookup", safe_xpath_lookup),
    ("GET", "/ldap/search", ldap_search_page), ("GET", "/safe/ldap/search", safe_ldap_search_page),
    ("GET", "/prefs", prefs), ("GET", "/safe/prefs", safe_prefs),
    # login, account, passive issues
    ("GET", "/login", login_form), ("POST", "/login", login),
    ("GET", "/safe/login", safe_login_form), ("POST", "/safe/login", safe_login),
    ("GET", "/logout", logout), ("GET", "/account", account),
    ("GET", "/account/search", account_search), ("GET", "/safe/account/search", safe_account_search),
    ("GET", "/secure", secure), ("GET", "/calendar", calendar),
    ("GET", "/debug", debug), ("GET", "/safe/debug", safe_debug),
    ("GET", "/api/cors", api_cors), ("GET", "/safe/api/cors", safe_api_cors),
    ("GET", "/.git/HEAD", git_head), ("GET", "/.git/config", git_config), ("GET", "/.env", dotenv),
    ("GET", "/backup.zip", backup_zip), ("GET", "/db.sql.bak", db_backup),
    # bad-input helpers
    ("GET", "/hang", hang), ("GET", "/huge", huge), ("GET", "/huge-chunked", huge_chunked),
    ("GET", "/slow-drip", slow_drip),
]

ROUTE_TABLE = {}
for _method, _path, _fn in ROUTES:
    ROUTE_TABLE.setdefault(_path, {})[_method] = _fn


def resolve(method, path):
    """Returns (handler, allowed methods). /static/<file> is the only prefix route."""
    methods = ROUTE_TABLE.get(path)
    if methods is None and path.startswith("/static/"):
        methods = {"GET": static_file}
    if methods is None:
        return None, None
    fn = methods.get("GET" if method == "HEAD" else method)
    return fn, sorted(set(methods) | ({"HEAD"} if "GET" in methods else set()))


# ---------------------------------------------------------------------------------------------
# HTTP server
# ---------------------------------------------------------------------------------------------


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, like a real server; every response has a length
    timeout = 120  # idle connections are closed eventually
    verbose = False

    def version_string(self):
        return SERVER_BANNER  # the Server banner on every response

    def log_message(self, fmt, *args):
        if self.verbose:
            sys.stderr.write("%s - %s\n" % (self.address_string(), fmt % args))

    def read_body(self):
        if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            body = b""
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip() or b"0", 16)
                if size == 0:
                    self.rfile.readline()
                    return body
                if len(body) + size > MAX_BODY:
                    raise ValueError("body too large")
                body += self.rfile.read(size)
                self.rfile.readline()
        length = int(self.headers.get("Content-Length") or 0)
        if length < 0 or length > MAX_BODY:
            raise ValueError("body too large")
        return self.rfile.read(length) if length else b""

    def dispatch(self):
        split = urllib.parse.urlsplit(self.path)
        path = split.path or "/"
        try:
            body = self.read_body()
        except ValueError:
            self.close_connection = True
            return self.send(page("Bad request", "<p>Bad or too large request body.</p>", 413))
        fn, allowed = resolve(self.command, path)
        if self.command == "OPTIONS" and allowed:
            return self.send(self.options(path, allowed))
        if allowed is None:
            return self.send(not_found())
        if fn is None:
            return self.send(page("Method Not Allowed", "<p>Method not allowed.</p>", 405,
                                  headers=[("Allow", ", ".join(allowed))]))
        req = Request(self, self.command, path, split.query, self.headers, body)
        try:
            resp = fn(req)
        except ConnectionError:
            raise
        except Exception:  # noqa: BLE001 - a generic 500; only /debug leaks tracebacks
            if self.verbose:
                traceback.print_exc()
            resp = page("Internal Server Error", "<p>Something went wrong.</p>", 500)
        if resp is not None:  # streaming handlers write their own response
            self.send(resp)

    def options(self, path, allowed):
        headers = [("Allow", ", ".join(allowed + ["OPTIONS"]))]
        origin = self.headers.get("Origin")
        if path == "/api/cors" and origin:  # the vulnerable CORS preflight reflects too
            headers += [("Access-Control-Allow-Origin", origin), ("Access-Control-Allow-Credentials", "true"),
                        ("Access-Control-Allow-Methods", "GET"), ("Vary", "Origin")]
        elif path == "/safe/api/cors" and origin == TRUSTED_ORIGIN:
            headers += [("Access-Control-Allow-Origin", TRUSTED_ORIGIN), ("Access-Control-Allow-Credentials", "true"),
                        ("Access-Control-Allow-Methods", "GET"), ("Vary", "Origin")]
        return Response(b"", 204, headers=headers)

    def send(self, resp):
        self.send_response(resp.status)
        if resp.status != 204:
            self.send_header("Content-Type", resp.ctype)
            self.send_header("Content-Length", str(len(resp.body)))
        for name, value in resp.headers:
            self.send_header(name, header_value(value))
        for name, value in resp.raw_headers:
            self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD" and resp.status != 204:
            self.wfile.write(resp.body)

    def handle_one_request(self):
        try:
            super().handle_one_request()
        except (ConnectionError, TimeoutError):
            self.close_connection = True  # the client went away; nothing to report

    do_GET = do_HEAD = do_POST = do_PUT = do_DELETE = do_PATCH = do_OPTIONS = dispatch


class Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False  # server_close() must not wait for /hang or /slow-drip
    request_queue_size = 128  # scanners open many connections at once; 5 would drop SYNs and skew timings

    def server_bind(self):
        # Skip HTTPServer.server_bind's socket.getfqdn(): it may do a DNS lookup.
        socketserver.TCPServer.server_bind(self)
        self.server_name, self.server_port = self.server_address[:2]

    def handle_error(self, request, client_address):
        if Handler.verbose:
            super().handle_error(request, client_address)


def make_data_dir():
    data_dir = tempfile.mkdtemp(prefix="vulnapp-")  # private (0700)
    os.makedirs(os.path.join(data_dir, "files"))
    for name, content in REPORT_FILES.items():
        with open(os.path.join(data_dir, "files", name), "w") as f:
            f.write(content)
    return data_dir


def write_port_file(path, port):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write("%d\n" % port)
    os.rename(tmp, path)  # atomic: a reader never sees a half-written file


def main(argv=None):
    global APP
    parser = argparse.ArgumentParser(description="Deliberately vulnerable test web app (loopback only).")
    parser.add_argument("--port", type=int, default=0, help="port on 127.0.0.1; 0 picks a free one")
    parser.add_argument("--port-file", help="write the port number here (atomically)")
    parser.add_argument("--verbose", action="store_true", help="log every request to stderr")
    args = parser.parse_args(argv)
    Handler.verbose = args.verbose

    def stop(signum, frame):
        raise SystemExit(0)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    server = Server(("127.0.0.1", args.port), Handler)  # loopback only, never 0.0.0.0
    data_dir = make_data_dir()
    try:
        port = server.server_address[1]
        APP = State(port, data_dir)
        if args.port_file:
            write_port_file(args.port_file, port)
        print(port, flush=True)
        server.serve_forever(poll_interval=0.5)
    finally:
        server.server_close()
        shutil.rmtree(data_dir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
