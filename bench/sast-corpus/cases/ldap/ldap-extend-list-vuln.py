import ldap
from aiohttp import web


async def search(request):
    parts = ["(objectClass=person)"]
    parts.extend(["(ou=staff)", "(cn=" + request.query.get("cn", "*") + ")"])
    flt = "(&" + parts[0] + parts[2] + ")"
    conn = ldap.initialize("ldap://127.0.0.1")
    res = conn.search_s("dc=example,dc=com", ldap.SCOPE_SUBTREE, flt)
    return web.json_response({"count": len(res)})


app = web.Application()
app.router.add_get("/search", search)
