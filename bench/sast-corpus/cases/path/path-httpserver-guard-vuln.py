import os
from http.server import BaseHTTPRequestHandler, HTTPServer
from urllib.parse import unquote, urlparse

ROOT = "/srv/www"


class FileHandler(BaseHTTPRequestHandler):
    def do_GET(self):
        rel = unquote(urlparse(self.path).path).lstrip("/")
        full = os.path.realpath(os.path.join(ROOT, rel))
        with open(full, "rb") as fh:
            body = fh.read()
        self.send_response(200)
        self.end_headers()
        self.wfile.write(body)


if __name__ == "__main__":
    HTTPServer(("127.0.0.1", 8000), FileHandler).serve_forever()
