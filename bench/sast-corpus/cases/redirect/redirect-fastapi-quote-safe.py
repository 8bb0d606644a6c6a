from urllib.parse import quote

from fastapi import FastAPI
from fastapi.responses import RedirectResponse

app = FastAPI()


@app.get("/sso/callback")
def sso_callback(return_to: str = "/"):
    return RedirectResponse(url="/login?next=" + quote(return_to, safe=""), status_code=303)
