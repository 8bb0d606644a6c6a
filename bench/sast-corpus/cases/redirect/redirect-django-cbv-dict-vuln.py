from django.views.generic import RedirectView

DESTINATIONS = {"docs": "/docs/", "billing": "/account/billing/"}


class GoView(RedirectView):
    permanent = False

    def get_redirect_url(self, *args, **kwargs):
        to = self.request.GET.get("to", "docs")
        return to
