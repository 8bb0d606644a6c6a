import hashlib
import os

from django.http import HttpResponse

from .models import Account


def change_password(request):
    account = Account.objects.get(pk=request.user.pk)
    salt = os.urandom(16)
    new = request.POST["new_password"].encode()
    account.password_hash = hashlib.sha1(salt + new).hexdigest()
    account.salt = salt.hex()
    account.save()
    return HttpResponse("changed")
