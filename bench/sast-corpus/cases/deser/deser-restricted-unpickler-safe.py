import io
import pickle
import socketserver

SAFE_BUILTINS = {"dict", "list", "str", "int", "float", "tuple", "set"}


class RestrictedUnpickler(pickle.Unpickler):
    def find_class(self, module, name):
        if module == "builtins" and name in SAFE_BUILTINS:
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"forbidden: {module}.{name}")


class TaskHandler(socketserver.BaseRequestHandler):
    def handle(self):
        data = self.request.recv(65536)
        task = RestrictedUnpickler(io.BytesIO(data)).load()
        self.request.sendall(repr(task).encode())


if __name__ == "__main__":
    socketserver.TCPServer(("0.0.0.0", 9100), TaskHandler).serve_forever()
