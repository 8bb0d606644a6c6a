from django.http import HttpResponseRedirect
from django.utils.http import url_has_allowed_host_and_scheme


def after_logout(request):
    target = request.GET.get("next", "/")
    if not url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        target = "/"
    return HttpResponseRedirect(target)
