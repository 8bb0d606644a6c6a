import ssl
from OpenSSL import SSL


# ruleid: python.ssl-bad-defaults
def connect(host, port, version=ssl.PROTOCOL_TLSv1):
    return ssl.SSLContext(version).wrap_socket(open_socket(host, port), server_hostname=host)


# ruleid: python.ssl-bad-defaults
def make_context(method=SSL.SSLv3_METHOD):
    return SSL.Context(method)


# ok: python.ssl-bad-defaults
def connect_modern(host, port, version=ssl.PROTOCOL_TLS_CLIENT):
    return ssl.SSLContext(version).wrap_socket(open_socket(host, port), server_hostname=host)


# ok: python.ssl-bad-defaults
def make_context_modern(method=SSL.TLSv1_2_METHOD):
    return SSL.Context(method)


from OpenSSL import SSL


# SSLv23_METHOD negotiates the highest version both sides support.
# ok: python.ssl-bad-defaults
def client_factory(method=SSL.SSLv23_METHOD):
    return SSL.Context(method)
