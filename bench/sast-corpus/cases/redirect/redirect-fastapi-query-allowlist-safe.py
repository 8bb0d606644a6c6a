from fastapi import FastAPI
from fastapi.responses import RedirectResponse

app = FastAPI()
KNOWN_PATHS = {"/", "/dashboard", "/settings"}


@app.get("/auth/callback")
def callback(next: str = "/"):
    if next not in KNOWN_PATHS:
        next = "/"
    return RedirectResponse(next, status_code=303)
