from django.http import HttpResponseRedirect
from django.shortcuts import redirect as django_redirect
from django.utils.http import url_has_allowed_host_and_scheme
from flask import Flask, redirect, request, url_for

app = Flask(__name__)


@app.route("/login", methods=["POST"])
def login():
    next_url = request.args.get("next")
    if authenticate(request.form["user"], request.form["password"]):
        # ruleid: python.taint-open-redirect
        return redirect(next_url)
    # ok: python.taint-open-redirect
    return redirect(url_for("login_form", error=1))


@app.route("/go")
def go():
    # ok: python.taint-open-redirect
    return redirect("/dashboard")


def logout_view(request):
    target = request.GET.get("to", "/")
    # ruleid: python.taint-open-redirect
    return HttpResponseRedirect(target)


def back_view(request):
    # ruleid: python.taint-open-redirect
    return django_redirect(request.POST["back"])


def set_language(request):
    next_url = request.POST.get("next", request.GET.get("next"))
    if not url_has_allowed_host_and_scheme(url=next_url, allowed_hosts={request.get_host()}):
        next_url = "/"
    # ok: python.taint-open-redirect
    return HttpResponseRedirect(next_url)
