import httpx
from django.http import JsonResponse

WEBHOOKS = {
    "slack": "https://hooks.slack.com/services/T000/B000/XXXX",
    "ops": "https://ops.example.com/hook",
}


def test_webhook(request):
    url = request.POST.get("url", "")
    resp = httpx.post(url, json={"text": "ping"}, timeout=5)
    return JsonResponse({"status": resp.status_code})
