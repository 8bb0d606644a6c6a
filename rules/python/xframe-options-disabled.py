from django.http import HttpResponse
from django.views.decorators.clickjacking import xframe_options_exempt, xframe_options_sameorigin


# ruleid: python.xframe-options-disabled
@xframe_options_exempt
def embed(request):
    return HttpResponse("ok")


# ok: python.xframe-options-disabled
@xframe_options_sameorigin
def page(request):
    return HttpResponse("ok")


def strip(response):
    # ruleid: python.xframe-options-disabled
    del response["X-Frame-Options"]
    # ruleid: python.xframe-options-disabled
    response.headers.pop("X-Frame-Options", None)
    # ok: python.xframe-options-disabled
    del response["Server"]
    # ruleid: python.xframe-options-disabled
    response.headers["X-Frame-Options"] = "ALLOWALL"
    # ok: python.xframe-options-disabled
    response.headers["X-Frame-Options"] = "DENY"
    return response
