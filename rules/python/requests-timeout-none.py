import httpx
import requests

# ruleid: python.requests-timeout-none
resp = requests.get("https://example.com/feed", timeout=None)
# ruleid: python.requests-timeout-none
client = httpx.Client(base_url="https://example.com", timeout=None)
# ok: python.requests-timeout-none
resp = requests.get("https://example.com/feed", timeout=(3.05, 27))
# ok: python.requests-timeout-none
client = httpx.Client(base_url="https://example.com")
