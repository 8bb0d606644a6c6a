import functools
import logging
import os
import shlex

from flask import Flask, request

app = Flask(__name__)
log = logging.getLogger(__name__)


def logged(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        log.info("calling %s", fn.__name__)
        return fn(*args, **kwargs)
    return wrapper


@logged
def make_thumbnail(name):
    os.system("convert /srv/uploads/" + name + " -thumbnail 64x64 /srv/thumbs/out.png")


@app.post("/thumb")
def thumb():
    make_thumbnail(request.form["name"])
    return "ok"
