import os

from django.http import HttpResponse
from django.utils.text import get_valid_filename
from django.views import View

INVOICES = "/srv/invoices"


class InvoicePdfView(View):
    def setup(self, request, *args, **kwargs):
        super().setup(request, *args, **kwargs)
        self.filename = request.GET["name"]

    def get(self, request, *args, **kwargs):
        with open(os.path.join(INVOICES, self.filename), "rb") as fh:
            return HttpResponse(fh.read(), content_type="application/pdf")
