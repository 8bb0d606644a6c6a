import random
import secrets
import string

from aiohttp import web

ALPHABET = string.ascii_letters + string.digits
AUTHORIZE = "https://sso.example.com/authorize?client_id=web&state="


def make_state(length=32):
    return "".join(secrets.choice(ALPHABET) for _ in range(length))


async def login(request):
    state_token = make_state()
    resp = web.HTTPFound(AUTHORIZE + state_token)
    resp.set_cookie("oauth_state", state_token, secure=True, httponly=True)
    raise resp


app = web.Application()
app.router.add_get("/login", login)
