from django.contrib.auth.models import User


def search(term):
    # ruleid: python.django-extra
    return User.objects.extra(where=["username LIKE '%%%s%%'" % term])


def ordered(column):
    clause = "lower(%s)" % column
    # ruleid: python.django-extra
    return User.objects.extra(select={"sort_key": clause}).order_by("sort_key")


def staff():
    # ok: python.django-extra
    return User.objects.extra(where=["is_staff = true"])


def with_alias():
    # ok: python.django-extra
    return User.objects.extra(select={"lower_name": "lower(username)"})
