"""The tiny vulnerable site report.json was recorded against (see README.md beside it).

/            an index linking to the search page, with no security headers at all
/search?q=   echoes q into the page unescaped: a reflected XSS
"""
import http.server
import sys
import urllib.parse

INDEX = b"""<html><head><title>shop</title></head><body>
<a href="/search?q=shoes">search</a>
<form action="/search" method="get"><input name="q" value=""><input type="submit"></form>
</body></html>"""


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        if url.path == "/":
            self.reply(INDEX)
        elif url.path == "/search":
            query = urllib.parse.parse_qs(url.query).get("q", [""])[0]
            self.reply(("<html><body><p>Results for " + query + "</p></body></html>").encode())
        else:
            self.send_error(404)

    def reply(self, body):
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Set-Cookie", "session=abc123; Path=/")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


if __name__ == "__main__":
    port = int(sys.argv[1]) if len(sys.argv) > 1 else 8765
    http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler).serve_forever()
