from django.db import connection
from django.http import JsonResponse


def order_total(request):
    order_id = str(int(request.GET["id"]))
    with connection.cursor() as cursor:
        cursor.execute("SELECT SUM(price) FROM shop_item WHERE order_id = " + order_id)
        (total,) = cursor.fetchone()
    return JsonResponse({"total": total})
