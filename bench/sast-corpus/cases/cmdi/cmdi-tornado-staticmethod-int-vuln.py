import subprocess

import tornado.web


class Net:
    @staticmethod
    def ping(count):
        return subprocess.check_output(f"ping -c {count} 127.0.0.1", shell=True)


class PingHandler(tornado.web.RequestHandler):
    def get(self):
        count = self.get_argument("count", "1")
        self.set_header("Content-Type", "text/plain")
        self.write(Net.ping(count))


def make_app():
    return tornado.web.Application([(r"/ping", PingHandler)])
