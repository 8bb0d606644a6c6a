import os

from django.http import FileResponse
from rest_framework.decorators import api_view

EXPORTS = "/srv/exports"


@api_view(["GET"])
def download_export(request):
    name = request.query_params.get("file", "")
    return FileResponse(open(os.path.join(EXPORTS, name), "rb"))
