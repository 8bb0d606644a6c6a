from fastapi import FastAPI
from fastapi.responses import HTMLResponse, PlainTextResponse

app = FastAPI()


@app.get("/hello")
def hello(name: str = "world"):
    return PlainTextResponse(f"<h1>Hello, {name}</h1>")
