from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.urls import path, re_path

from . import views
from rest_framework.permissions import IsAuthenticated
from rest_framework.views import APIView


@login_required
def dashboard(request):
    return render(request, "dash.html", {"orders": request.user.orders.all()})


def invoices(request):
    if request.user.is_authenticated:
        return render(request, "inv.html", {"rows": Invoice.objects.filter(owner=request.user)})
    return render(request, "login.html")


@login_required
def export(request):
    return render(request, "export.html", {"rows": Invoice.objects.all()})


# ruleid: python.route-missing-authentication
def all_users(request):
    return render(request, "users.html", {"users": User.objects.all()})


# ok: python.route-missing-authentication
def index(request):
    return render(request, "index.html", {"news": News.objects.all()})


class Orders(APIView):
    permission_classes = [IsAuthenticated]

    # ok: python.route-missing-authentication
    def get(self, request):
        return Order.objects.filter(user=request.user)

    # ok: python.route-missing-authentication
    def post(self, request):
        return Order.objects.create(user=request.user)


# ok: python.route-missing-authentication
def debug(request, message):
    # A helper that takes the request, not a view: no URL pattern names it.
    return request.user.messages.add(message)


urlpatterns = [
    path("dashboard/", dashboard),
    path("invoices/", views.invoices),
    path("users/", all_users),
    re_path(r"^$", index),
    path("orders/", Orders.as_view()),
]
