from django.shortcuts import redirect
from django.views import View

THEMES = {"light": "light", "dark": "dark", "contrast": "high-contrast"}


class ThemeView(View):
    def get(self, request):
        requested = self.request.GET.get("theme", "light")
        self.request.session["theme"] = requested
        return redirect("/")
