import httpx
from fastapi import FastAPI, HTTPException

app = FastAPI()
SERVICES = {"billing", "search", "users"}


@app.get("/metrics/{service}")
async def metrics(service: str):
    if service not in SERVICES:
        raise HTTPException(status_code=404)
    async with httpx.AsyncClient() as client:
        resp = await client.get(f"http://{service}:9100/metrics")
    return {"body": resp.text}
