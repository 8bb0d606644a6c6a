import logging
import traceback
from http.server import BaseHTTPRequestHandler

from django.conf import settings
from django.http import HttpResponse, HttpResponseServerError
from flask import Flask, jsonify, render_template, render_template_string
from starlette.responses import HTMLResponse

app = Flask(__name__)
log = logging.getLogger(__name__)


@app.route("/customer", methods=["POST"])
def create_customer():
    try:
        save()
    except Exception as e:
        # ruleid: python.exception-details-in-response
        return jsonify({'Error': str(e.message)}), 404
    return jsonify({}), 200


@app.route("/run")
def run():
    try:
        work()
    except Exception as e:
        # ruleid: python.exception-details-in-response
        return f"failed: {e}", 500
    return "ok"


@app.route("/trace")
def trace():
    try:
        work()
    except Exception:
        # ruleid: python.exception-details-in-response
        return render_template("error.html", detail=traceback.format_exc())
    return "ok"


@app.route("/quiet")
def quiet():
    try:
        work()
    except Exception as e:
        log.exception("work failed")
        # ok: python.exception-details-in-response
        return jsonify({"error": "internal error"}), 500
    return "ok"


@app.route("/validate", methods=["POST"])
def validate():
    try:
        parse()
    except ValidationError as e:
        # ok: python.exception-details-in-response
        return jsonify({"errors": e.messages}), 400
    return "ok"


def helper():
    try:
        work()
    except OSError as e:
        # ok: python.exception-details-in-response
        return str(e)


def django_view(request):
    try:
        work()
    except Exception as exc:
        # ruleid: python.exception-details-in-response
        return HttpResponse("Error: %s" % exc, status=500)
    return HttpResponse("ok")


class Handler(BaseHTTPRequestHandler):
    def do_GET(self):
        try:
            work()
        except Exception as ex:
            # ruleid: python.exception-details-in-response
            self.send_error(500, str(ex))
            return
        # ok: python.exception-details-in-response
        self.wfile.write(b"ok")


def last_chance(request):
    try:
        return handle(request)
    except Exception:
        # ok: python.exception-details-in-response
        return HttpResponseServerError(
            traceback.format_exc() if settings.DEBUG else "Internal Server Error",
            content_type="text/plain",
        )


class Handler2(BaseHTTPRequestHandler):
    def do_GET(self):
        try:
            code = handler.get_status_code()
            content = handler.get_content()
        except Exception as ex:
            content = str(ex)
            code = 500
        if code != 200:
            # ruleid: python.exception-details-in-response
            self.send_error(code, content)
            return None
        # ok: python.exception-details-in-response
        self.wfile.write(b"done")

    def do_POST(self):
        message = str(self.path)
        try:
            work()
        except OSError:
            # ok: python.exception-details-in-response
            self.send_error(500, message)


@app.route("/search")
def search():
    try:
        results = query()
        return jsonify(results), 200
    except Exception as e:
        template = """<html><h3>%s</h3></html>""" % str(e)
        # ruleid: python.exception-details-in-response
        return render_template_string(template, dir=dir), 404


from flask_restful import Resource


class Picture(Resource):
    def get(self):
        try:
            return fetch_picture()
        except Exception as e:
            # ruleid: python.exception-details-in-response
            return {"message": str(e)}, 500

    def helper(self):
        try:
            return fetch_picture()
        except Exception as e:
            # ok: python.exception-details-in-response
            return {"message": str(e)}


@app.post("/items")
async def create_item(item):
    try:
        return store(item)
    except Exception as e:
        # ruleid: python.exception-details-in-response
        return {"detail": repr(e)}


def oauth_callback(client, request):
    try:
        token = client.authorize_access_token(request)
    except OAuthError as error:
        # An OAuth error code (RFC 6749) is written for the client.
        # ok: python.exception-details-in-response
        return HTMLResponse(f"<h1>{error.error}</h1>")
    return token
