import ldap
import ldap.filter
from flask import Flask, request

app = Flask(__name__)
BASE_DN = "ou=people,dc=example,dc=com"


@app.route("/directory")
def directory():
    uid = request.args.get("uid", "")
    conn = ldap.initialize("ldaps://ldap.example.com")
    conn.simple_bind_s("cn=reader,dc=example,dc=com", "reader-password-from-vault")
    results = conn.search_s(BASE_DN, ldap.SCOPE_SUBTREE, "(uid=%s)" % uid, ["cn", "mail"])
    return {"entries": [dn for dn, _ in results]}
