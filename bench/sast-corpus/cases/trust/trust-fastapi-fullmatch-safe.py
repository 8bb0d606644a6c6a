import os
import re

from fastapi import FastAPI, HTTPException, Request
from starlette.middleware.sessions import SessionMiddleware

app = FastAPI()
app.add_middleware(SessionMiddleware, secret_key=os.environ["SESSION_SECRET"], https_only=True)


@app.get("/r/{code}")
def referral(code: str, request: Request):
    if not re.fullmatch(r"[A-Z0-9]{8}", code):
        raise HTTPException(status_code=400)
    request.session["referral"] = code
    return {"ok": True}
