from django.contrib.auth import authenticate
from django.http import HttpResponse


def sign_in(request):
    user = authenticate(request, username=request.POST["username"], password=request.POST["password"])
    if user is None:
        return HttpResponse(status=401)
    request.session["username"] = user.get_username()
    return HttpResponse("welcome")
