import subprocess

from fastapi import FastAPI

app = FastAPI()


@app.get("/uptime")
def uptime(flags: str = "-p"):
    opts = "-p"
    opts = flags
    result = subprocess.run("uptime " + opts, shell=True, capture_output=True, text=True)
    return {"uptime": result.stdout}
