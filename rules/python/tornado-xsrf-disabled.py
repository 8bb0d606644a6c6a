import tornado.web

# ruleid: python.tornado-xsrf-disabled
app = tornado.web.Application([], xsrf_cookies=False)
# ok: python.tornado-xsrf-disabled
app = tornado.web.Application([], xsrf_cookies=True)
settings = {"cookie_secret": None, "xsrf_cookies": False}
# ruleid: python.tornado-xsrf-disabled
app = tornado.web.Application([], **settings)
safe = {"xsrf_cookies": True}
# ok: python.tornado-xsrf-disabled
app = tornado.web.Application([], **safe)
