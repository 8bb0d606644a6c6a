import httpx
from fastapi import FastAPI, HTTPException

app = FastAPI()
SERVICES = {"billing", "search", "users"}


@app.get("/metrics/{service}")
async def metrics(service: str):
    async with httpx.AsyncClient() as client:
        resp = await client.get(f"http://{service}:9100/metrics")
    return {"body": resp.text}
