import subprocess

from django.http import HttpResponse
from django.views import View


class TracerouteView(View):
    default_target = "gateway.internal"

    def get(self, request, *args, **kwargs):
        self.target = request.GET.get("target", "")
        return HttpResponse(self.trace(), content_type="text/plain")

    def trace(self):
        cmd = "traceroute -m 8 " + self.default_target
        return subprocess.check_output(cmd, shell=True)
