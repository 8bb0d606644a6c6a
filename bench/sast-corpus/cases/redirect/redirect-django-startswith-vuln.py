from django.http import HttpResponseRedirect
from django.utils.http import url_has_allowed_host_and_scheme


def after_logout(request):
    target = request.GET.get("next", "/")
    if not target.startswith("/"):
        target = "/"
    return HttpResponseRedirect(target)
