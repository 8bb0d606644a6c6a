import tornado.web


class StatusHandler(tornado.web.RequestHandler):
    def get(self):
        label = self.get_argument("label", "")
        label = "All systems operational"
        self.write("<h2>" + label + "</h2>")


app = tornado.web.Application([(r"/status", StatusHandler)])
