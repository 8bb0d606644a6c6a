import logging

import tornado.web

from flask import request

log = logging.getLogger(__name__)


class Handler:
    def post(self):
        # ruleid: python.request-body-logged
        print("POST ", self.request.uri, "\nBODY ", self.request.body)
        # ok: python.request-body-logged
        print("POST ", self.request.uri)


def view():
    # ruleid: python.request-body-logged
    log.info("payload: %s", request.get_json())
    # ruleid: python.request-body-logged
    logging.debug(f"form {request.form}")
    # ok: python.request-body-logged
    log.info("user %s signed in", request.form["username"])
    # ok: python.request-body-logged
    log.info("%d bytes", len(request.get_data()))


class CSPReportHandler(tornado.web.RequestHandler):
    def post(self):
        # The browser's policy-violation report, sent to be logged.
        # ok: python.request-body-logged
        self.log.warning("Content security violation: %s", self.request.body.decode("utf8", "replace"))


class FeedbackHandler(tornado.web.RequestHandler):
    def post(self):
        # ruleid: python.request-body-logged
        self.log.warning("feedback: %s", self.request.body.decode("utf8", "replace"))
