from django.contrib.auth.models import User
from rest_framework.decorators import api_view
from rest_framework.response import Response


@api_view(["GET"])
def find_user(request):
    name = request.query_params.get("name", "")
    users = User.objects.raw(f"SELECT * FROM auth_user WHERE username = '{name}'")
    return Response({"ids": [u.pk for u in users]})
