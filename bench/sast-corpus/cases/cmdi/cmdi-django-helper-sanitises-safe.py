import shlex
import subprocess

from django.http import JsonResponse


def disk_usage_command(path):
    return "du -sh " + shlex.quote(path.strip())


def disk_usage(request):
    path = request.GET.get("path", "/srv/data")
    output = subprocess.check_output(disk_usage_command(path), shell=True)
    return JsonResponse({"usage": output.decode()})
