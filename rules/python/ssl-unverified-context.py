import socket
import ssl
import urllib.request

import urllib3


def fetch_insecure(url):
    # ruleid: python.ssl-unverified-context
    ctx = ssl._create_unverified_context()
    return urllib.request.urlopen(url, context=ctx, timeout=5).read()


def client_context():
    ctx = ssl.create_default_context()
    ctx.check_hostname = False
    # ruleid: python.ssl-unverified-context
    ctx.verify_mode = ssl.CERT_NONE
    return ctx


def fetch(url):
    # ok: python.ssl-unverified-context
    ctx = ssl.create_default_context()
    return urllib.request.urlopen(url, context=ctx, timeout=5).read()


def strict_context():
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    # ok: python.ssl-unverified-context
    ctx.verify_mode = ssl.CERT_REQUIRED
    return ctx


def context_for(validate_certs):
    ctx = ssl.create_default_context()
    if not validate_certs:
        ctx.check_hostname = False
        # The caller asked for no verification.
        # ok: python.ssl-unverified-context
        ctx.verify_mode = ssl.CERT_NONE
    return ctx


def context_from(settings):
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    if settings.getbool("VERIFY_CERTIFICATES"):
        ctx.load_default_certs()
    else:
        # ok: python.ssl-unverified-context
        ctx.verify_mode = ssl.CERT_NONE
    return ctx


def debug_context(debug):
    ctx = ssl.create_default_context()
    if debug:
        # A debug switch is no verification setting.
        # ruleid: python.ssl-unverified-context
        ctx.verify_mode = ssl.CERT_NONE
    return ctx


def served_certificate(host, port):
    context = ssl.create_default_context()
    context.check_hostname = False
    # Fetches the certificate to compare it, sends nothing: an inventory probe.
    # ok: python.ssl-unverified-context
    context.verify_mode = ssl.CERT_NONE
    with socket.create_connection((host, port)) as raw:
        with context.wrap_socket(raw, server_hostname=host) as tls:
            return tls.getpeercert(True)


def fetch_status(host, port):
    context = ssl.create_default_context()
    context.check_hostname = False
    # ruleid: python.ssl-unverified-context
    context.verify_mode = ssl.CERT_NONE
    with socket.create_connection((host, port)) as raw:
        with context.wrap_socket(raw, server_hostname=host) as tls:
            peer = tls.getpeercert(True)
            tls.sendall(b"GET /status HTTP/1.0\r\n\r\n")
            return peer, tls.recv(4096)


def pool(host):
    # ruleid: python.ssl-unverified-context
    return urllib3.HTTPSConnectionPool(host, 443, cert_reqs="CERT_NONE", timeout=5)


def wrapped(sock):
    # ruleid: python.ssl-unverified-context
    return ssl.wrap_socket(sock, cert_reqs=ssl.CERT_OPTIONAL)


def patch_everything():
    # ruleid: python.ssl-unverified-context
    ssl._create_default_https_context = ssl._create_unverified_context
