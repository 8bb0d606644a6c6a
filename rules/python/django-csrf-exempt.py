from django.http import JsonResponse
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
