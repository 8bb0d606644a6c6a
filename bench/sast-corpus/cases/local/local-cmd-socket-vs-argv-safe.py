import socket
import subprocess
import sys


def check(conn: socket.socket) -> None:
    host = sys.argv[1]
    subprocess.run("ping -c 3 " + host, shell=True)
