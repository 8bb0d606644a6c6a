from http.server import BaseHTTPRequestHandler, HTTPServer

from lxml import etree

PARSER = etree.XMLParser(resolve_entities=True)
BUNDLED = "/opt/app/share/defaults.xml"


class ConfigHandler(BaseHTTPRequestHandler):
    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(length)
        data = body
        root = etree.fromstring(data, PARSER)
        self.send_response(200)
        self.end_headers()
        self.wfile.write(etree.tostring(root))


if __name__ == "__main__":
    HTTPServer(("127.0.0.1", 8000), ConfigHandler).serve_forever()
