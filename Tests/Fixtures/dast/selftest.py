#!/usr/bin/env python3
"""Self-test for vulnapp.py against expected.json (standard library only).

Starts the app on an ephemeral loopback port, then for every manifest entry sends a real exploit
to the vulnerable endpoint (it must work) and the same exploit to its safe twin (it must not).
Also checks discovery (a small crawler, robots, sitemap, OpenAPI), out-of-scope links, the
bad-input helpers and a clean SIGTERM exit. Exit 0 on success, 1 with the list of failures.

Usage: python3 selftest.py [-v]   (the app runs under the same interpreter as this script)
"""

import base64
import http.client
import json
import os
import pickle
import re
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import zipfile
from html.parser import HTMLParser
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from io import BytesIO

HERE = os.path.dirname(os.path.abspath(__file__))
VERBOSE = "-v" in sys.argv
MANIFEST = json.load(open(os.path.join(HERE, "expected.json")))
FAILURES = []
PORT = None
RUN = secrets.token_hex(4)  # makes markers unique per run


def fail(msg):
    FAILURES.append(msg)
    print("FAIL " + msg, flush=True)


def ok(msg):
    if VERBOSE:
        print("ok   " + msg, flush=True)


def expect(cond, msg):
    (ok if cond else fail)(msg)
    return cond


# ---------------------------------------------------------------------------------------------
# HTTP helpers
# ---------------------------------------------------------------------------------------------


class Resp:
    def __init__(self, status, headers, body, elapsed):
        self.status, self.headers, self.raw, self.elapsed = status, headers, body, elapsed
        self.body = body.decode("utf-8", "replace")

    def header(self, name):
        return next((v for k, v in self.headers if k.lower() == name.lower()), None)

    def all(self, name):
        return [v for k, v in self.headers if k.lower() == name.lower()]


def request(method, path, params=None, form=None, json_body=None, body=None, ctype=None, headers=None,
            cookies=None, timeout=20):
    url = path + ("?" + urllib.parse.urlencode(params) if params else "")
    hdrs = dict(headers or {})
    data = None
    if form is not None:
        data, hdrs["Content-Type"] = urllib.parse.urlencode(form).encode(), "application/x-www-form-urlencoded"
    elif json_body is not None:
        data, hdrs["Content-Type"] = json.dumps(json_body).encode(), "application/json"
    elif body is not None:
        data, hdrs["Content-Type"] = body.encode() if isinstance(body, str) else body, ctype or "application/xml"
    if cookies:
        hdrs["Cookie"] = "; ".join("%s=%s" % kv for kv in cookies.items())
    conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=timeout)
    start = time.monotonic()
    try:
        conn.request(method, url, body=data, headers=hdrs)
        r = conn.getresponse()
        raw = r.read()
        return Resp(r.status, r.getheaders(), raw, time.monotonic() - start)
    finally:
        conn.close()


def get(path, **kw):
    return request("GET", path, **kw)


def send(target, payload, **kw):
    """Sends payload in the target's parameter, wherever the manifest says it goes."""
    where, name = target["in"], target["parameter"]
    if where == "query":
        return request(target["method"], target["path"], params={name: payload}, **kw)
    if where == "form":
        return request(target["method"], target["path"], form={name: payload}, **kw)
    if where == "json":
        return request(target["method"], target["path"], json_body={name: payload}, **kw)
    if where == "cookie":
        return request(target["method"], target["path"], cookies={name: payload}, **kw)
    if where == "body":
        return request(target["method"], target["path"], body=payload, ctype=target.get("contentType"), **kw)
    raise ValueError(where)


class Tags(HTMLParser):
    """Start tags with attributes, and the text of <script> elements."""

    def __init__(self, text):
        super().__init__(convert_charrefs=True)
        self.tags, self.scripts, self._script = [], [], False
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        self._script = tag == "script"

    def handle_endtag(self, tag):
        self._script = False

    def handle_data(self, data):
        if self._script:
            self.scripts.append(data)


def has_attr(html_text, attr, value, tag=None):
    return any(a.get(attr) == value and (tag is None or t == tag) for t, a in Tags(html_text).tags)


def injected_svg(r, marker):
    # The payload <svg id=MARKER onload=alert(1337)> parsed as a real element with an event handler.
    return "html" in (r.header("Content-Type") or "") and any(
        t == "svg" and a.get("id") == marker and a.get("onload") == "alert(1337)" for t, a in Tags(r.body).tags)


# ---------------------------------------------------------------------------------------------
# Helper servers
# ---------------------------------------------------------------------------------------------


class MarkerServer:
    """A tiny http.server on 127.0.0.1 answering a marker, to prove SSRF/XXE fetches."""

    def __init__(self):
        self.marker = "SSRF-MARKER-" + RUN
        self.hits = []
        outer = self

        class H(BaseHTTPRequestHandler):
            def do_GET(self):
                outer.hits.append(self.path)
                body = outer.marker.encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/plain")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *a):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), H)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def url(self, path):
        return "http://127.0.0.1:%d%s" % (self.port, path)


def start_app():
    tmp = tempfile.mkdtemp(prefix="vulnapp-selftest-")
    port_file = os.path.join(tmp, "port")
    proc = subprocess.Popen([sys.executable, os.path.join(HERE, "vulnapp.py"), "--port", "0", "--port-file", port_file],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 15
    while not os.path.exists(port_file):
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            sys.exit("vulnapp.py did not start: " + proc.stderr.read().decode(errors="replace"))
        time.sleep(0.05)
    port = int(open(port_file).read())
    printed = proc.stdout.readline().decode().strip()
    expect(printed == str(port), "app prints its port (%r)" % printed)
    expect(not os.path.exists(port_file + ".tmp"), "port file written atomically (no .tmp left)")
    os.remove(port_file)
    os.rmdir(tmp)
    return proc, port


# ---------------------------------------------------------------------------------------------
# Vulnerability checks: each returns (exploited, detail) for one side (vulnerable or twin)
# ---------------------------------------------------------------------------------------------

MARK = None  # the SSRF/XXE marker server


def xss_svg(t):
    marker = "x" + RUN
    payload = "<svg id=%s onload=alert(1337)>" % marker
    if t.get("display"):  # stored: post, then look at the display page
        send(t, payload)
        r = request(t["display"]["method"], t["display"]["path"], headers=t.get("headers"))
    else:
        r = send(t, payload, headers=t.get("headers"))
    return injected_svg(r, marker), "HTTP %d" % r.status


def xss_attr_quoted(t):
    marker = "x" + RUN
    r = send(t, "\"><svg id=%s onload=alert(1337)>" % marker)
    return injected_svg(r, marker), "HTTP %d" % r.status


def xss_attr_unquoted(t):
    # No < > " &: escaping alone changes nothing, only quoting does; look for a real new attribute.
    r = send(t, "x%s onmouseover=alert(1337)" % RUN)
    return has_attr(r.body, "onmouseover", "alert(1337)"), "HTTP %d" % r.status


def xss_js_string(t):
    r1 = send(t, "';alert(1337);//")
    broke_out = any(re.search(r"=\s*'';alert\(1337\);//", s) for s in Tags(r1.body).scripts)
    marker = "x" + RUN
    r2 = send(t, "</script><svg id=%s onload=alert(1337)>" % marker)
    return broke_out and injected_svg(r2, marker), "string breakout=%s, </script> breakout=%s" % (
        broke_out, injected_svg(r2, marker))


def jsonp_callback(t):
    r = send(t, "alert(1337)//")
    ctype = r.header("Content-Type") or ""
    return r.status == 200 and "javascript" in ctype and r.body.startswith("alert(1337)//("), "HTTP %d %s" % (
        r.status, ctype)


def sqli_error(t):
    r = send(t, "books'")
    hit = r.status == 500 and "sqlite3.OperationalError" in r.body and "unrecognized token" in r.body
    return hit, "HTTP %d" % r.status


BOOLEAN_PAYLOADS = {"sqli-boolean-numeric": ("1", "1 AND 1=1", "1 AND 1=2"),
                    "sqli-boolean-string": ("alice", "alice' AND '1'='1", "alice' AND '1'='2")}


def sqli_boolean(t):
    base, true, false = BOOLEAN_PAYLOADS[t["id"]]
    b, tr, fa = send(t, base).body, send(t, true).body, send(t, false).body
    return tr == b and fa != tr, "true==base: %s, false!=true: %s" % (tr == b, fa != tr)


def delayed(t, benign, payload, seconds=2):
    base = send(t, benign).elapsed
    r = send(t, payload)
    return r.elapsed >= seconds - 0.1 and base < 1.0, "baseline %.2fs, payload %.2fs" % (base, r.elapsed)


def sqli_time(t):
    return delayed(t, "A1001", "A1001' AND SLEEP(2)-- ")


def cmdi_output(t):
    r = send(t, "127.0.0.1;echo CMDI$((7*191))X")  # the marker only exists if the shell ran it
    return "CMDI1337X" in r.body, "HTTP %d" % r.status


def cmdi_blind(t):
    return delayed(t, "user@example.com", "user@example.com;sleep 2;")


def path_traversal(t):
    r = send(t, "../../../../../../../../etc/passwd")
    return "root:x:0:0" in r.body, "HTTP %d" % r.status


def code_eval(t):
    r = send(t, "str(7*191)+chr(120)")  # Python-only syntax; bare arithmetic is a legit calculator
    return "1337x" in r.body, "HTTP %d" % r.status


def ssti(t):
    r = send(t, "{{7*191}}")
    card = re.search(r'<div class="card"><p>(.*?)</p>', r.body)  # the form echoes the input; look at the card
    rendered = card.group(1) if card else ""
    return "1337" in rendered and "{{7*191}}" not in rendered, "HTTP %d card %r" % (r.status, rendered)


def open_redirect(t):
    r = send(t, "http://out-of-scope.invalid/owned")
    loc = r.header("Location") or ""
    return r.status in (301, 302, 303, 307, 308) and urllib.parse.urlsplit(loc).hostname == "out-of-scope.invalid", \
        "HTTP %d Location %r" % (r.status, loc)


def ssrf(t):
    path = "/ssrf-%s-%s" % (t["side"], RUN)
    r = send(t, MARK.url(path))
    return MARK.marker in r.body and path in MARK.hits, "HTTP %d, marker server hit: %s" % (r.status, path in MARK.hits)


def xxe(t):
    path = "/xxe-%s-%s" % (t["side"], RUN)
    doc = "<?xml version=\"1.0\"?>\n<!DOCTYPE order [<!ENTITY xxe SYSTEM \"%s\">]>\n<order><item>&xxe;</item></order>"
    r1 = send(t, doc % MARK.url(path))
    r2 = send(t, doc % "file:///etc/passwd")
    http_hit, file_hit = MARK.marker in r1.body and path in MARK.hits, "root:x:0:0" in r2.body
    return http_hit and file_hit, "http entity: %s, file entity: %s" % (http_hit, file_hit)


def crlf(t):
    r = send(t, "en\r\nX-Injected: crlf-" + RUN)
    injected = r.header("X-Injected") or ""
    return injected.startswith("crlf-" + RUN), "HTTP %d X-Injected=%r" % (r.status, injected)


def count_in(body, pattern):
    m = re.search(pattern, body)
    return int(m.group(1)) if m else -1


def tautology_and_error(t, benign, tautology, broken, count_re, error_text):
    base = count_in(send(t, benign).body, count_re)
    taut = count_in(send(t, tautology).body, count_re)
    err = send(t, broken)
    has_error = error_text in err.body
    return taut > base >= 0 and has_error, "baseline %d, tautology %d, error shown: %s" % (base, taut, has_error)


def xpath(t):
    return tautology_and_error(t, "alice", "' or '1'='1", "'", r"(\d+) user\(s\) found", "XPathEvalError")


def ldap(t):
    return tautology_and_error(t, "alice", "*)(uid=*))(|(uid=*", "alice)(", r"(\d+) entr", "Bad search filter")


def deserialization(t):
    marker = "PICKLE-" + RUN
    # A pickle of a plain dict: proves unpickling without executing anything.
    cookie = base64.b64encode(pickle.dumps({"theme": marker})).decode()
    r = send(t, cookie)
    return marker in r.body, "HTTP %d" % r.status


CHECKS = {
    "xss-reflected-body": xss_svg, "xss-reflected-attr-quoted": xss_attr_quoted,
    "xss-reflected-attr-unquoted": xss_attr_unquoted, "xss-reflected-js-string": xss_js_string,
    "xss-jsonp-callback": jsonp_callback, "xss-stored-guestbook": xss_svg, "xss-reflected-post-form": xss_svg,
    "xss-reflected-json-body": xss_svg, "xss-reflected-auth-only": xss_svg,
    "sqli-error": sqli_error, "sqli-boolean-numeric": sqli_boolean, "sqli-boolean-string": sqli_boolean,
    "sqli-time": sqli_time, "cmdi-output": cmdi_output, "cmdi-blind-time": cmdi_blind,
    "path-traversal": path_traversal, "code-eval": code_eval, "ssti": ssti, "open-redirect": open_redirect,
    "ssrf": ssrf, "xxe": xxe, "crlf-header-injection": crlf, "xpath-injection": xpath, "ldap-injection": ldap,
    "insecure-deserialization": deserialization,
}


def sides(entry):
    auth = {"Authorization": "Bearer " + MANIFEST["auth"]["bearer"]} if entry.get("requiresAuth") else None
    common = {"id": entry["id"], "in": entry["in"], "contentType": entry.get("contentType"), "headers": auth}
    vuln = dict(common, side="vuln", method=entry["method"], path=entry["path"], parameter=entry["parameter"],
                display=entry.get("displayedAt"))
    twin = dict(common, side="twin", method=entry["twin"]["method"], path=entry["twin"]["path"],
                parameter=entry["twin"]["parameter"], display=entry.get("twinDisplayedAt"))
    return vuln, twin


def check_vulnerabilities():
    for entry in MANIFEST["vulnerabilities"]:
        fn = CHECKS.get(entry["id"])
        if fn is None:
            fail("%s: no self-test check for this manifest entry" % entry["id"])
            continue
        vuln, twin = sides(entry)
        try:
            hit, detail = fn(vuln)
            expect(hit, "%s: exploit works on %s %s (%s)" % (entry["id"], vuln["method"], vuln["path"], detail))
            hit, detail = fn(twin)
            expect(not hit, "%s: twin %s %s is not exploitable (%s)" % (entry["id"], twin["method"], twin["path"], detail))
        except Exception as e:  # noqa: BLE001 - report and go on
            fail("%s: check raised %s: %s" % (entry["id"], type(e).__name__, e))
        # Benign input answers normally on both.
        for t in (vuln, twin):
            if t["in"] in ("query", "form", "json") and not t.get("display"):
                r = send(t, entry["example"].replace("{port}", str(PORT)), headers=t.get("headers"))
                expect(r.status in (200, 302), "%s: benign %r on %s answers normally (got %d)" % (
                    entry["id"], entry["example"], t["path"], r.status))


def extra_vulnerability_checks():
    # Auth-only endpoint: 401 without credentials; the login cookie works as well as the bearer.
    expect(get("/account/search", params={"q": "invoice"}).status == 401, "/account/search is 401 without auth")
    expect(get("/account").status == 401, "/account is 401 without auth")
    login = request("POST", "/login", form={"username": "alice", "password": "wonderland"})
    token = re.search(r"session=([0-9a-f]+)", login.header("Set-Cookie") or "")
    expect(token is not None, "/login sets a session cookie")
    if token:
        r = get("/account", cookies={"session": token.group(1)})
        expect(r.status == 200 and "/account/search?q=invoice" in r.body, "/account with the session links to search")
    # Signed preferences: a valid cookie round-trips, a re-signed-by-nobody edit is refused.
    r = get("/safe/prefs")
    cookie = re.search(r"safe_prefs=([^;]+)", r.header("Set-Cookie") or "")
    if expect(cookie is not None, "/safe/prefs sets safe_prefs"):
        value = cookie.group(1)
        expect(get("/safe/prefs", cookies={"safe_prefs": value}).status == 200, "/safe/prefs accepts its own cookie")
        payload, _, mac = value.rpartition(".")
        forged = base64.urlsafe_b64encode(json.dumps({"theme": "forged"}).encode()).decode() + "." + mac
        expect(get("/safe/prefs", cookies={"safe_prefs": forged}).status == 400, "/safe/prefs refuses a tampered cookie")
    r = get("/prefs")
    expect("prefs=" in (r.header("Set-Cookie") or ""), "/prefs sets the pickle cookie on first visit")
    # Threaded: two 2 s SLEEP probes in parallel finish in about 2 s, not 4.
    start, threads = time.monotonic(), []
    for _ in range(2):
        th = threading.Thread(target=get, args=("/orders/track",), kwargs={"params": {"ref": "A1001' AND SLEEP(2)-- "}})
        th.start()
        threads.append(th)
    for th in threads:
        th.join()
    took = time.monotonic() - start
    expect(took < 3.5, "concurrent time-based probes run in parallel (%.2fs)" % took)
    # A burst of 60 concurrent connections is served promptly (no dropped connections).
    results, start = [], time.monotonic()
    burst = [threading.Thread(target=lambda: results.append(get("/xss/reflect", params={"q": "x"}).status))
             for _ in range(60)]
    for th in burst:
        th.start()
    for th in burst:
        th.join()
    took = time.monotonic() - start
    expect(results == [200] * 60 and took < 5, "a burst of 60 concurrent requests is served (%.2fs)" % took)


# ---------------------------------------------------------------------------------------------
# Passive checks
# ---------------------------------------------------------------------------------------------


def login_cookie(path):
    r = request("POST", path, form={"username": "alice", "password": "wonderland"})
    return next((c for c in r.all("Set-Cookie") if c.startswith("session=")), "")


def cookie_has(cookie, attr):
    return any(p.strip().lower().startswith(attr.lower()) for p in cookie.split(";")[1:])


def check_passive():
    home, secure = get("/"), get("/secure")
    for entry in MANIFEST["passive"]:
        pid, path = entry["id"], entry["path"]
        try:
            if pid == "missing-csp":
                expect(home.header("Content-Security-Policy") is None, "missing-csp: / has no CSP")
                expect("frame-ancestors 'none'" in (secure.header("Content-Security-Policy") or ""),
                       "missing-csp: twin /secure has a CSP with frame-ancestors 'none'")
            elif pid == "missing-x-content-type-options":
                expect(home.header("X-Content-Type-Options") is None, "missing XCTO on /")
                expect(secure.header("X-Content-Type-Options") == "nosniff", "/secure sends nosniff")
            elif pid == "clickjacking":
                expect(home.header("X-Frame-Options") is None, "clickjacking: / has no X-Frame-Options")
                expect(secure.header("X-Frame-Options") == "DENY" and secure.header("Referrer-Policy"),
                       "clickjacking: /secure sends X-Frame-Options DENY and Referrer-Policy")
            elif pid in ("cookie-no-httponly", "cookie-no-samesite", "cookie-no-secure"):
                attr = {"cookie-no-httponly": "HttpOnly", "cookie-no-samesite": "SameSite",
                        "cookie-no-secure": "Secure"}[pid]
                vuln = login_cookie(path)
                expect(vuln and not cookie_has(vuln, attr), "%s: %s cookie lacks %s (%r)" % (pid, path, attr, vuln))
                if entry["twin"]:
                    safe = login_cookie(entry["twin"]["path"])
                    expect(cookie_has(safe, attr), "%s: twin cookie has %s (%r)" % (pid, attr, safe))
            elif entry["class"] == "server-banner":
                for r, what in ((get(path), path), (get("/no-such-page-" + RUN), "a 404")):
                    if entry["header"] == "X-Powered-By" and what != path:
                        continue
                    expect(r.header(entry["header"]) == entry["value"], "%s: %s: %s on %s" % (
                        pid, entry["header"], entry["value"], what))
            elif pid == "directory-listing":
                r = get(path)
                files = re.findall(r'<a href="([^"./][^"]*)">', r.body)
                expect("Index of /static/" in r.body and files, "directory listing at /static/ (%s)" % files)
                for name in files:
                    expect(get("/static/" + name).status == 200, "listed file /static/%s is served" % name)
            elif pid == "stack-trace":
                r = get(path, params={"item": "abc"})
                expect(r.status == 500 and "Traceback (most recent call last):" in r.body, "/debug?item=abc: traceback")
                expect(get(path, params={"item": "1"}).status == 200, "/debug?item=1 answers 200")
                r = get(entry["twin"]["path"], params={"item": "abc"})
                expect("Traceback" not in r.body, "twin /safe/debug shows no traceback (HTTP %d)" % r.status)
            elif pid == "cors-credentials-reflected":
                evil = {"Origin": "http://evil.invalid"}
                for method in ("GET", "OPTIONS"):
                    r = request(method, path, headers=evil)
                    expect(r.header("Access-Control-Allow-Origin") == "http://evil.invalid"
                           and r.header("Access-Control-Allow-Credentials") == "true",
                           "%s %s reflects any Origin with credentials" % (method, path))
                    r = request(method, entry["twin"]["path"], headers=evil)
                    expect(r.header("Access-Control-Allow-Origin") is None, "%s twin does not allow evil origin" % method)
                r = get(entry["twin"]["path"], headers={"Origin": "https://app.example.com"})
                expect(r.header("Access-Control-Allow-Origin") == "https://app.example.com", "twin allows its origin")
            elif pid.startswith("exposed-"):
                r = get(path)
                if pid == "exposed-backup-zip":
                    good = r.raw.startswith(b"PK\x03\x04") and "vulnapp/db.sql" in zipfile.ZipFile(BytesIO(r.raw)).namelist()
                else:
                    good = entry["evidence"] in r.body
                expect(r.status == 200 and good, "%s: %s is exposed" % (pid, path))
            else:
                fail("%s: no self-test check for this passive entry" % pid)
        except Exception as e:  # noqa: BLE001
            fail("%s: check raised %s: %s" % (pid, type(e).__name__, e))


# ---------------------------------------------------------------------------------------------
# Discovery: a small same-origin crawler, robots, sitemap, OpenAPI, out-of-scope material
# ---------------------------------------------------------------------------------------------


class Links(HTMLParser):
    def __init__(self, text):
        super().__init__(convert_charrefs=True)
        self.links, self.forms, self._form = [], [], None
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag in ("a", "link") and a.get("href"):
            self.links.append(a["href"])
        elif tag == "script" and a.get("src"):
            self.links.append(a["src"])
        elif tag == "form":
            self._form = {"action": a.get("action", ""), "method": (a.get("method") or "get").upper(), "fields": {}}
            self.forms.append(self._form)
        elif self._form is not None and tag in ("input", "textarea", "select") and a.get("name"):
            if a.get("type") != "submit":
                self._form["fields"].setdefault(a["name"], a.get("value") or "")

    def handle_endtag(self, tag):
        if tag == "form":
            self._form = None


def crawl(start, headers=None, limit=150):
    """GETs same-origin links and GET forms; records every (method, path) seen. Dedupes by
    path + parameter names, so the calendar trap is visited once."""
    origin = "http://127.0.0.1:%d" % PORT
    seen_keys, found, queue, requests_made, foreign = set(), set(), [start], 0, set()
    while queue and requests_made < limit:
        url = queue.pop(0)
        split = urllib.parse.urlsplit(url)
        key = (split.path, tuple(sorted(urllib.parse.parse_qs(split.query, keep_blank_values=True))))
        if key in seen_keys:
            continue
        seen_keys.add(key)
        r = get(split.path + ("?" + split.query if split.query else ""), headers=headers)
        requests_made += 1
        found.add(("GET", split.path))
        if r.status in (301, 302, 303, 307, 308) and r.header("Location"):
            target = urllib.parse.urljoin(origin + url, r.header("Location"))
            if target.startswith(origin + "/"):
                queue.append(target[len(origin):])
            else:
                foreign.add(target)
            continue
        if "html" not in (r.header("Content-Type") or ""):
            continue
        parsed = Links(r.body)
        for href in parsed.links:
            target = urllib.parse.urljoin(origin + url, href)
            if target.startswith(origin + "/"):
                queue.append(target[len(origin):])
            else:
                foreign.add(target)
        for f in parsed.forms:
            target = urllib.parse.urljoin(origin + url, f["action"] or url)
            if not target.startswith(origin + "/"):
                foreign.add(target)
                continue
            path = urllib.parse.urlsplit(target).path
            found.add((f["method"], path))
            if f["method"] == "GET":
                queue.append(path + "?" + urllib.parse.urlencode(f["fields"]))
    return found, foreign, requests_made, seen_keys


def check_discovery():
    found, foreign, n, keys = crawl("/")
    ok("crawler made %d requests, found %d endpoints" % (n, len(found)))
    expect(sum(1 for k in keys if k[0] == "/calendar") == 1, "calendar trap visited once when deduplicating")
    expect(n < 150, "crawl terminates (%d requests)" % n)
    out = [u.replace("{port}", str(PORT)).replace("{otherPort}", str(PORT + 1 if PORT < 65535 else PORT - 1))
           for u in MANIFEST["outOfScope"]]
    home = get("/").body
    robots, sitemap = get("/robots.txt").body, get("/sitemap.xml").body
    go = get("/go", params={"to": "elsewhere"}).header("Location")
    for u in out:
        expect(u in home or u in sitemap or u == go, "out-of-scope %s is offered (home, sitemap or /go)" % u)
    expect(go == "http://out-of-scope.invalid/landing", "/go redirects out of scope")
    expect(("GET", "/go") in found, "/go is linked from the home page")
    for path in MANIFEST["notLinked"]:
        expect(("GET", path) not in found and path not in home, "%s is not linked" % path)

    auth_found, _, _, _ = crawl("/account", headers={"Authorization": "Bearer " + MANIFEST["auth"]["bearer"]})
    spec = json.loads(get("/openapi.json").body)
    for v in MANIFEST["vulnerabilities"]:
        for side, method, path in (("vuln", v["method"], v["path"]), ("twin", v["twin"]["method"], v["twin"]["path"])):
            disc = v["discovery"]
            if disc in ("link", "form"):
                expect((method, path) in found, "%s (%s) %s %s found by crawling /" % (v["id"], side, method, path))
            elif disc == "auth":
                expect((method, path) not in found and (method, path) in auth_found,
                       "%s (%s) %s found only when authenticated" % (v["id"], side, path))
            elif disc == "robots":
                expect((method, path) not in found, "%s (%s) %s not linked from the site" % (v["id"], side, path))
                expect("Disallow: /admin/" in robots and path + "?" in get("/admin/").body,
                       "%s (%s) %s reachable via robots.txt -> /admin/" % (v["id"], side, path))
            elif disc == "sitemap":
                expect((method, path) not in found, "%s (%s) %s not linked from the site" % (v["id"], side, path))
                expect("/sitemap.xml" in robots and path + "?" in sitemap, "%s (%s) %s in sitemap" % (v["id"], side, path))
            elif disc == "openapi":
                op = spec["paths"].get(path, {}).get(method.lower())
                expect(op is not None, "%s (%s) %s %s in openapi.json" % (v["id"], side, method, path))
                if path.startswith("/api/") or path.startswith("/safe/api/"):
                    expect((method, path) not in found, "%s (%s) %s only in openapi.json" % (v["id"], side, path))
    # The OpenAPI document: served from the static file, relative server, $ref, XML example.
    with open(os.path.join(HERE, "openapi.json")) as f:
        expect(json.load(f) == spec, "/openapi.json serves Tests/Fixtures/dast/openapi.json")
    expect(spec.get("servers") == [{"url": "/"}], "openapi servers is [/]")
    expect("$ref" in json.dumps(spec["paths"]["/api/echo"]["post"]["requestBody"]), "requestBody uses $ref")
    expect("example" in spec["paths"]["/xml"]["post"]["requestBody"]["content"]["application/xml"], "XML example")
    expect(("GET", "/xml") in found, "the XML endpoint is explained on a page linked from /")
    # The home page offers every form control type.
    types = {a.get("type", t) for t, a in Tags(home).tags if t in ("input", "select", "textarea")}
    expect({"text", "hidden", "select", "textarea", "email", "number", "checkbox", "password", "submit"} <= types,
           "home page forms use all control types (%s)" % sorted(types))


# ---------------------------------------------------------------------------------------------
# Bad input helpers, 404, loopback binding, shutdown
# ---------------------------------------------------------------------------------------------


def raw_get(path, timeout=5):
    s = socket.create_connection(("127.0.0.1", PORT), timeout=timeout)
    s.sendall(("GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % (path, PORT)).encode())
    return s


def check_robustness():
    hanging = raw_get("/hang")
    time.sleep(0.2)
    start = time.monotonic()
    r = get("/", timeout=5)
    expect(r.status == 200 and time.monotonic() - start < 2, "/ is served while /hang hangs")
    hanging.settimeout(0.3)
    try:
        early = hanging.recv(1)
    except socket.timeout:
        early = b""
    expect(early == b"", "/hang has not answered")
    hanging.close()

    for path, want in (("/huge", "Content-Length: 104857600"), ("/huge-chunked", "Transfer-Encoding: chunked")):
        s = raw_get(path)
        data = b""
        while b"\r\n\r\n" not in data or len(data) < 70000:
            data += s.recv(65536)
        s.close()
        head, _, rest = data.partition(b"\r\n\r\n")
        expect(want in head.decode() and rest.lstrip(b"0123456789abcdef\r\n")[:1000] == b"A" * 1000,
               "%s starts streaming (%s)" % (path, want))
    s = raw_get("/slow-drip")
    start, data = time.monotonic(), b""
    while b"\r\n\r\n" not in data:
        data += s.recv(4096)
    if not data.partition(b"\r\n\r\n")[2]:
        data += s.recv(1)
    s.close()
    expect(data.endswith(b"\r\n\r\nA") and b"Content-Length: 300" in data and time.monotonic() - start < 3,
           "/slow-drip sends its first byte")

    r = get("/no-such-page-" + RUN)
    expect(r.status == 404 and "<html" in r.body and len(r.body) < 2000, "unknown path gives a short 404 page")

    if os.path.exists("/proc/net/tcp"):
        listening = []
        for table in ("/proc/net/tcp", "/proc/net/tcp6"):
            if os.path.exists(table):
                for line in open(table).read().splitlines()[1:]:
                    local, state = line.split()[1], line.split()[3]
                    if state == "0A" and int(local.rsplit(":", 1)[1], 16) == PORT:
                        listening.append(local.rsplit(":", 1)[0])
        expect(listening == ["0100007F"], "listens on 127.0.0.1 only (%s)" % listening)


def main():
    global PORT, MARK
    start = time.monotonic()
    proc, PORT = start_app()
    MARK = MarkerServer()
    try:
        check_vulnerabilities()
        extra_vulnerability_checks()
        check_passive()
        check_discovery()
        check_robustness()
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            code = proc.wait(timeout=5)
            expect(code == 0, "app exits 0 on SIGTERM (got %s)" % code)
        except subprocess.TimeoutExpired:
            proc.kill()
            fail("app did not exit within 5 s of SIGTERM")
        stderr = proc.stderr.read().decode(errors="replace").strip()
        expect(stderr == "", "app wrote nothing to stderr (%r)" % stderr[:500])
    took = time.monotonic() - start
    expect(took < 30, "self-test took %.1fs (< 30 s)" % took)
    n = len(MANIFEST["vulnerabilities"]), len(MANIFEST["passive"])
    if FAILURES:
        print("\n%d failure(s):" % len(FAILURES))
        for f in FAILURES:
            print("  - " + f)
        return 1
    print("selftest passed: %d vulnerabilities + twins, %d passive checks, discovery, robustness (%.1fs, %s)" % (
        n[0], n[1], took, sys.version.split()[0]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
