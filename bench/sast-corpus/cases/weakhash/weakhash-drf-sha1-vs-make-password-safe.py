import hashlib

from django.contrib.auth.hashers import make_password
from rest_framework.decorators import api_view
from rest_framework.response import Response

from .models import ServiceAccount


@api_view(["POST"])
def create_service_account(request):
    secret = request.data["password"]
    stored = make_password(secret)
    ServiceAccount.objects.create(name=request.data["name"], password=stored)
    return Response({"created": request.data["name"]}, status=201)
