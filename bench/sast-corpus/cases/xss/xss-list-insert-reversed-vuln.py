from django.http import HttpResponse


def breadcrumb(request):
    crumbs = ["Home", "Docs"]
    crumbs.insert(0, request.GET.get("section", "Guide"))
    last = list(reversed(crumbs))[-1]
    return HttpResponse(f"<nav>{last}</nav>")
