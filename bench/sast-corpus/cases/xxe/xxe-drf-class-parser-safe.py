from lxml import etree
from rest_framework.response import Response
from rest_framework.views import APIView


class InvoiceView(APIView):
    parser = etree.XMLParser(resolve_entities=False, no_network=True)

    def post(self, request):
        root = etree.fromstring(request.body, self.parser)
        return Response({"total": root.findtext("total")})
