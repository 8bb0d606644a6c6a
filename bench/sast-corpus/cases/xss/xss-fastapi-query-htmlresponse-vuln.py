import html

from fastapi import FastAPI
from fastapi.responses import HTMLResponse

app = FastAPI()


@app.get("/search", response_class=HTMLResponse)
def search(q: str = ""):
    return HTMLResponse(f"<h1>Results for {q}</h1>")
