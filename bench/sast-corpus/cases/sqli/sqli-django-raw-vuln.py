from django.contrib.auth.models import User
from django.shortcuts import render


def search(request):
    username = request.GET.get("u", "")
    users = User.objects.raw(f"SELECT * FROM auth_user WHERE username = '{username}'")
    return render(request, "users.html", {"users": users})
