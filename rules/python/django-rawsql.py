from django.db.models.expressions import RawSQL
from django.db import models
from myapp.models import Order


def ranked(column):
    # ruleid: python.django-rawsql
    return Order.objects.annotate(rank=RawSQL("rank() over (order by %s)" % column, []))


def scored(expr):
    sql = "select " + expr
    # ruleid: python.django-rawsql
    return Order.objects.annotate(score=models.RawSQL(sql, []))


def totals():
    # ok: python.django-rawsql
    return Order.objects.annotate(total=RawSQL("price * quantity", []))


def above(limit):
    # ok: python.django-rawsql
    return Order.objects.annotate(big=RawSQL("price > %s", [limit]))
