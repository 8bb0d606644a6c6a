import subprocess

from rest_framework.decorators import api_view
from rest_framework.response import Response


@api_view(["POST"])
def ping(request):
    host = request.data.get("host", "")
    out = subprocess.run(f"ping -c 1 {host}", shell=True, capture_output=True, text=True, timeout=10)
    return Response({"ok": out.returncode == 0})
