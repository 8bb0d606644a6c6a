import os

# ruleid: python.django-allowed-hosts-wildcard
ALLOWED_HOSTS = ['*']
# ruleid: python.django-allowed-hosts-wildcard
ALLOWED_HOSTS = ["example.com", "*"]
# ruleid: python.django-allowed-hosts-wildcard
ALLOWED_HOSTS = ("*",)
# ok: python.django-allowed-hosts-wildcard
ALLOWED_HOSTS = [".example.com", "localhost"]
# ok: python.django-allowed-hosts-wildcard
ALLOWED_HOSTS = os.environ.get("ALLOWED_HOSTS", "").split(",")

if os.environ.get("DEBUG"):
    # ok: python.django-allowed-hosts-wildcard
    ALLOWED_HOSTS = ["*"]
