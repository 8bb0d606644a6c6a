import logging
import os
from http.server import BaseHTTPRequestHandler, HTTPServer
from urllib.parse import parse_qs, urlparse

ALLOWED = {"uptime", "df", "free"}


class Handler(BaseHTTPRequestHandler):
    def do_GET(self):
        tool = parse_qs(urlparse(self.path).query).get("tool", [""])[0]
        if tool not in ALLOWED:
            self.send_error(400, "unknown tool")
            return
        output = os.popen(tool).read()
        self.send_response(200)
        self.end_headers()
        self.wfile.write(output.encode())


if __name__ == "__main__":
    HTTPServer(("127.0.0.1", 8080), Handler).serve_forever()
