import tornado.web


class Rules:
    scope = {"__builtins__": {}}

    @classmethod
    def evaluate(cls, expr):
        return eval(expr, cls.scope)


class ThresholdHandler(tornado.web.RequestHandler):
    def post(self):
        raw = self.get_body_argument("threshold")
        value = Rules.evaluate(raw)
        self.write({"threshold": value})


app = tornado.web.Application([(r"/threshold", ThresholdHandler)])
