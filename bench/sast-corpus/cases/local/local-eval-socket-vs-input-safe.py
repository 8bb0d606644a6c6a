import socket


def serve(conn: socket.socket) -> None:
    while True:
        line = input("calc> ")
        if not line.strip():
            break
        result = eval(line, {"__builtins__": {}})
        print(result)
