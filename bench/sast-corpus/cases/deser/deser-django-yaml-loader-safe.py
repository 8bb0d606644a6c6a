import yaml
from django.http import JsonResponse


def upload_pipeline(request):
    spec = yaml.load(request.body, Loader=yaml.SafeLoader)
    return JsonResponse({"stages": len(spec.get("stages", []))})
