from fastapi import FastAPI
from pydantic import BaseModel

app = FastAPI()


class Cell(BaseModel):
    source: str


@app.post("/cells/check")
def check_cell(cell: Cell):
    try:
        code = compile(cell.source, "<cell>", "exec")
        exec(code, {})
    except SyntaxError as exc:
        return {"ok": False, "error": str(exc)}
    return {"ok": True}
