import tornado.escape
import tornado.web


class ErrorPageHandler(tornado.web.RequestHandler):
    def get(self):
        msg = self.get_argument("msg", "Something went wrong")
        self.write("<div class='error'>" + msg + "</div>")


app = tornado.web.Application([(r"/error", ErrorPageHandler)])
