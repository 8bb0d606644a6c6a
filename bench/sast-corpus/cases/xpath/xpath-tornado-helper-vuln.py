import tornado.web
from lxml import etree

DOC = etree.parse("/srv/library.xml")


def author_query(author):
    return "//book[author='" + author + "']/title/text()"


class BooksHandler(tornado.web.RequestHandler):
    def get(self):
        titles = DOC.xpath(author_query(self.get_argument("author")))
        self.write({"titles": [str(t) for t in titles]})


app = tornado.web.Application([(r"/books", BooksHandler)])
