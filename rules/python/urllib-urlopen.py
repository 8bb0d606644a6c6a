import urllib.request
from urllib.request import urlopen as fetch


def download(url, dest):
    # ruleid: python.urllib-urlopen
    urllib.request.urlretrieve(url, dest)


def read_feed(feed_url):
    # ruleid: python.urllib-urlopen
    with fetch(feed_url, timeout=10) as resp:
        return resp.read()


def status():
    # ok: python.urllib-urlopen
    with urllib.request.urlopen("https://status.example.com/health", timeout=5) as resp:
        return resp.status


def build_request():
    # ok: python.urllib-urlopen
    return urllib.request.Request("https://api.example.com/v1/items", method="GET")


def legacy_fetch(url):
    opener = urllib.request.FancyURLopener()
    # ruleid: python.urllib-urlopen
    return opener.open(url).read()
