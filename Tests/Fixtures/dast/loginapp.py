#!/usr/bin/env python3
"""LoginApp: a DELIBERATELY VULNERABLE web application behind a form login, the target of
Sentinel's authenticated-scan tests (shaped unlike vulnapp.py: a CSRF token on the login form,
a password no form filler guesses, redirects to the login page, sessions that end).

Never deploy it. It binds 127.0.0.1 only and keeps all state in memory.

  GET  /login             the form: user, pass and a hidden csrf_token tied to a pre-session cookie
  POST /login             carol / s3cret-Passw0rd with the right token: a session (cookie sid), 303 to /dashboard
  GET  /dashboard         "Signed in as carol", links to /notes and /profile (and /logout)
  GET  /notes?q=          VULNERABLE: q is reflected unescaped (logged in only)
  GET  /profile?name=     SAFE TWIN: name is escaped (logged in only)
  GET  /logout            ends the session
  GET  /account           (logged in) two forms: POST /notes/add (VULNERABLE: text reflected unescaped)
                          and POST /account/password (new_password, no current one asked: it changes the
                          password and ends every session, as a careless app does)
  POST /api/login         JSON {"user", "pass"}: {"data": {"token": T}} (an API's login)
  GET  /api/search?q=     VULNERABLE (SQL injection, the error shown) with Authorization: Bearer T, else 401
  GET  /api/people?name=  VULNERABLE (SQL injection, errors hidden: a generic 500), public; the example
                          name matches nobody, so only an OR condition changes the answer
  GET  /api/people-safe?name=  SAFE TWIN: the same query with a placeholder
  GET  /limited           429 with Retry-After: 1 to every other request (a target that asks to slow down)
  GET  /tools             links to the three tools below and their twins
  GET  /tools/banner?text=       VULNERABLE (command injection): the value in single quotes in a shell
                                 command whose stdout is shown (its stderr is not)
  GET  /tools/banner-safe?text=  SAFE TWIN: the value quoted by shlex.quote
  GET  /tools/convert?expr=      VULNERABLE (code injection): eval of the value; the example value
                                 fails to evaluate, so the page looks the same for any broken input
  GET  /tools/convert-safe?expr= SAFE TWIN: ast.literal_eval
  GET  /tools/static?ref=        ignores its parameter (an inert point: no probe needs to go further)
  GET  /openapi.json      the API's description (how a crawler finds /api/search and /api/people)
Pages that need a session redirect to /login?next=... without one. A session (or token) ends after
--session-requests requests made with it (default: never), so a long scan must log in again.

Usage: python3 loginapp.py [--port 0] [--port-file FILE] [--session-requests N]
Python 3.11 standard library only.
"""

import argparse
import ast
import html
import http.server
import json
import os
import secrets
import shlex
import sqlite3
import subprocess
import threading
import urllib.parse

USER = "carol"
PASSWORD = "s3cret-Passw0rd"  # changed by POST /account/password


class State:
    def __init__(self, session_requests):
        self.lock = threading.Lock()
        self.tokens = {}      # pre-session cookie -> csrf token
        self.sessions = {}    # sid or API token -> requests left (None: unbounded)
        self.session_requests = session_requests
        self.logins = 0
        self.limited = 0


STATE = None


def page(title, body):
    return ("<!doctype html><html><head><title>%s</title></head><body><h1>%s</h1>%s</body></html>"
            % (title, title, body)).encode()


class Handler(http.server.BaseHTTPRequestHandler):
    server_version = "LoginApp/1.0"

    def log_message(self, *args):
        pass

    def cookies(self):
        jar = {}
        for part in self.headers.get("Cookie", "").split(";"):
            name, _, value = part.strip().partition("=")
            if name:
                jar[name] = value
        return jar

    def send(self, status, body=b"", headers=()):
        self.send_response(status)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def session(self):
        """The session's user when the request carries a live one (each use counts)."""
        return USER if self.live(self.cookies().get("sid", "")) else None

    def live(self, key):
        """Whether `key` is a live session or token (each use counts)."""
        with STATE.lock:
            if key not in STATE.sessions:
                return False
            left = STATE.sessions[key]
            if left is not None:
                if left <= 0:
                    del STATE.sessions[key]
                    return False
                STATE.sessions[key] = left - 1
        return True

    def send_json(self, status, value):
        body = json.dumps(value).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def api_search(self, query):
        auth = self.headers.get("Authorization", "")
        if not auth.startswith("Bearer ") or not self.live(auth[len("Bearer "):]):
            return self.send_json(401, {"error": "a bearer token is needed"})
        q = query.get("q", ["todo"])[0]
        db = sqlite3.connect(":memory:")
        db.execute("CREATE TABLE notes (title TEXT)")
        db.executemany("INSERT INTO notes VALUES (?)", [("todo",), ("groceries",)])
        try:
            rows = db.execute("SELECT title FROM notes WHERE title LIKE '%" + q + "%'").fetchall()  # VULNERABLE
        except sqlite3.Error as error:
            return self.send_json(500, {"error": "sqlite3.OperationalError: %s" % error})
        self.send_json(200, {"notes": [row[0] for row in rows]})

    def api_people(self, query, safe):
        name = query.get("name", ["nobody"])[0]
        db = sqlite3.connect(":memory:")
        db.execute("CREATE TABLE people (name TEXT, team TEXT)")
        db.executemany("INSERT INTO people VALUES (?, ?)", [("carol", "blue"), ("dave", "red")])
        try:
            if safe:
                rows = db.execute("SELECT name, team FROM people WHERE name = ?", (name,)).fetchall()
            else:
                rows = db.execute('SELECT name, team FROM people WHERE name = "' + name + '"').fetchall()  # VULNERABLE
        except sqlite3.Error:
            return self.send_json(500, {"error": "internal error"})
        self.send_json(200, {"people": [{"name": n, "team": t} for n, t in rows]})

    def to_login(self, url):
        self.send(302, headers=[("Location", "/login?next=" + urllib.parse.quote(url.path))])

    def login_form(self, message=""):
        pre = self.cookies().get("pre") or secrets.token_hex(8)
        with STATE.lock:
            token = STATE.tokens.setdefault(pre, secrets.token_hex(16))
        form = ('<form method="post" action="/login">%s'
                '<input type="hidden" name="csrf_token" value="%s">'
                '<label>User <input type="text" name="user"></label>'
                '<label>Password <input type="password" name="pass"></label>'
                '<input type="submit" value="Sign in"></form>' % (message, token))
        self.send(200, page("Sign in", form), [("Set-Cookie", "pre=%s; Path=/; HttpOnly" % pre)])

    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        query = urllib.parse.parse_qs(url.query)
        if url.path == "/":
            self.send(200, page("Welcome", '<p><a href="/login">Sign in</a> to see your notes, or use the '
                                '<a href="/tools">tools</a>.</p>'))
        elif url.path == "/login":
            self.login_form()
        elif url.path == "/logout":
            with STATE.lock:
                STATE.sessions.pop(self.cookies().get("sid", ""), None)
            self.send(200, page("Signed out", "<p>Bye.</p>"), [("Set-Cookie", "sid=; Path=/; Max-Age=0")])
        elif url.path == "/api/search":
            self.api_search(query)
        elif url.path == "/limited":
            with STATE.lock:
                STATE.limited += 1
                refused = STATE.limited % 2 == 1
            if refused:
                return self.send(429, page("Too many requests", "<p>Slow down.</p>"), [("Retry-After", "1")])
            self.send(200, page("Limited", "<p>Served.</p>"))
        elif url.path == "/tools":
            links = "".join('<li><a href="%s">%s</a></li>' % (href, href) for href in (
                "/tools/banner?text=hello", "/tools/banner-safe?text=hello", "/tools/convert?expr=abc",
                "/tools/convert-safe?expr=abc", "/tools/static?ref=home"))
            self.send(200, page("Tools", "<ul>%s</ul>" % links))
        elif url.path in ("/tools/banner", "/tools/banner-safe"):
            text = query.get("text", ["hello"])[0]
            quoted = shlex.quote(text) if url.path.endswith("-safe") else "'" + text + "'"  # VULNERABLE unless -safe
            shown = subprocess.run(["/bin/sh", "-c", "printf '%s\\n' " + quoted], capture_output=True, text=True,
                                   timeout=10).stdout
            self.send(200, page("Banner", "<pre>%s</pre>" % html.escape(shown)))
        elif url.path in ("/tools/convert", "/tools/convert-safe"):
            expr = query.get("expr", ["abc"])[0]
            try:
                value = ast.literal_eval(expr) if url.path.endswith("-safe") else eval(expr)  # noqa: S307 VULNERABLE
                shown = "Result: %s" % html.escape(str(value))
            except Exception:  # noqa: BLE001
                shown = "Something went wrong"
            self.send(200, page("Convert", "<p>%s</p>" % shown))
        elif url.path == "/tools/static":
            self.send(200, page("Static", "<p>Nothing depends on the reference.</p>"))
        elif url.path in ("/api/people", "/api/people-safe"):
            self.api_people(query, safe=url.path.endswith("-safe"))
        elif url.path == "/openapi.json":
            def get(name, example):
                return {"get": {"parameters": [{"name": name, "in": "query", "schema": {"type": "string", "example": example}}],
                                "responses": {"200": {"description": "ok"}}}}
            self.send_json(200, {
                "openapi": "3.0.0", "info": {"title": "LoginApp API", "version": "1"},
                "paths": {"/api/search": get("q", "todo"), "/api/people": get("name", "nobody"),
                          "/api/people-safe": get("name", "nobody")}})
        elif url.path == "/account":
            if self.session() is None:
                return self.to_login(url)
            self.send(200, page("Account", '<form method="post" action="/notes/add"><input name="text" value="todo">'
                                '<input type="submit" value="Add note"></form>'
                                '<form method="post" action="/account/password">'
                                '<input type="password" name="new_password"><input type="submit" value="Change"></form>'))
        elif url.path in ("/dashboard", "/notes", "/profile"):
            if self.session() is None:
                return self.to_login(url)
            if url.path == "/dashboard":
                body = ('<p>Signed in as %s.</p><ul><li><a href="/notes?q=todo">Notes</a></li>'
                        '<li><a href="/profile?name=carol">Profile</a></li><li><a href="/account">Account</a></li>'
                        '<li><a href="/logout">Sign out</a></li></ul>'
                        % USER)
                self.send(200, page("Dashboard", body))
            elif url.path == "/notes":
                q = query.get("q", ["todo"])[0]
                self.send(200, page("Notes", "<p>Signed in as %s. No notes match %s.</p>" % (USER, q)))  # VULNERABLE
            else:
                name = query.get("name", ["carol"])[0]
                self.send(200, page("Profile", "<p>Signed in as %s. Name: %s</p>" % (USER, html.escape(name))))
        else:
            self.send(404, page("Not found", "<p>Nothing here.</p>"))

    def do_POST(self):
        global PASSWORD
        url = urllib.parse.urlsplit(self.path)
        length = min(int(self.headers.get("Content-Length") or 0), 1 << 16)
        if url.path == "/api/login":
            try:
                sent = json.loads(self.rfile.read(length) or b"{}")
            except ValueError:
                return self.send_json(400, {"error": "not JSON"})
            if not isinstance(sent, dict) or sent.get("user") != USER or sent.get("pass") != PASSWORD:
                return self.send_json(403, {"error": "invalid user or password"})
            token = secrets.token_hex(16)
            with STATE.lock:
                STATE.sessions[token] = STATE.session_requests
                STATE.logins += 1
            return self.send_json(200, {"data": {"token": token}})
        form = urllib.parse.parse_qs(self.rfile.read(length).decode("utf-8", "replace"))
        if url.path in ("/notes/add", "/account/password"):
            if self.session() is None:
                return self.to_login(url)
            if url.path == "/notes/add":
                text = form.get("text", [""])[0]
                return self.send(200, page("Note added", "<p>Signed in as %s. Added: %s</p>" % (USER, text)))  # VULNERABLE
            with STATE.lock:
                PASSWORD = form.get("new_password", [PASSWORD])[0]
                STATE.sessions.clear()
            return self.send(200, page("Password changed", "<p>Sign in again.</p>"))
        if url.path != "/login":
            return self.send(404, page("Not found", "<p>Nothing here.</p>"))
        pre = self.cookies().get("pre", "")
        with STATE.lock:
            token_ok = pre and STATE.tokens.get(pre) == form.get("csrf_token", [""])[0]
        if not token_ok:
            return self.login_form('<p class="error">Your form expired, try again.</p>')
        if form.get("user", [""])[0] != USER or form.get("pass", [""])[0] != PASSWORD:
            return self.login_form('<p class="error">Invalid user or password.</p>')
        sid = secrets.token_hex(16)
        with STATE.lock:
            STATE.sessions[sid] = STATE.session_requests
            STATE.logins += 1
        self.send(303, headers=[("Location", "/dashboard"), ("Set-Cookie", "sid=%s; Path=/; HttpOnly" % sid)])


def main():
    global STATE
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--port-file")
    parser.add_argument("--session-requests", type=int, default=None)
    args = parser.parse_args()
    STATE = State(args.session_requests)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    server.daemon_threads = True
    if args.port_file:
        temporary = args.port_file + ".tmp"
        with open(temporary, "w") as f:
            f.write(str(server.server_address[1]))
        os.rename(temporary, args.port_file)
    server.serve_forever()


if __name__ == "__main__":
    main()
