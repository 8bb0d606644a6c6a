import ldap
import ldap.dn
import tornado.web


class ProfileHandler(tornado.web.RequestHandler):
    def get(self):
        user = self.get_argument("user")
        conn = ldap.initialize("ldap://127.0.0.1")
        dn = "uid=" + user + ",ou=people,dc=example,dc=com"
        entry = conn.search_s(dn, ldap.SCOPE_BASE, "(objectClass=*)", ["displayName"])
        self.write({"found": bool(entry)})


app = tornado.web.Application([(r"/profile", ProfileHandler)])
