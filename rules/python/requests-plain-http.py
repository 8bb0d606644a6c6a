import requests
import httpx


def login(user, password):
    # ruleid: python.requests-plain-http
    return requests.post("http://api.example.com/login", data={"u": user, "p": password}, timeout=10)


def feed():
    # ruleid: python.requests-plain-http
    return httpx.get(f"http://feeds.example.com/{'latest'}.xml")


def login_tls(user, password):
    # ok: python.requests-plain-http
    return requests.post("https://api.example.com/login", data={"u": user, "p": password}, timeout=10)


def local_health():
    # ok: python.requests-plain-http
    return requests.get("http://localhost:8080/health", timeout=2)


def report(payload):
    url = "http://collector.example.com/report"
    # ruleid: python.requests-plain-http
    return requests.put(url, json=payload, timeout=5)


def report_tls(payload):
    url = "http://collector.example.com/report"
    url = url.replace("http://", "https://")
    # ok: python.requests-plain-http
    return requests.put(url, json=payload, timeout=5)


def ping(url="http://status.example.com/ping"):
    # ruleid: python.requests-plain-http
    return requests.head(url, timeout=3)
