import random
import string
from http.server import BaseHTTPRequestHandler, HTTPServer

POOL = list(string.ascii_letters + string.digits)


class AccountHandler(BaseHTTPRequestHandler):
    def do_POST(self):
        chars = POOL[:]
        random.shuffle(chars)
        initial_password = "".join(chars[:14])
        self.send_response(201)
        self.send_header("Content-Type", "text/plain")
        self.end_headers()
        self.wfile.write(initial_password.encode())


if __name__ == "__main__":
    HTTPServer(("127.0.0.1", 8000), AccountHandler).serve_forever()
