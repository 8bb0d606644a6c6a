import ssl
from OpenSSL import SSL


def legacy_socket(sock):
    # ruleid: python.ssl-bad-version
    return ssl.wrap_socket(sock, ssl_version=ssl.PROTOCOL_SSLv3)


def legacy_context():
    # ruleid: python.ssl-bad-version
    return SSL.Context(method=SSL.TLSv1_METHOD)


def old_context():
    # ruleid: python.ssl-bad-version
    return ssl.SSLContext(ssl.PROTOCOL_TLSv1_1)


def modern_context():
    # ok: python.ssl-bad-version
    return ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)


def modern_pyopenssl():
    # ok: python.ssl-bad-version
    return SSL.Context(method=SSL.TLSv1_2_METHOD)
