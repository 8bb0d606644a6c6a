import wsgiref.handlers
from wsgiref.handlers import SimpleHandler
from twisted.web import twcgi, static


def app(environ, start_response):
    start_response("200 OK", [("Content-Type", "text/plain")])
    return [b"ok"]


def serve_cgi():
    # ruleid: python.httpoxy-cgi
    wsgiref.handlers.CGIHandler().run(app)


def tree():
    root = static.File("/srv/www")
    # ruleid: python.httpoxy-cgi
    root.putChild(b"cgi-bin", twcgi.CGIDirectory("/srv/cgi-bin"))
    # ok: python.httpoxy-cgi
    root.putChild(b"static", static.File("/srv/static"))
    return root


def serve_stdio(stdin, stdout, stderr, environ):
    # ok: python.httpoxy-cgi
    SimpleHandler(stdin, stdout, stderr, environ).run(app)
