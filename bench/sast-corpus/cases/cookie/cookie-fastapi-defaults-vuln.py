import secrets

from fastapi import FastAPI, Response

app = FastAPI()


@app.post("/token/refresh")
def refresh(response: Response):
    response.set_cookie(key="refresh_token", value=secrets.token_urlsafe(48))
    return {"ok": True}
