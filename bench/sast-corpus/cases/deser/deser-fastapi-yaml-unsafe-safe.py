import yaml
from fastapi import FastAPI, UploadFile

app = FastAPI()


@app.post("/config")
async def upload_config(file: UploadFile):
    data = await file.read()
    config = yaml.safe_load(data)
    return {"sections": list(config)}
