import secrets
from http.server import BaseHTTPRequestHandler, HTTPServer


class LoginHandler(BaseHTTPRequestHandler):
    def do_POST(self):
        sid = secrets.token_urlsafe(32)
        self.send_response(204)
        self.send_header("Set-Cookie", f"sid={sid}; Path=/; SameSite=Lax; Secure; HttpOnly")
        self.end_headers()


if __name__ == "__main__":
    HTTPServer(("127.0.0.1", 8000), LoginHandler).serve_forever()
