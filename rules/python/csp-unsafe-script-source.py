from http.server import BaseHTTPRequestHandler


class Handler(BaseHTTPRequestHandler):
    def do_GET(self):
        # ruleid: python.csp-unsafe-script-source
        self.send_header('Content-Security-Policy', "default-src * 'unsafe-inline'")
        # ok: python.csp-unsafe-script-source
        self.send_header('Content-Security-Policy', "default-src 'self'; style-src 'self' 'unsafe-inline'")
        # ok: python.csp-unsafe-script-source
        self.send_header('X-Content-Type-Options', "nosniff")
        self.end_headers()


def add_headers(response):
    # ruleid: python.csp-unsafe-script-source
    response.headers["Content-Security-Policy"] = "script-src 'self' 'unsafe-eval'"
    # ruleid: python.csp-unsafe-script-source
    response["content-security-policy"] = "default-src https:; img-src *"
    # ok: python.csp-unsafe-script-source
    response.headers["Content-Security-Policy"] = "default-src 'self'; script-src 'self' https://cdn.example.com; img-src *"
    return response


# ruleid: python.csp-unsafe-script-source
CSP_SCRIPT_SRC = ("'self'", "'unsafe-inline'")
# ok: python.csp-unsafe-script-source
CSP_STYLE_SRC = ("'self'", "'unsafe-inline'")
# ok: python.csp-unsafe-script-source
CSP_DEFAULT_SRC = ("'self'",)
