import hashlib
import os

from fastapi import FastAPI
from pydantic import BaseModel

app = FastAPI()
USERS: dict[str, tuple[bytes, str]] = {}


class Signup(BaseModel):
    username: str
    password: str


@app.post("/signup")
def signup(body: Signup):
    salt = os.urandom(16)
    hashed = hashlib.scrypt(body.password.encode(), salt=salt, n=2**14, r=8, p=1).hex()
    USERS[body.username] = (salt, hashed)
    return {"created": body.username}
