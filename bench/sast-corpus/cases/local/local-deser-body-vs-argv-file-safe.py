import pickle
import socket
import sys


def load_snapshot(conn: socket.socket):
    data = open(sys.argv[1], "rb").read()
    return pickle.loads(data)
