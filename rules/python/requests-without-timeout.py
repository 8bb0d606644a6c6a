import requests
import requests as http
from requests import post


def fetch_user(user_id):
    # ruleid: python.requests-without-timeout
    return requests.get(f"https://api.example.com/users/{user_id}").json()


def push_event(event):
    # ruleid: python.requests-without-timeout
    http.post("https://events.example.com/ingest", json=event)
    # ruleid: python.requests-without-timeout
    post("https://events.example.com/audit", data=event)


def fetch_with_timeout(user_id):
    # ok: python.requests-without-timeout
    return requests.get(f"https://api.example.com/users/{user_id}", timeout=10).json()


def make_session():
    # ok: python.requests-without-timeout
    return requests.Session()


def fetch_with(url, options):
    # nofix: python.requests-without-timeout (options may hold a timeout)
    # ruleid: python.requests-without-timeout
    return requests.get(url, **options)
