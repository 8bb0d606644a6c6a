import re

from django.http import Http404, JsonResponse
from lxml import etree

CATALOG = etree.parse("/srv/catalog.xml")


def products(request):
    category = request.GET.get("c", "")
    if not re.search(r"[a-z]+", category):
        raise Http404()
    titles = CATALOG.xpath("//product[@category='" + category + "']/title/text()")
    return JsonResponse({"titles": [str(t) for t in titles]})
