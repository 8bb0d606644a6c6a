import re

from fastapi import FastAPI, HTTPException

app = FastAPI()


@app.get("/calc")
def calc(expr: str):
    if not re.fullmatch(r"[0-9+\-*/ ().]+", expr):
        raise HTTPException(status_code=400)
    return {"result": eval(expr, {"__builtins__": {}}, {})}
