from django.contrib.auth import authenticate, login
from django.http import HttpResponse, HttpResponseRedirect
from django.utils.http import url_has_allowed_host_and_scheme
from django.views import View


class LoginView(View):
    def post(self, request):
        user = authenticate(request, username=request.POST["username"], password=request.POST["password"])
        if user is None:
            return HttpResponse(status=401)
        login(request, user)
        target = request.POST.get("next", "/")
        return HttpResponseRedirect(target)
