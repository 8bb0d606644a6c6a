import os

from django.conf import settings
from django.http import FileResponse, Http404


def media(request):
    full = os.path.abspath(os.path.join(settings.MEDIA_ROOT, request.GET["f"]))
    if os.path.commonpath([settings.MEDIA_ROOT, full]) != settings.MEDIA_ROOT:
        raise Http404()
    return FileResponse(open(full, "rb"))
