import hmac

from django.contrib.sessions.backends.db import SessionStore
from django.http import HttpResponseForbidden, JsonResponse
from django.views import View
from django.views.decorators.csrf import csrf_exempt, csrf_protect
from django.views.decorators.http import require_POST


# ruleid: python.django-csrf-exempt
@csrf_exempt
def update_profile(request):
    request.user.profile.bio = request.POST["bio"]
    request.user.profile.save()
    return JsonResponse({"ok": True})


# ruleid: python.django-csrf-exempt
@csrf_exempt
@require_POST
def transfer(request):
    return JsonResponse({"ok": True})


# ok: python.django-csrf-exempt
@csrf_protect
def update_email(request):
    return JsonResponse({"ok": True})


# ok: python.django-csrf-exempt
@require_POST
def logout(request):
    return JsonResponse({"ok": True})


# A webhook verifies the sender's signature: the request authenticates itself, not by cookies.
# ok: python.django-csrf-exempt
@csrf_exempt
def payment_webhook(request):
    expected = hmac.new(SECRET, request.body, "sha256").hexdigest()
    if not hmac.compare_digest(expected, request.headers.get("X-Signature", "")):
        return HttpResponseForbidden()
    return JsonResponse({"ok": True})


class SessionHandoff(View):
    # ok: python.django-csrf-exempt
    @csrf_exempt
    def dispatch(self, request, *args, **kwargs):
        return super().dispatch(request, *args, **kwargs)

    def post(self, request):
        store = SessionStore(request.POST.get("session"))
        return JsonResponse({"user": store.load().get("user")})


class Preferences(View):
    # ruleid: python.django-csrf-exempt
    @csrf_exempt
    def dispatch(self, request, *args, **kwargs):
        return super().dispatch(request, *args, **kwargs)

    def post(self, request):
        request.user.profile.theme = request.POST["theme"]
        return JsonResponse({"ok": True})
