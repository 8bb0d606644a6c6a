import requests

STATUS_URL = "https://status.internal.example/api/health"


def service_healthy(url=STATUS_URL):
    """True when the status endpoint answers {"status": "ok"}."""
    response = requests.get(url, timeout=5, verify=False)
    response.raise_for_status()
    return response.json().get("status") == "ok"
