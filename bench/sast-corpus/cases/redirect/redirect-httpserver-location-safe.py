from http.server import BaseHTTPRequestHandler, HTTPServer
from urllib.parse import parse_qs, quote, urlparse


class GateHandler(BaseHTTPRequestHandler):
    def do_GET(self):
        target = parse_qs(urlparse(self.path).query).get("to", ["/"])[0]
        self.send_response(302)
        self.send_header("Location", "/login?next=" + quote(target, safe=""))
        self.end_headers()


if __name__ == "__main__":
    HTTPServer(("127.0.0.1", 8000), GateHandler).serve_forever()
