import os

from django.http import HttpResponse

from helpers.utils import clean

LOGS = "/var/log/app"


def tail_log(request):
    name = clean(request.GET.get("log", "app.log"))
    with open(os.path.join(LOGS, name)) as fh:
        lines = fh.readlines()[-50:]
    return HttpResponse("".join(lines), content_type="text/plain")
