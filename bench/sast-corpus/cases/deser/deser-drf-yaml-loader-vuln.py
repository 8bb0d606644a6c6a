import yaml
from rest_framework.decorators import api_view
from rest_framework.response import Response


@api_view(["POST"])
def import_pipeline(request):
    spec = yaml.load(request.body, Loader=yaml.Loader)
    return Response({"stages": len(spec.get("stages", []))})
