import hashlib

from django.http import JsonResponse

from .models import Document


def upload(request):
    doc = Document(owner=request.user)
    data = request.FILES["file"].read()
    doc.checksum = hashlib.md5(data).hexdigest()
    doc.save()
    return JsonResponse({"id": doc.pk})
