import io

import torch
from fastapi import FastAPI, UploadFile

app = FastAPI()


@app.post("/models")
async def upload_model(file: UploadFile):
    state = torch.load(io.BytesIO(await file.read()), weights_only=False)
    return {"tensors": len(state)}
