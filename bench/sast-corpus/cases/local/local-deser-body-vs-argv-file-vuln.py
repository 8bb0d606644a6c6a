import pickle
import socket
import sys


def load_snapshot(conn: socket.socket):
    data = conn.recv(1048576)
    return pickle.loads(data)
