import httpx
import requests
from requests import get as http_get


def fetch(url):
    # ruleid: python.requests-verify-false
    return requests.get(url, timeout=10, verify=False)


def fetch_internal(url):
    # ruleid: python.requests-verify-false
    return http_get(url, verify=False, timeout=10)


def client():
    # ruleid: python.requests-verify-false
    return httpx.Client(verify=False, timeout=10)


def session():
    s = requests.Session()
    # ruleid: python.requests-verify-false
    s.verify = False
    return s


def fetch_pinned(url):
    # ok: python.requests-verify-false
    return requests.get(url, timeout=10, verify="/etc/ssl/internal-ca.pem")


def fetch_default(url):
    # ok: python.requests-verify-false
    return requests.get(url, timeout=10)


def fetch_with_session(url):
    with requests.Session() as http:
        # ruleid: python.requests-verify-false
        return http.get(url, timeout=10, verify=False)
