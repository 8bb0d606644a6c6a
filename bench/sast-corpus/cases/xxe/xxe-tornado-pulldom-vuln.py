import xml.sax
from xml.dom import pulldom
from xml.sax.handler import feature_external_ges

import tornado.web


class FeedHandler(tornado.web.RequestHandler):
    def post(self):
        sax = xml.sax.make_parser()
        sax.setFeature(feature_external_ges, True)
        events = pulldom.parseString(self.request.body.decode(), parser=sax)
        titles = []
        for event, node in events:
            if event == pulldom.START_ELEMENT and node.tagName == "title":
                events.expandNode(node)
                titles.append(node.toxml())
        self.write({"titles": titles})


app = tornado.web.Application([(r"/feed", FeedHandler)])
