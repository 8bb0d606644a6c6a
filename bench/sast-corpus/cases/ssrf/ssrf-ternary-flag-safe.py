import requests
from django.http import HttpResponse

ALLOW_REMOTE_AVATARS = False
DEFAULT_AVATAR = "https://static.example.com/avatar.png"


def avatar_proxy(request):
    src = request.GET.get("src", DEFAULT_AVATAR) if ALLOW_REMOTE_AVATARS else DEFAULT_AVATAR
    img = requests.get(src, timeout=5)
    return HttpResponse(img.content, content_type="image/png")
