import ssl
import urllib.request


def fetch_manifest():
    ctx = ssl.create_default_context()
    with urllib.request.urlopen("https://updates.example.com/manifest.json", context=ctx) as resp:
        return resp.read()
