import requests
from django.http import JsonResponse

VERIFY_TLS = False


def partner_status(request):
    resp = requests.get("https://partner.example.com/api/status", verify=VERIFY_TLS, timeout=5)
    return JsonResponse(resp.json())
