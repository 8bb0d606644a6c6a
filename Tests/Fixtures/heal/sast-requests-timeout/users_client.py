"""Client for the users API."""

import requests

API = "https://api.example.test/v1"


def fetch_user(user_id):
    """The user record, or None when the API answers 404."""
    response = requests.get(f"{API}/users/{user_id}")
    if response.status_code == 404:
        return None
    response.raise_for_status()
    return response.json()


def display_name(user_id):
    user = fetch_user(user_id)
    if user is None:
        return "unknown user"
    return user.get("display_name") or user["login"]
