import socket


def serve(conn: socket.socket) -> None:
    while True:
        line = conn.recv(1024).decode()
        if not line.strip():
            break
        result = eval(line, {"__builtins__": {}})
        print(result)
