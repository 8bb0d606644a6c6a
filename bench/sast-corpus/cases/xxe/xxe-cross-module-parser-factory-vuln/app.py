import tornado.web
from lxml import etree

from helpers.utils import make_parser


class SitemapHandler(tornado.web.RequestHandler):
    def post(self):
        root = etree.fromstring(self.request.body, make_parser())
        self.write({"urls": len(root)})


app = tornado.web.Application([(r"/sitemap", SitemapHandler)])
