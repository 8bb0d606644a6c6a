#!/usr/bin/env python3
"""EncodingApp: a DELIBERATELY VULNERABLE web application whose parameters wrap what the code
reads: hex, base64, bytes that are not UTF-8, and XML documents (issue 59). Never deploy it. It
binds 127.0.0.1 only and keeps all state in memory.

  GET /report?q=<base64 "rope">    VULNERABLE SQL injection inside a base64 value (a quoted string
                                   built by concatenation; a bare 500 on an error)
                                                                  twin: /report-safe (bound)
  GET /export/<base64 "rope">      VULNERABLE the same, the base64 value a path segment
                                                                  twin: /export-safe/<base64>
  GET /prefs?p=<hex pickle>        VULNERABLE pickle.loads of a hex value; the theme is shown
                                                                  twin: /prefs-safe (hex JSON)
  GET /resume?state=<b64url pickle> VULNERABLE blind pickle.loads: "resumed" whatever it held
                                                                  twin: /resume-safe (b64url JSON)
  GET /restore?blob=%80%04...      VULNERABLE pickle.loads of raw percent-encoded bytes; the
                                   note is shown                  twin: /restore-safe (checks a MAC)
  GET /import?doc=<order>...       VULNERABLE XXE: an XML parameter parsed with external entities
                                   on (xml.sax, feature_external_ges); its text is shown
                                                                  twin: /import-safe (entities off)
  GET /ping?doc=<ping/>            VULNERABLE blind XXE: a document without text, parsed with
                                   external entities on, nothing shown ("pong")
                                                                  twin: /ping-safe (entities off)
  GET/POST /settings               a multipart form uploading a YAML file (accept=".yaml,.yml"):
                                   VULNERABLE yaml.load with the unsafe loader; the loaded mapping is
                                   shown                          twin: /settings-safe (safe_load)
  GET/POST /backup                 a multipart form uploading a file (no accept): VULNERABLE blind
                                   pickle.loads ("restored")     twin: /backup-safe (JSON)
  GET/POST /feed                   a multipart form uploading an XML file (accept=".xml"): VULNERABLE
                                   XXE, the text shown            twin: /feed-safe (entities off)

Python 3.11 with PyYAML (Debian's python3-yaml) for /settings.

Usage: python3 encodingapp.py [--port 0] [--port-file FILE]
Python 3.11 standard library only.
"""

import argparse
import base64
import email
import email.policy
import hashlib
import hmac
import html
import http.server
import io
import json
import os
import pickle
import sqlite3
import urllib.parse
import xml.sax
import xml.sax.handler

try:
    import yaml
except ImportError:  # only /settings needs it
    yaml = None

SECRET = os.urandom(16)


def page(title, body, status=200):
    return status, "text/html; charset=utf-8", (
        "<!doctype html><html><head><title>%s</title></head><body><h1>%s</h1>%s</body></html>" % (title, title, body))


def error():
    return 500, "text/plain", "Internal Server Error"


def b64url(data):
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def unb64url(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def report(query, safe):
    try:
        name = base64.b64decode(query.get("q", [""])[0]).decode("utf-8")
    except Exception:
        return 400, "text/plain", "bad q"
    return stock(name, safe)


def export(segment, safe):
    try:
        name = base64.b64decode(urllib.parse.unquote(segment)).decode("utf-8")
    except Exception:
        return 400, "text/plain", "bad name"
    return stock(name, safe)


def stock(name, safe):
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT, stock INTEGER)")
    conn.executemany("INSERT INTO items VALUES (?, ?, ?)", [(1, "anvil", 3), (2, "rope", 12), (3, "lamp", 0)])
    try:
        rows = (conn.execute("SELECT name, stock FROM items WHERE name = ?", (name,)) if safe
                else conn.execute("SELECT name, stock FROM items WHERE name = '%s'" % name)).fetchall()  # VULNERABLE
    except sqlite3.Error:
        return error()
    shown = "".join("<li>%s: %d in stock</li>" % (html.escape(n), s) for n, s in rows) or "<li>No such item</li>"
    return page("Stock report", "<ul>%s</ul>" % shown)


def prefs(query, safe):
    try:
        data = bytes.fromhex(query.get("p", [""])[0])
        settings = json.loads(data) if safe else pickle.loads(data)  # VULNERABLE unless safe
        theme = str(settings.get("theme", "light"))
    except Exception:
        return error()
    return page("Preferences", "<p>Theme: %s</p>" % html.escape(theme))


def resume(query, safe):
    try:
        data = unb64url(query.get("state", [""])[0])
        json.loads(data) if safe else pickle.loads(data)  # VULNERABLE unless safe
    except Exception:
        pass
    return page("Resume", "<p>Your session was resumed.</p>")


def restore(raw_query, safe):
    raw = raw_query.partition("blob=")[2].partition("&")[0]
    data = urllib.parse.unquote_to_bytes(raw)
    if safe:
        body, mac = data[:-32], data[-32:]
        if not hmac.compare_digest(hmac.new(SECRET, body, hashlib.sha256).digest(), mac):
            return 400, "text/plain", "bad blob"
        data = body
    try:
        note = pickle.loads(data)  # VULNERABLE unless its MAC is checked
        shown = str(note.get("note", "")) if isinstance(note, dict) else str(note)
    except Exception:
        return error()
    return page("Restore", "<p>Restored: %s</p>" % html.escape(shown))


class Text(xml.sax.handler.ContentHandler):
    def __init__(self):
        super().__init__()
        self.parts = []

    def characters(self, content):
        if sum(map(len, self.parts)) < 4096:
            self.parts.append(content)


def parse(document, safe):
    parser = xml.sax.make_parser()
    handler = Text()
    parser.setContentHandler(handler)
    parser.setFeature(xml.sax.handler.feature_external_ges, not safe)  # VULNERABLE unless safe
    source = xml.sax.xmlreader.InputSource()
    source.setByteStream(io.BytesIO(document.encode("utf-8")))
    parser.parse(source)
    return "".join(handler.parts)


def import_order(query, safe):
    try:
        text = parse(query.get("doc", [""])[0], safe)
    except Exception:
        return error()
    return page("Import", "<p>Imported: %s</p>" % html.escape(text.strip()[:2000]))


def ping(query, safe):
    try:
        parse(query.get("doc", [""])[0], safe)
    except Exception:
        pass
    return page("Ping", "<p>pong</p>")


def upload_form(action, accept):
    return page("Upload", '<form method="post" action="%s" enctype="multipart/form-data">'
                '<input name="title" value="mine"><input type="file" name="file"%s><button>Upload</button></form>'
                % (action, ' accept="%s"' % accept if accept else ""))


def uploaded(headers, body):
    """The parts of a multipart/form-data body: name -> bytes."""
    message = email.message_from_bytes(
        b"Content-Type: " + headers.get("Content-Type", "").encode() + b"\r\n\r\n" + body, policy=email.policy.HTTP)
    parts = {}
    for part in message.iter_parts() if message.is_multipart() else []:
        name = part.get_param("name", header="content-disposition")
        if name:
            parts[name] = part.get_payload(decode=True) or b""
    return parts


def settings(parts, safe):
    try:
        text = parts.get("file", b"").decode("utf-8")
        loaded = yaml.safe_load(text) if safe else yaml.load(text, Loader=yaml.UnsafeLoader)  # VULNERABLE unless safe
    except Exception:
        return error()
    return page("Settings", "<p>Loaded: %s</p>" % html.escape(repr(loaded)[:2000]))


def backup(parts, safe):
    try:
        data = parts.get("file", b"")
        json.loads(data) if safe else pickle.loads(data)  # VULNERABLE unless safe
    except Exception:
        pass
    return page("Backup", "<p>Your backup was restored.</p>")


def feed(parts, safe):
    try:
        text = parse(parts.get("file", b"").decode("utf-8", "replace"), safe)
    except Exception:
        return error()
    return page("Feed", "<p>Feed: %s</p>" % html.escape(text.strip()[:2000]))


def home():
    hex_prefs = pickle.dumps({"theme": "dark"}, protocol=4).hex()
    hex_json = json.dumps({"theme": "dark"}).encode().hex()
    state = b64url(pickle.dumps({"step": "cart"}, protocol=4))
    state_json = b64url(json.dumps({"step": "cart"}).encode())
    blob = pickle.dumps({"note": "saved"}, protocol=4)
    blob_safe = blob + hmac.new(SECRET, blob, hashlib.sha256).digest()
    quote = lambda b: urllib.parse.quote_from_bytes(b, safe="")
    order = urllib.parse.quote("<order><item>rope</item></order>", safe="")
    links = [
        '<a href="/report?q=%s">report</a>' % urllib.parse.quote(base64.b64encode(b"rope").decode()),
        '<a href="/report-safe?q=%s">safe report</a>' % urllib.parse.quote(base64.b64encode(b"rope").decode()),
        '<a href="/export/cm9wZQ==">export</a>', '<a href="/export-safe/cm9wZQ==">safe export</a>',
        '<a href="/prefs?p=%s">prefs</a>' % hex_prefs, '<a href="/prefs-safe?p=%s">safe prefs</a>' % hex_json,
        '<a href="/resume?state=%s">resume</a>' % state, '<a href="/resume-safe?state=%s">safe resume</a>' % state_json,
        '<a href="/restore?blob=%s">restore</a>' % quote(blob),
        '<a href="/restore-safe?blob=%s">safe restore</a>' % quote(blob_safe),
        '<a href="/import?doc=%s">import</a>' % order, '<a href="/import-safe?doc=%s">safe import</a>' % order,
        '<a href="/ping?doc=%s">ping</a>' % quote(b"<ping/>"), '<a href="/ping-safe?doc=%s">safe ping</a>' % quote(b"<ping/>"),
        '<a href="/settings">settings</a>', '<a href="/settings-safe">safe settings</a>', '<a href="/backup">backup</a>',
        '<a href="/backup-safe">safe backup</a>', '<a href="/feed">feed</a>', '<a href="/feed-safe">safe feed</a>',
    ]
    return page("EncodingApp", "<ul>%s</ul>" % "".join("<li>%s</li>" % link for link in links))


UPLOADS = {"/settings": (settings, ".yaml,.yml"), "/backup": (backup, None), "/feed": (feed, ".xml")}


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
        path, _, raw_query = self.path.partition("?")
        query = urllib.parse.parse_qs(raw_query)
        safe = path.endswith("-safe")
        base = path[:-len("-safe")] if safe else path
        if path == "/":
            return self.reply(home())
        if base == "/report":
            return self.reply(report(query, safe))
        if path.startswith("/export/") or path.startswith("/export-safe/"):
            return self.reply(export(path.rpartition("/")[2], path.startswith("/export-safe/")))
        if base == "/prefs":
            return self.reply(prefs(query, safe))
        if base == "/resume":
            return self.reply(resume(query, safe))
        if base == "/restore":
            return self.reply(restore(raw_query, safe))
        if base == "/import":
            return self.reply(import_order(query, safe))
        if base == "/ping":
            return self.reply(ping(query, safe))
        if base in UPLOADS:
            return self.reply(upload_form(path, UPLOADS[base][1]))
        return self.reply(page("Not found", "<p>Nothing here.</p>", 404))

    def do_POST(self):
        length = min(int(self.headers.get("Content-Length") or 0), 1 << 20)
        body = self.rfile.read(length)
        path = self.path.partition("?")[0]
        safe = path.endswith("-safe")
        base = path[:-len("-safe")] if safe else path
        if base in UPLOADS:
            return self.reply(UPLOADS[base][0](uploaded(self.headers, body), safe))
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
