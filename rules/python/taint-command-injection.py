import argparse
import asyncio
import cgi
import os
import shlex
import subprocess
import sys
from http.server import BaseHTTPRequestHandler

import tornado.web
from aiohttp import web
from django.http import HttpResponse
from django.views import View
from django.views.decorators.http import require_GET
from fastapi import FastAPI, Request
from flask import Flask, request

app = Flask(__name__)
api = FastAPI()


@app.route("/ping")
def ping():
    host = request.args.get("host", "")
    # ruleid: python.taint-command-injection
    os.system("ping -c 1 " + host)
    # ok: python.taint-command-injection
    os.system("ping -c 1 " + shlex.quote(host))
    return "done"


@app.route("/convert", methods=["POST"])
def convert():
    fmt = request.form["format"]
    cmd = f"convert upload.png out.{fmt}"
    # ruleid: python.taint-command-injection
    output = subprocess.check_output(cmd, shell=True)
    # ok: python.taint-command-injection
    subprocess.run(["convert", "upload.png", "out." + fmt], check=True)
    return output


def build_archive_command(name):
    return "tar czf /tmp/%s.tgz /srv/data" % name


@app.route("/archive")
def archive():
    # ruleid: python.taint-command-injection
    subprocess.Popen(build_archive_command(request.args["name"]), shell=True)
    name = request.args["name"]
    name = "nightly"
    # ok: python.taint-command-injection
    subprocess.Popen(build_archive_command(name), shell=True)
    return "started"


def main():
    # ruleid: python.taint-command-injection
    os.popen("grep %s /var/log/syslog" % sys.argv[1])
    # ok: python.taint-command-injection
    os.system("uptime")


class ThumbnailView(View):
    def post(self, request):
        size = request.POST.get("size", "64x64")
        # ruleid: python.taint-command-injection
        subprocess.run(f"convert in.png -resize {size} out.png", shell=True, check=True)
        # ok: python.taint-command-injection
        subprocess.run(["convert", "in.png", "-resize", size, "out.png"], check=True)
        return HttpResponse("ok")


@require_GET
def git_log(request, branch):
    # ruleid: python.taint-command-injection
    return HttpResponse(subprocess.getoutput("git log --oneline " + branch))


@require_GET
def git_log_quoted(request, branch):
    # ok: python.taint-command-injection
    return HttpResponse(subprocess.getoutput("git log --oneline " + shlex.quote(branch)))


@api.get("/dig")
async def dig(domain: str, retries: int = 1):
    # ruleid: python.taint-command-injection
    proc = await asyncio.create_subprocess_shell("dig +short " + domain)
    # ok: python.taint-command-injection
    other = await asyncio.create_subprocess_shell("dig +tries=%d example.com" % retries)
    return {"pid": proc.pid, "other": other.pid}


@api.post("/run")
async def run_tool(request: Request):
    payload = await request.json()
    # ruleid: python.taint-command-injection
    proc = await asyncio.create_subprocess_exec(payload["tool"], "--version")
    return {"pid": proc.pid}


class PingHandler(tornado.web.RequestHandler):
    def get(self):
        host = self.get_query_argument("host")
        # ruleid: python.taint-command-injection
        os.system("ping -c 1 %s" % host)
        # ok: python.taint-command-injection
        os.system("ping -c 1 %s" % shlex.quote(host))


async def aiohttp_lookup(request):
    name = request.match_info["name"]
    # ruleid: python.taint-command-injection
    os.popen("whois " + name)
    return web.Response(text="queued")


class AdminHandler(BaseHTTPRequestHandler):
    def do_POST(self):
        length = int(self.headers["Content-Length"])
        command = self.rfile.read(length).decode()
        # ruleid: python.taint-command-injection
        os.system(command)
        # ok: python.taint-command-injection
        os.system("logger received %d bytes" % length)


def cgi_main():
    form = cgi.FieldStorage()
    # ruleid: python.taint-command-injection
    subprocess.call("lpr " + form.getfirst("file", ""), shell=True)


def remote_exec(ssh, request):
    # ruleid: python.taint-command-injection
    ssh.exec_command("tail -n 100 " + request.GET["log"])
    # ok: python.taint-command-injection
    ssh.exec_command("uptime")


def cli():
    args = argparse.ArgumentParser().parse_args()
    # ruleid: python.taint-command-injection
    os.system("tar xzf " + args.archive)
    # ruleid: python.taint-command-injection
    os.execvp(os.environ["EDITOR"], ["editor", "notes.txt"])


# GraphQL: the arguments of a Graphene resolver or mutation come from the query; root and info do not.
class Query:
    def resolve_diagnostics(self, info, cmd="whoami"):
        # ruleid: python.taint-command-injection
        return os.popen(cmd).read()

    def resolve_node(root, info):
        # ok: python.taint-command-injection
        return os.popen(info.field_name + root.name).read()


class RunJob:
    def mutate(root, info, job, **kwargs):
        # ruleid: python.taint-command-injection
        subprocess.call("run " + job, shell=True)


import strawberry


@strawberry.type
class StrawberryQuery:
    @strawberry.field
    def ping(self, host: str) -> str:
        # ruleid: python.taint-command-injection
        return os.popen("ping " + host).read()

    @strawberry.mutation(description="restart")
    def restart(self, info: strawberry.Info, service: str, count: int) -> str:
        # ok: python.taint-command-injection
        os.system("systemctl restart %d" % count)
        # ruleid: python.taint-command-injection
        return os.popen("systemctl restart " + service).read()


# Tornado: a handler method's path arguments are groups of the URL; the same method outside a
# RequestHandler is no handler.
class ServiceHandler(tornado.web.RequestHandler):
    def post(self, service, *args):
        # ruleid: python.taint-command-injection
        os.system("systemctl restart " + service)


class Cache:
    def get(self, key):
        # ok: python.taint-command-injection
        return os.popen("cat /var/cache/" + key).read()


# http.server: the request target and headers of a handler; another class's path is not a request.
class LookupHandler(BaseHTTPRequestHandler):
    def do_GET(self):
        # ruleid: python.taint-command-injection
        os.system("host " + self.headers.get("X-Host", ""))
        # ruleid: python.taint-command-injection
        os.system("grep -r " + self.path.split("?")[1] + " /srv")


class Build:
    def run(self):
        # ok: python.taint-command-injection
        os.system("make -C " + self.path)
