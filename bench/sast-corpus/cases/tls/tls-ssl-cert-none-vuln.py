import socket
import ssl


def send_report(data: bytes):
    ctx = ssl.create_default_context()
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE
    with socket.create_connection(("reports.example.com", 443)) as sock:
        with ctx.wrap_socket(sock, server_hostname="reports.example.com") as tls:
            tls.sendall(data)
