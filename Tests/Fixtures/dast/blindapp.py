#!/usr/bin/env python3
"""BlindApp: a DELIBERATELY VULNERABLE web application for flaws that only time or execution shows:
SQL whose result is thrown away, and files that are run rather than read. Never deploy it. It binds
127.0.0.1 only, keeps its state in memory and its plugins in a private temp dir (removed on exit).

  GET  /sql/                 links to the SQL routes below
  GET  /track?page=home      VULNERABLE blind SQL, quoted: the page name is logged into SQLite by string
                             concatenation (INSERT ... VALUES); errors are swallowed and the answer is
                             always the same page                          twin: /track-safe (bound)
  GET  /vote?item=3          VULNERABLE blind SQL, numeric: a lookup in an empty table (nobody is
                             blocked) by concatenation; the answer is always the same page
                                                                           twin: /vote-safe (bound)
  GET  /inclusion/           links to the inclusion routes below
  GET  /plugin?name=hello.py VULNERABLE local file inclusion: the file named, relative to the plugin
                             directory (any path), is compiled and run as Python, its output shown; an
                             error shows the traceback                     twin: /plugin-source (shows
                             the file's text: a path traversal, not an inclusion)
  GET  /remote?url=http://127.0.0.1:PORT/static/greeting.py
                             VULNERABLE remote file inclusion: the http:// URL is fetched (5 s, no
                             proxy) and its text run as Python, its output shown
                                                                           twin: /preview (shows the
                             fetched text: a server-side request forgery, not an inclusion)
  GET  /static/greeting.py   the plugin the remote routes link to

Usage: python3 blindapp.py [--port 0] [--port-file FILE]
Python 3.11 standard library only.
"""

import argparse
import contextlib
import html
import http.server
import io
import os
import shutil
import signal
import sqlite3
import tempfile
import sys
import threading
import time
import traceback
import urllib.parse
import urllib.request

LOCK = threading.Lock()
STATE = {"votes": 0, "visits": 0}
PLUGINS = tempfile.mkdtemp(prefix="blindapp-plugins-")
GREETING = 'print("Hello from a remote plugin")\n'
NO_PROXY = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def page(title, body, status=200):
    return status, "text/html; charset=utf-8", (
        "<!doctype html><html><head><title>%s</title></head><body><h1>%s</h1>%s</body></html>" % (title, title, body))


def track(query, safe):
    name = query.get("page", "home")
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE TABLE visits (page TEXT, at REAL)")
    try:
        if safe:
            conn.execute("INSERT INTO visits VALUES (?, ?)", (name, time.time()))
        else:
            conn.execute("INSERT INTO visits VALUES ('%s', %f)" % (name, time.time()))  # VULNERABLE
    except sqlite3.Error:
        pass  # a lost log line is no reason to fail the page
    with LOCK:
        STATE["visits"] += 1
    return page("Thanks", "<p>Thanks for visiting.</p>")


def vote(query, safe):
    item = query.get("item", "3")
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE TABLE blocked (item INTEGER)")  # empty: nothing is blocked
    try:
        if safe:
            conn.execute("SELECT 1 FROM blocked WHERE item = ?", (item,)).fetchone()
        else:
            conn.execute("SELECT 1 FROM blocked WHERE item = " + item).fetchone()  # VULNERABLE
    except sqlite3.Error:
        pass
    with LOCK:
        STATE["votes"] += 1
    return page("Vote", "<p>Your vote is counted.</p>")


def run_python(source, filename):
    """Runs `source` as Python and answers what it printed (one at a time: stdout is shared)."""
    out = io.StringIO()
    with LOCK, contextlib.redirect_stdout(out):
        exec(compile(source, filename, "exec"), {"__name__": "plugin"})
    return out.getvalue()


def plugin(query, run):
    path = os.path.join(PLUGINS, query.get("name", "hello.py"))  # VULNERABLE: any path
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            source = f.read(1 << 16)
        shown = run_python(source, path) if run else source  # run: VULNERABLE inclusion
    except OSError:
        return page("Plugin", "<p>No such plugin.</p>", 404)
    except Exception:
        return page("Plugin error", "<pre>%s</pre>" % html.escape(traceback.format_exc()), 500)
    return page("Plugin", "<pre>%s</pre>" % html.escape(shown))


def remote(query, run):
    url = query.get("url", "")
    if not url.startswith("http://"):
        return page("Remote", "<p>Only http:// URLs.</p>", 400)
    try:
        with NO_PROXY.open(url, timeout=5) as answer:
            source = answer.read(1 << 16).decode("utf-8", "replace")
        shown = run_python(source, url) if run else source  # run: VULNERABLE remote inclusion
    except Exception as error:
        return page("Remote", "<p>Failed: %s</p>" % html.escape(type(error).__name__), 502)
    return page("Remote", "<pre>%s</pre>" % html.escape(shown))


def index(links):
    return page("BlindApp", "<ul>%s</ul>" % "".join('<li><a href="%s">%s</a></li>' % (html.escape(link), html.escape(link))
                                                   for link in links))


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
        query = dict(urllib.parse.parse_qsl(raw_query))
        own = "http://127.0.0.1:%d/static/greeting.py" % self.server.server_address[1]
        if path in ("/", "/sql/"):
            sql = ["/track?page=home", "/track-safe?page=home", "/vote?item=3", "/vote-safe?item=3"]
            return self.reply(index(sql + (["/inclusion/"] if path == "/" else [])))
        if path == "/inclusion/":
            return self.reply(index(["/plugin?name=hello.py", "/plugin-source?name=hello.py",
                                     "/remote?url=" + urllib.parse.quote(own, safe=""),
                                     "/preview?url=" + urllib.parse.quote(own, safe="")]))
        if path in ("/track", "/track-safe"):
            return self.reply(track(query, path.endswith("-safe")))
        if path in ("/vote", "/vote-safe"):
            return self.reply(vote(query, path.endswith("-safe")))
        if path in ("/plugin", "/plugin-source"):
            return self.reply(plugin(query, path == "/plugin"))
        if path in ("/remote", "/preview"):
            return self.reply(remote(query, path == "/remote"))
        if path == "/static/greeting.py":
            return self.reply((200, "text/plain; charset=utf-8", GREETING))
        return self.reply(page("Page not found", "<p>Nothing here.</p>", 404))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--port-file")
    args = parser.parse_args()
    with open(os.path.join(PLUGINS, "hello.py"), "w") as f:
        f.write('print("Hello from the plugin")\n')
    server = http.server.ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    if args.port_file:
        with open(args.port_file + ".tmp", "w") as f:
            f.write(str(server.server_address[1]))
        os.replace(args.port_file + ".tmp", args.port_file)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))  # so that the plugin directory is removed
    try:
        server.serve_forever()
    finally:
        shutil.rmtree(PLUGINS, ignore_errors=True)


if __name__ == "__main__":
    main()
