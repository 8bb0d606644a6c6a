import ldap
import ldap.filter
from rest_framework.response import Response
from rest_framework.views import APIView


class GroupsView(APIView):
    def post(self, request):
        username = request.data.get("username", "")
        conn = ldap.initialize("ldaps://ldap.example.com")
        flt = "(&(objectClass=groupOfNames)(member=uid=%s,ou=people,dc=example,dc=com))" % ldap.filter.escape_filter_chars(username)
        groups = conn.search_s("ou=groups,dc=example,dc=com", ldap.SCOPE_SUBTREE, flt, ["cn"])
        return Response({"groups": [dn for dn, _ in groups]})
