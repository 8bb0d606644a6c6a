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
    hashed = hashlib.sha256(body.password.encode()).hexdigest()
    USERS[body.username] = (salt, hashed)
    return {"created": body.username}
