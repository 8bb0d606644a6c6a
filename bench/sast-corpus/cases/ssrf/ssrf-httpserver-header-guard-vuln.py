import logging
import urllib.request
from http.server import BaseHTTPRequestHandler, HTTPServer

PEERS = {"node-a.internal", "node-b.internal"}


class SyncHandler(BaseHTTPRequestHandler):
    def do_POST(self):
        peer = self.headers.get("X-Peer", "").strip().lower()
        if peer not in PEERS:
            logging.warning("unknown peer %s", peer)
        with urllib.request.urlopen(f"http://{peer}:8080/state", timeout=5) as resp:
            state = resp.read()
        self.send_response(200)
        self.end_headers()
        self.wfile.write(state)


if __name__ == "__main__":
    HTTPServer(("127.0.0.1", 8000), SyncHandler).serve_forever()
