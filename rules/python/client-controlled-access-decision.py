from flask import request


def panel():
    role = request.cookies.get("role")
    # ruleid: python.client-controlled-access-decision
    if role == "admin":
        return "secret"
    return "no"


def django_view(request):
    agent = request.META["HTTP_USER_AGENT"]
    # ruleid: python.client-controlled-access-decision
    if agent == "internal_admin_tool":
        return "all users"
    token = request.COOKIES["token"]
    # ruleid: python.client-controlled-access-decision
    if token.split("|")[0] == "superuser":
        return "everything"
    # ruleid: python.client-controlled-access-decision
    if request.headers.get("X-Env") == "debug:enable":
        return "console"


def role_cookie(request):
    # ruleid: python.client-controlled-access-decision
    if request.COOKIES.get("admin") == "1":
        return "admin page"
    # ok: python.client-controlled-access-decision
    if request.COOKIES.get("consent") == "1":
        return "tracking"


def near_misses(request, user):
    email = request.headers.get("X-Email")
    # ok: python.client-controlled-access-decision
    if email == "admin@example.com":
        return "mail"
    # ok: python.client-controlled-access-decision
    if request.headers.get("X-Requested-With") == "XMLHttpRequest":
        return "ajax"
    # ok: python.client-controlled-access-decision
    if user.role == "admin":
        return "server-side role"
    theme = request.cookies.get("theme")
    # ok: python.client-controlled-access-decision
    if theme == "dark":
        return "dark"
    # ok: python.client-controlled-access-decision
    label = "admin" if request.args.get("q") == "admin" else "x"
    return label
