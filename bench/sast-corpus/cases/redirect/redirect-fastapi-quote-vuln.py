from urllib.parse import quote

from fastapi import FastAPI
from fastapi.responses import RedirectResponse

app = FastAPI()


@app.get("/sso/callback")
def sso_callback(return_to: str = "/"):
    return RedirectResponse(url=return_to, status_code=303)
