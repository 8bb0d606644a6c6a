import tornado.web


class StatusHandler(tornado.web.RequestHandler):
    def get(self):
        label = "All systems operational"
        label = self.get_argument("label", "")
        self.write("<h2>" + label + "</h2>")


app = tornado.web.Application([(r"/status", StatusHandler)])
