from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, render


@login_required
def orders(request):
    return render(request, "orders.html", {"orders": Order.objects.filter(user=request.user)})


# ruleid: python.route-unowned-object
@login_required
def invoice(request, invoice_id):
    invoice = get_object_or_404(Invoice, pk=invoice_id)
    return render(request, "invoice.html", {"invoice": invoice})


# ruleid: python.route-unowned-object
@login_required
def delete_address(request):
    address = Address.objects.get(id=request.POST["id"])
    address.delete()


# ok: python.route-unowned-object
@login_required
def order(request, order_id):
    order = get_object_or_404(Order, pk=order_id, user=request.user)
    return render(request, "order.html", {"order": order})


# ok: python.route-unowned-object
@login_required
def delete_bookmark(request, bookmark_id):
    # A local holding the authenticated user (set by the framework, not the client) scopes the lookup.
    user = request.user.profile
    bookmark = Bookmark.objects.filter(id=bookmark_id, user=user).first()
    bookmark.delete()
