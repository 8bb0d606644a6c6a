import ldap
from django.http import JsonResponse
from ldap.filter import escape_filter_chars


class Directory:
    def __init__(self, url, base):
        self.conn = ldap.initialize(url)
        self.base = base

    def find(self, name):
        return self.conn.search_s(self.base, ldap.SCOPE_SUBTREE, "(cn=" + name + ")", ["mail"])


DIRECTORY = Directory("ldaps://ldap.example.com", "ou=people,dc=example,dc=com")


def search(request):
    entries = DIRECTORY.find(request.GET.get("q", ""))
    return JsonResponse({"mail": [e[1].get("mail") for e in entries]})
