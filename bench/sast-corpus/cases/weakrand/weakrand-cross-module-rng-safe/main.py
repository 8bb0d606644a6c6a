from fastapi import FastAPI

from helpers.utils import temporary_password

app = FastAPI()


@app.post("/users/{name}/reset")
def reset(name: str):
    password = temporary_password()
    return {"user": name, "temporary_password": password}
