from http.server import BaseHTTPRequestHandler, HTTPServer

from lxml import etree

KEYS = etree.parse("/srv/apikeys.xml")


class KeyHandler(BaseHTTPRequestHandler):
    def do_GET(self):
        key = self.headers.get("X-Api-Key", "")
        found = KEYS.xpath("count(//key[@value=$k])", k=key)
        self.send_response(200 if found else 403)
        self.end_headers()


if __name__ == "__main__":
    HTTPServer(("127.0.0.1", 8000), KeyHandler).serve_forever()
