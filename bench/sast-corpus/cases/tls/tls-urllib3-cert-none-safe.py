import urllib3

http = urllib3.PoolManager(cert_reqs="CERT_REQUIRED")


def pull_inventory():
    resp = http.request("GET", "https://inventory.example.com/items")
    return resp.data
