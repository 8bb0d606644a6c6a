import socket
import ssl
from ssl import wrap_socket


def open_tls(host, port):
    sock = socket.create_connection((host, port))
    # ruleid: python.ssl-no-version
    return ssl.wrap_socket(sock)


def open_tls_certs(sock, cert):
    # ruleid: python.ssl-no-version
    return wrap_socket(sock, certfile=cert)


def open_tls_versioned(sock):
    # ok: python.ssl-no-version
    return ssl.wrap_socket(sock, ssl_version=ssl.PROTOCOL_TLSv1_2)


def open_tls_context(sock, host):
    # ok: python.ssl-no-version
    return ssl.create_default_context().wrap_socket(sock, server_hostname=host)
