import tornado.escape
import tornado.web


class ErrorPageHandler(tornado.web.RequestHandler):
    def get(self):
        msg = self.get_argument("msg", "Something went wrong")
        self.write("<div class='error'>" + tornado.escape.xhtml_escape(msg) + "</div>")


app = tornado.web.Application([(r"/error", ErrorPageHandler)])
