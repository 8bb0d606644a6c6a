import random
import secrets
import string

from rest_framework.response import Response
from rest_framework.views import APIView

from .models import Invitation


class InviteView(APIView):
    def post(self, request):
        invite_token = "".join(secrets.SystemRandom().sample(string.ascii_uppercase + string.digits, 12))
        Invitation.objects.create(email=request.data["email"], token=invite_token)
        return Response({"sent": True}, status=201)
