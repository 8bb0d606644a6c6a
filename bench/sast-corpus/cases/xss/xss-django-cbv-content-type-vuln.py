from django.http import HttpResponse
from django.views import View


class PreviewView(View):
    def setup(self, request, *args, **kwargs):
        super().setup(request, *args, **kwargs)
        self.query = request.GET.get("text", "")

    def get(self, request, *args, **kwargs):
        return HttpResponse("Preview: " + self.query, content_type="text/html")
