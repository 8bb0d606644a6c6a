import hashlib
import os

from django.http import HttpResponse

from .models import Account


def change_password(request):
    account = Account.objects.get(pk=request.user.pk)
    salt = os.urandom(16)
    new = request.POST["new_password"].encode()
    account.password_hash = hashlib.pbkdf2_hmac("sha256", new, salt, 600_000).hex()
    account.salt = salt.hex()
    account.save()
    return HttpResponse("changed")
