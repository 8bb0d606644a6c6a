from flask import Flask, request

app = Flask(__name__)
ALLOWED = {"https://app.example.com"}


@app.after_request
def after_request(response):
    origin = request.headers.get('Origin')
    if origin:
        # ruleid: python.cors-reflected-origin
        response.headers.add('Access-Control-Allow-Origin', origin)
        response.headers.add('Access-Control-Allow-Credentials', 'true')
    return response


def django_view(request):
    response = HttpResponse("ok")
    # ruleid: python.cors-reflected-origin
    response["Access-Control-Allow-Origin"] = request.META.get("HTTP_ORIGIN")
    return response


@app.after_request
def checked(response):
    origin = request.headers.get("Origin")
    if origin in ALLOWED:
        # ok: python.cors-reflected-origin
        response.headers["Access-Control-Allow-Origin"] = origin
    if is_allowed_origin(origin):
        # ok: python.cors-reflected-origin
        response.headers["Access-Control-Allow-Origin"] = origin
    # ok: python.cors-reflected-origin
    response.headers["Access-Control-Allow-Origin"] = "https://app.example.com"
    # ok: python.cors-reflected-origin
    response.headers["Vary"] = origin
    return response
