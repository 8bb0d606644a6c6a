import secrets

from django.http import JsonResponse


def issue_token(request):
    resp = JsonResponse({"ok": True})
    resp.set_cookie("auth_token", secrets.token_urlsafe(32), secure=True, samesite="Strict")
    return resp
