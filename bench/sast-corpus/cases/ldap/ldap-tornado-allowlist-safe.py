import ldap
import tornado.web

DEPARTMENTS = {"sales", "support", "engineering"}


class DepartmentHandler(tornado.web.RequestHandler):
    def get(self):
        dept = self.get_argument("dept")
        if dept not in DEPARTMENTS:
            raise tornado.web.HTTPError(404)
        conn = ldap.initialize("ldap://127.0.0.1")
        res = conn.search_s("dc=example,dc=com", ldap.SCOPE_SUBTREE, "(ou=" + dept + ")", ["cn"])
        self.write({"members": len(res)})


app = tornado.web.Application([(r"/dept", DepartmentHandler)])
