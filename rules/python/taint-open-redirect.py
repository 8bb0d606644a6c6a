from django.http import HttpResponseRedirect
from django.shortcuts import redirect as django_redirect
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
