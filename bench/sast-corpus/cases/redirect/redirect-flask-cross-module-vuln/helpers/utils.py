import re

LOCAL_PATH = re.compile(r"/([A-Za-z0-9_.-]+/?)*")


def clean(url):
    url = url.strip()
    return url
