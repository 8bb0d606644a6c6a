import os

from fastapi import FastAPI
from fastapi.responses import FileResponse

app = FastAPI()
AVATARS = "/srv/avatars"


@app.get("/avatars")
def avatar(name: str):
    safe_name = os.path.normpath(name)
    return FileResponse(os.path.join(AVATARS, safe_name))
