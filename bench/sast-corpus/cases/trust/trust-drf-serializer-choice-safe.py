from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView


class PlanSerializer(serializers.Serializer):
    plan = serializers.ChoiceField(choices=["free", "team", "enterprise"])


class PlanView(APIView):
    def post(self, request):
        serializer = PlanSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        request.session["plan"] = serializer.validated_data["plan"]
        return Response({"plan": request.session["plan"]})
