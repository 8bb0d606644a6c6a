from django.http import JsonResponse
from django.views import View
from lxml import etree

STOCK = etree.parse("/srv/stock.xml")


class StockView(View):
    def get(self, request, sku):
        qty = STOCK.xpath("string(//item[@sku=$sku]/qty)", sku=sku)
        return JsonResponse({"sku": sku, "qty": qty})
