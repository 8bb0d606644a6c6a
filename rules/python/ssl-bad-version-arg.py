import ssl
from OpenSSL import SSL
from myproject.net import open_tls, make_server


def connect(host):
    # ruleid: python.ssl-bad-version-arg
    return open_tls(host, 443, ssl_version=ssl.PROTOCOL_TLSv1)


def serve():
    # ruleid: python.ssl-bad-version-arg
    return make_server(("127.0.0.1", 8443), method=SSL.SSLv3_METHOD)


def connect_modern(host):
    # ok: python.ssl-bad-version-arg
    return open_tls(host, 443, ssl_version=ssl.PROTOCOL_TLS_CLIENT)


def legacy_context():
    # ok: python.ssl-bad-version-arg
    return SSL.Context(method=SSL.TLSv1_METHOD)
