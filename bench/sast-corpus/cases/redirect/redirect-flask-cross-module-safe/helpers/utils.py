import re

LOCAL_PATH = re.compile(r"/([A-Za-z0-9_.-]+/?)*")


def clean(url):
    url = url.strip()
    if not LOCAL_PATH.fullmatch(url):
        return "/"
    return url
