import urllib.request
from urllib.request import URLopener


def legacy_fetch(url):
    # ruleid: python.urllib-urlopener
    opener = urllib.request.FancyURLopener()
    return opener.open(url).read()


def legacy_download(url, dest):
    # ruleid: python.urllib-urlopener
    opener = URLopener()
    return opener.retrieve(url, dest)


def modern_fetch():
    # ok: python.urllib-urlopener
    with urllib.request.urlopen("https://example.com/", timeout=5) as resp:
        return resp.read()


def build_opener():
    # ok: python.urllib-urlopener
    return urllib.request.build_opener(urllib.request.HTTPSHandler())
