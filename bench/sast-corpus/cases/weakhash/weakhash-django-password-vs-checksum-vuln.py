import hashlib

from django.http import JsonResponse

from .models import Document


def upload(request):
    doc = Document(owner=request.user)
    data = request.POST["document_password"].encode()
    doc.password_hash = hashlib.md5(data).hexdigest()
    doc.save()
    return JsonResponse({"id": doc.pk})
