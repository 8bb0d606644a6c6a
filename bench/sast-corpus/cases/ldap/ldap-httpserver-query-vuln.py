from http.server import BaseHTTPRequestHandler, HTTPServer
from urllib.parse import parse_qs, urlparse

import ldap
from ldap.filter import escape_filter_chars


class WhoisHandler(BaseHTTPRequestHandler):
    def do_GET(self):
        uid = parse_qs(urlparse(self.path).query).get("uid", [""])[0]
        conn = ldap.initialize("ldap://127.0.0.1")
        res = conn.search_s("dc=example,dc=com", ldap.SCOPE_SUBTREE, "(uid=%s)" % uid)
        self.send_response(200 if res else 404)
        self.end_headers()


if __name__ == "__main__":
    HTTPServer(("127.0.0.1", 8000), WhoisHandler).serve_forever()
