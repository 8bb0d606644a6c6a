import shlex
import subprocess

from django.http import HttpResponse


def compress(request):
    names = request.POST.getlist("file")
    args = " ".join(names)
    cmd = "zip -q /srv/out/{} {}".format("bundle.zip", args)
    subprocess.Popen(cmd, shell=True, cwd="/srv/files")
    return HttpResponse(status=202)
