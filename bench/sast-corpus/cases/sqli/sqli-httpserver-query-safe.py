import json
import sqlite3
from http.server import BaseHTTPRequestHandler, HTTPServer
from urllib.parse import parse_qs, urlparse

DB = sqlite3.connect("/srv/notes.db", check_same_thread=False)


class NotesHandler(BaseHTTPRequestHandler):
    def do_GET(self):
        tag = parse_qs(urlparse(self.path).query).get("tag", [""])[0]
        rows = DB.execute("SELECT id, title FROM notes WHERE tag = ?", (tag,)).fetchall()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(json.dumps(rows).encode())


if __name__ == "__main__":
    HTTPServer(("127.0.0.1", 8000), NotesHandler).serve_forever()
