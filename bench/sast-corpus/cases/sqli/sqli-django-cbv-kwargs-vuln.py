from django.db import connection
from django.http import JsonResponse
from django.views import View


class TagCountView(View):
    def dispatch(self, request, *args, **kwargs):
        self.slug = request.GET.get("tag", "")
        return super().dispatch(request, *args, **kwargs)

    def get(self, request, *args, **kwargs):
        return JsonResponse({"count": self.count()})

    def count(self):
        with connection.cursor() as cur:
            cur.execute(f"SELECT COUNT(*) FROM blog_tag WHERE slug = '{self.slug}'")
            return cur.fetchone()[0]
