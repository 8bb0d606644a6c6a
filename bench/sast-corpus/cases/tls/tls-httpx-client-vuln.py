import httpx
from fastapi import FastAPI

app = FastAPI()


@app.get("/upstream")
async def upstream():
    async with httpx.AsyncClient(verify=False, timeout=5) as client:
        resp = await client.get("https://upstream.example.com/status")
    return resp.json()
