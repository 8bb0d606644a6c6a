from fastapi import FastAPI
from lxml import etree

app = FastAPI()
CATALOG = etree.parse("/srv/catalog.xml")


@app.get("/books")
def books(title: str):
    found = CATALOG.xpath("//book[title=$t]/@isbn", t=title)
    return {"isbn": [str(x) for x in found]}
