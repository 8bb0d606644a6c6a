from django.shortcuts import render
from django.utils.html import format_html
from django.utils.safestring import mark_safe


def user_link(request):
    username = request.GET.get("u", "")
    link = mark_safe(f"<a href='/users/{username}'>{username}</a>")
    return render(request, "link.html", {"link": link})
