from django.http import JsonResponse
from ldap3 import ALL, Connection, Server
from ldap3.utils.conv import escape_filter_chars

SERVER = Server("ldaps://ad.example.com", get_info=ALL)


def group_members(request):
    group = request.POST.get("group", "")
    conn = Connection(SERVER, auto_bind=True)
    conn.search("dc=example,dc=com", f"(&(objectClass=group)(cn={escape_filter_chars(group)}))", attributes=["member"])
    return JsonResponse({"members": [str(e.member) for e in conn.entries]})
