from urllib.parse import urlparse

TRUSTED = {"docs.example.com", "www.example.com"}


def clean(url):
    url = url.strip()
    return url
