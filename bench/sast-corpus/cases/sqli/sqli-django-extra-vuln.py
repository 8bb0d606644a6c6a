from django.http import JsonResponse

from .models import Entry


def headlines(request):
    word = request.GET.get("word", "")
    qs = Entry.objects.extra(where=["headline LIKE '%%%s%%'" % word])
    return JsonResponse({"ids": list(qs.values_list("id", flat=True))})
