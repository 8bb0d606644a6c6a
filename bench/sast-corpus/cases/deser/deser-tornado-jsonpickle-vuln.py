import json

import jsonpickle
import tornado.web


class JobHandler(tornado.web.RequestHandler):
    def post(self):
        job = jsonpickle.decode(self.request.body)
        self.write({"queued": job["name"]})


app = tornado.web.Application([(r"/jobs", JobHandler)])
