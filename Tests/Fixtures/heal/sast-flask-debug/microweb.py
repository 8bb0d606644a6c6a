"""A minimal WSGI framework used by this project (Flask-like run())."""

import json
from wsgiref.simple_server import make_server


class App:
    def __init__(self):
        self.routes = {}
        self.debug = False

    def route(self, path):
        def register(handler):
            self.routes[path] = handler
            return handler

        return register

    def __call__(self, environ, start_response):
        handler = self.routes.get(environ.get("PATH_INFO", "/"))
        if handler is None:
            start_response("404 Not Found", [("Content-Type", "text/plain")])
            return [b"not found"]
        try:
            body = json.dumps(handler()).encode("utf-8")
        except Exception as error:
            if not self.debug:
                raise
            start_response("500 Internal Server Error", [("Content-Type", "text/plain")])
            return [repr(error).encode("utf-8")]
        start_response("200 OK", [("Content-Type", "application/json")])
        return [body]

    def run(self, host="127.0.0.1", port=8000, debug=False):
        self.debug = debug
        with make_server(host, port, self) as server:
            server.serve_forever()
