import hashlib
import os

from fastapi import FastAPI, Form

app = FastAPI()
CREDENTIALS: dict[str, tuple[bytes, bytes]] = {}


@app.post("/password")
def set_password(user: str = Form(...), password: str = Form(...)):
    salt = os.urandom(16)
    key = hashlib.pbkdf2_hmac("sha256", password.encode(), salt, 600_000)
    CREDENTIALS[user] = (salt, key)
    return {"ok": True}
