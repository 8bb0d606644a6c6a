from fastapi import FastAPI
from ldap3 import Connection, Server
from ldap3.utils.conv import escape_filter_chars

app = FastAPI()
server = Server("ldaps://ldap.example.com")


@app.get("/people")
def people(mail: str):
    conn = Connection(server, auto_bind=True)
    conn.search("ou=people,dc=example,dc=com", f"(mail={escape_filter_chars(mail)})", attributes=["cn"])
    return {"cn": [str(e.cn) for e in conn.entries]}
