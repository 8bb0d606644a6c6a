import re

from fastapi import FastAPI, HTTPException
from ldap3 import Connection, Server

app = FastAPI()
server = Server("ldaps://ldap.example.com")


@app.get("/users/{login}")
def user(login: str):
    if not re.fullmatch(r"[a-z][a-z0-9._-]{0,31}", login):
        raise HTTPException(status_code=400)
    conn = Connection(server, auto_bind=True)
    conn.search("ou=people,dc=example,dc=com", "(uid=" + login + ")", attributes=["mail"])
    return {"found": len(conn.entries)}
