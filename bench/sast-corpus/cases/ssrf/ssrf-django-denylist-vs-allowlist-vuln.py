from urllib.parse import urlsplit

import requests
from django.http import HttpResponseForbidden, JsonResponse

BLOCKED_HOSTS = {"localhost", "127.0.0.1", "169.254.169.254", "metadata.google.internal"}
ALLOWED_HOSTS = {"api.github.com", "gitlab.com"}


def fetch_repo_meta(request):
    url = request.GET.get("url", "")
    host = urlsplit(url).hostname
    if host in BLOCKED_HOSTS:
        return HttpResponseForbidden()
    resp = requests.get(url, timeout=5)
    return JsonResponse(resp.json())
