import defusedxml.lxml
from fastapi import FastAPI, UploadFile
from lxml import etree

app = FastAPI()


@app.post("/svg")
async def upload_svg(file: UploadFile):
    data = await file.read()
    root = defusedxml.lxml.fromstring(data)
    return {"width": root.get("width")}
