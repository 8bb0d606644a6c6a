import socketserver
import subprocess


class ResolveHandler(socketserver.StreamRequestHandler):
    def handle(self):
        name = self.rfile.readline().decode().strip()
        out = subprocess.run("host " + name, shell=True, capture_output=True)
        self.wfile.write(out.stdout)


if __name__ == "__main__":
    with socketserver.TCPServer(("0.0.0.0", 9000), ResolveHandler) as srv:
        srv.serve_forever()
