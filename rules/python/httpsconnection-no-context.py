import ssl
import http.client
from http.client import HTTPSConnection

# ruleid: python.httpsconnection-no-context
conn = http.client.HTTPSConnection("api.example.com")
# ruleid: python.httpsconnection-no-context
conn2 = HTTPSConnection("api.example.com", 443, timeout=10)
# ok: python.httpsconnection-no-context
conn3 = http.client.HTTPSConnection("api.example.com", context=ssl.create_default_context())
# ok: python.httpsconnection-no-context
conn4 = http.client.HTTPConnection("localhost", 8080)
