import urllib.request
from urllib.request import urlretrieve


def read_local_config():
    # ruleid: python.urllib-urlopen-literal-scheme
    with urllib.request.urlopen("file:///etc/app/config.json") as resp:
        return resp.read()


def mirror():
    # ruleid: python.urllib-urlopen-literal-scheme
    urlretrieve("ftp://mirror.example.com/pub/data.csv", "data.csv")


def status():
    # ok: python.urllib-urlopen-literal-scheme
    with urllib.request.urlopen("https://status.example.com/health", timeout=5) as resp:
        return resp.status


def fetch(url):
    # ok: python.urllib-urlopen-literal-scheme
    return urllib.request.urlopen(url, timeout=5).read()
