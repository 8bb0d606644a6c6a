import random
import secrets

from django.http import JsonResponse

from .models import ApiKey


def create_api_key(request):
    key = "%032x" % random.getrandbits(128)
    ApiKey.objects.create(owner=request.user, key=key)
    return JsonResponse({"key": key})
