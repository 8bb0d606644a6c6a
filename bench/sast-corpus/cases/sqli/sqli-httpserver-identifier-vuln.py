from http.server import BaseHTTPRequestHandler, HTTPServer

import psycopg2
from psycopg2 import sql

conn = psycopg2.connect("dbname=saas")


class TenantHandler(BaseHTTPRequestHandler):
    def do_GET(self):
        tenant = self.headers.get("X-Tenant", "public")
        with conn.cursor() as cur:
            cur.execute("SET search_path TO " + tenant)
            cur.execute("SELECT count(*) FROM accounts")
            count = cur.fetchone()[0]
        self.send_response(200)
        self.end_headers()
        self.wfile.write(str(count).encode())


if __name__ == "__main__":
    HTTPServer(("127.0.0.1", 8000), TenantHandler).serve_forever()
