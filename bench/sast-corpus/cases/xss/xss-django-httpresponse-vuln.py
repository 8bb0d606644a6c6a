from django.http import HttpResponse
from django.utils.html import escape


def greet(request):
    name = request.GET.get("name", "there")
    return HttpResponse(f"<p>Hello {name}!</p>")
