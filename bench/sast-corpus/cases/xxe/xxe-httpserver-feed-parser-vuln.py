from http.server import BaseHTTPRequestHandler, HTTPServer

from lxml import etree


class ConfigHandler(BaseHTTPRequestHandler):
    def do_PUT(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        parser = etree.XMLParser(load_dtd=True, resolve_entities=True)
        parser.feed(body)
        root = parser.close()
        self.send_response(200)
        self.end_headers()
        self.wfile.write(str(len(root)).encode())


if __name__ == "__main__":
    HTTPServer(("127.0.0.1", 8000), ConfigHandler).serve_forever()
