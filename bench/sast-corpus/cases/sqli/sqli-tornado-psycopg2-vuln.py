import psycopg2
import tornado.web

conn = psycopg2.connect("dbname=app user=app")


class SubscriberHandler(tornado.web.RequestHandler):
    def get(self):
        email = self.get_argument("email")
        with conn.cursor() as cur:
            cur.execute("SELECT id FROM subscribers WHERE email = '%s'" % email)
            row = cur.fetchone()
        self.write({"subscribed": row is not None})


app = tornado.web.Application([(r"/subscriber", SubscriberHandler)])
