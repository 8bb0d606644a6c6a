from django.http import JsonResponse

RULES = {
    "discount": "total = total * 0.9",
    "shipping": "total = total + 4.99",
}


def apply_rule(request):
    source = request.POST.get("rule", "")
    scope = {"total": float(request.POST.get("total", "0"))}
    exec(compile(source, "<rule>", "exec"), {"__builtins__": {}}, scope)
    return JsonResponse({"total": scope["total"]})
