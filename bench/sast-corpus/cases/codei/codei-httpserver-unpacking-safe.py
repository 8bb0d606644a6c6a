from http.server import BaseHTTPRequestHandler, HTTPServer


class CalcHandler(BaseHTTPRequestHandler):
    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        default, submitted = "1 + 1", self.rfile.read(length).decode()
        result = eval(default)
        self.send_response(200)
        self.end_headers()
        self.wfile.write(str(result).encode())


if __name__ == "__main__":
    HTTPServer(("127.0.0.1", 8000), CalcHandler).serve_forever()
