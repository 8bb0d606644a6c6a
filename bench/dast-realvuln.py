#!/usr/bin/env python3
"""Sentinel's DAST engine vs Wapiti on real deliberately vulnerable Python web apps (issue 30).

    python3 bench/dast-realvuln.py [SENTINEL_BINARY] [--apps a,b] [--skip-wapiti] [--jobs N]
    python3 bench/dast-realvuln.py --start-only [--apps a,b]   # recipe work: install, seed, start, stop
    python3 bench/dast-realvuln.py --rescore                   # score the saved reports again, no scans
    python3 bench/dast-realvuln.py --no-login                  # leave out the recipes' logins
    python3 bench/dast-realvuln.py --prove [--apps a,b]        # issue 80: `scan APP --prove URL` beside
                                                               # `--dast URL --active` (no Wapiti)

Run as root (apps run as the system user sentinel-bench, created when missing). Apps run --jobs at a
time (default 3); each app's two scans run one after the other. Reports and results.json are kept in
bench/out/dast-realvuln/ (git-ignored) for --rescore.

The apps are the ones in ../shared/corpora/realvuln-dev/apps, their labels the ground truth beside
them. Per app (recipe in bench/dast-realvuln-apps.json):

  * a venv is built from the app's own requirements (pins relaxed only where the recipe says so,
    with a note) in a private cache dir ($DAST_BENCH_DIR, default ${TMPDIR:-/tmp}/sentinel-dast-
    bench-UID; mode 700, owned by the caller, never a symlink), keyed by a hash of the requirements,
    so reruns reuse it;
  * for each scanner a fresh scratch copy of the app (owned by the unprivileged system user
    sentinel-bench) gets its seed step and is started on 127.0.0.1 on a free port as that user, under
    `prlimit --as` and a wall-clock bound, in a private mount namespace where the venv is bind-mounted
    into the run dir (the cache dir itself stays 700); after the scan the whole process group dies;
  * the scans are `sentinel scan --dast URL --active --tools dast` and the same with
    `--tools wapiti` (Wapiti through Sentinel's adapter), both `--max-duration 10m`; where the recipe
    has a "login" (the form, the field values of a user the app or its seed step creates), both get it
    as `dast.login` in an operator config (`--config`; the values in the environment): Sentinel logs in
    itself, Wapiti with its own form login;
  * requests are counted from the app's own access log (werkzeug, Django runserver, uvicorn,
    BaseHTTPServer and tornado all log one line per request; the count is left out where the app
    logs none), wall time is the scan's;
  * a label (is_vulnerable) is FOUND when a finding has a CWE in its acceptable_cwes and the
    finding's URL path is served by a handler in the label's file. Routes come from the sources
    (Flask/FastAPI/aiohttp decorators and add_route calls, tornado URL tuples, Django urls.py) plus
    the recipe's "routes" data. A label whose file serves no route is "not web-reachable" and is
    counted apart. A finding that matches no label is a candidate false positive (listed; the
    injection-class ones, whose CWEs are in INJECTION_CWES, are counted apart from header/config
    findings).

With --prove (issue 80) each app's source tree (the corpus's, where users point the tool) is
scanned with `sentinel scan APP --tools native --prove URL --min-confidence low` while the app runs,
and the same run's `--dast URL --active` scan stands beside it. A taint finding "at a route" is one
whose report names its route (`properties.route`); it is matched to a label of the same file whose
lines it falls in (two lines of slack) and whose CWEs it shares: a vulnerable label makes it true,
a trap (is_vulnerable false) a trap, none unlabelled. Printed per half (bench/halves.py) and per
class: true findings at routes, how many proven, the labels DAST alone found of those classes,
proven traps (must be 0), proven unlabelled findings (listed, to judge), requests and seconds per
proven finding.

Output: per-app lines, candidate FPs, and a Markdown table. Nothing is written under shared/.
"""
import ast
import concurrent.futures
import hashlib
import json
import os
import pwd
import re
import shutil
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.environ.get("DAST_REALVULN_CORPUS",
                        os.path.join(os.path.dirname(ROOT), "shared", "corpora", "realvuln-dev"))
if not os.path.isdir(CORPUS):
    CORPUS = "/work/shared/corpora/realvuln-dev"
RECIPES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "dast-realvuln-apps.json")
WAPITI = "/opt/sentinel-tools/wapiti/bin/wapiti"
BENCH_USER = "sentinel-bench"
INJECTION_CWES = {79, 89, 78, 77, 22, 23, 95, 94, 1336, 601, 918, 611, 113, 93, 643, 90, 502, 98, 943, 917}
ANSI = re.compile(r"\x1b\[[0-9;]*m")  # werkzeug colours non-2xx request lines
REQUEST_LINE = re.compile(r'(?:"|\s|^)(GET|POST|PUT|DELETE|HEAD|OPTIONS|PATCH|TRACE|CONNECT|PROPFIND)\s+/')
MEM_CAP = 4 << 30
PIP_TIMEOUT = 1200
SCAN_TIMEOUT = 13 * 60
LOCK = threading.Lock()
START_ONLY = False
RESCORE = False
NO_LOGIN = False  # --no-login: scan every app anonymously, as the first run did
PROVE = False  # --prove: `scan APP --prove URL` beside `--dast URL --active`
OUT_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "out", "dast-realvuln")  # reports, for --rescore

SHIM = r'''
import asyncio, importlib, logging, os, runpy, sys
ARGV = list(sys.argv)
kind, target, port, appdir = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
before = [b for b in sys.argv[5].split(",") if b] if len(sys.argv) > 5 else []
os.chdir(appdir)
sys.path.insert(0, appdir)
if os.environ.get("BENCH_PY_COMPAT"):  # old Django on 3.11: names Python removed, put back in the interpreter
    import collections, collections.abc, gettext, inspect
    for n in collections.abc.__all__:
        setattr(collections, n, getattr(collections.abc, n))
    gettext.NullTranslations.set_output_charset = lambda self, charset: None
    _translation = gettext.translation
    gettext.translation = lambda *a, codeset=None, **kw: _translation(*a, **kw)
    if not hasattr(inspect, "getargspec"):
        inspect.getargspec = lambda f: inspect.getfullargspec(f)[:4]
    try:  # patterns() (removed in Django 1.10) for urls.py written for 1.9
        import django.conf.urls
        if not hasattr(django.conf.urls, "patterns"):
            django.conf.urls.patterns = lambda prefix, *urls: list(urls)
    except ImportError:
        pass
sys.argv = [target]
logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="%(name)s %(message)s")
def resolve(spec):
    mod, _, attr = spec.partition(":")
    obj = importlib.import_module(mod)
    for part in attr.split(".") if attr else []:
        obj = getattr(obj, part)
    return obj
for b in before:
    r = resolve(b)()
    if asyncio.iscoroutine(r):
        asyncio.run(r)
if kind == "flask_main":
    # the app's own __main__ (seeding included), with Flask.run bound to our host and port and no reloader
    import flask
    from werkzeug.serving import run_simple
    def run(self, host=None, port=None, debug=None, **kw):
        dbg = bool(self.debug if debug is None else debug)
        run_simple("127.0.0.1", PORT, self, threaded=True, use_reloader=False, use_debugger=dbg, use_evalex=dbg)
    PORT = port
    flask.Flask.run = run
    sys.argv = [target]
    runpy.run_path(target, run_name="__main__")
elif kind == "script":  # the app's own script (manage.py runserver ...), argv after the shim's own
    sys.argv = [target] + [a.replace("{port}", str(port)) for a in ARGV[6:]]
    runpy.run_path(target, run_name="__main__")
elif kind == "wsgi":
    app = resolve(target)
    from werkzeug.serving import run_simple
    run_simple("127.0.0.1", port, app, threaded=True, use_reloader=False, use_debugger=False)
elif kind == "asgi":
    import uvicorn
    uvicorn.run(resolve(target), host="127.0.0.1", port=port, log_level="info", access_log=True)
elif kind == "tornado":
    import tornado.ioloop
    app = resolve(target)
    if isinstance(app, type):
        app = app()
    app.listen(port, address="127.0.0.1")
    tornado.ioloop.IOLoop.current().start()
'''


def log(*args):
    with LOCK:
        print(*args, flush=True)


# ---------------------------------------------------------------- private cache dir and bench user

def private_dir(path, uid):
    """Create (0700) or check a directory that is ours: not a symlink, owned by uid, no group/other bits."""
    try:
        os.mkdir(path, 0o700)
    except FileExistsError:
        pass
    st = os.lstat(path)
    if stat.S_ISLNK(st.st_mode) or not stat.S_ISDIR(st.st_mode):
        raise SystemExit("refusing %s: not a plain directory" % path)
    if st.st_uid != uid:
        raise SystemExit("refusing %s: owned by uid %d, not %d" % (path, st.st_uid, uid))
    if st.st_mode & 0o077:
        raise SystemExit("refusing %s: mode %o (must be 700)" % (path, st.st_mode & 0o777))
    return path


def bench_user():
    try:
        pw = pwd.getpwnam(BENCH_USER)
    except KeyError:
        subprocess.run(["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", BENCH_USER],
                       check=True)
        pw = pwd.getpwnam(BENCH_USER)
    return pw.pw_uid, pw.pw_gid


def read_nofollow(path, limit=64 << 20):
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return ""
        chunks, size = [], 0
        while size < limit:
            b = os.read(fd, 1 << 20)
            if not b:
                break
            chunks.append(b)
            size += len(b)
        return b"".join(chunks).decode(errors="replace")
    finally:
        os.close(fd)


def last_line(text, n=1):
    lines = [l.strip() for l in text.splitlines() if l.strip()]
    return " | ".join(lines[-n:])[:300] if lines else "(no output)"


# ---------------------------------------------------------------- venv

def requirements_of(app, recipe):
    if "requirements" in recipe:
        return list(recipe["requirements"])
    path = os.path.join(CORPUS, "apps", app, recipe.get("requirements_file", "requirements.txt"))
    reqs = []
    for line in open(path, encoding="utf-8", errors="replace"):
        line = line.split("#", 1)[0].strip() if not line.strip().startswith("git+") else line.strip()
        if line:
            reqs.append(line)
    return reqs


def venv_for(cache, app, recipe):
    reqs = requirements_of(app, recipe)
    key = hashlib.sha256(json.dumps([sys.version_info[:2], sorted(reqs),
                                     sorted(recipe.get("requirements_nodeps", []))]).encode()).hexdigest()[:16]
    base = os.path.join(cache, "venv")
    with LOCK:
        private_dir(base, os.getuid())
    venv = os.path.join(base, key)
    if os.path.isfile(os.path.join(venv, ".complete")) and not os.path.islink(venv):
        return venv, None
    tmp = venv + ".tmp-%d-%d" % (os.getpid(), threading.get_ident())
    shutil.rmtree(tmp, ignore_errors=True)
    logpath = venv + ".log"
    env = dict(os.environ, PIP_CACHE_DIR=os.path.join(cache, "pip"), PIP_DISABLE_PIP_VERSION_CHECK="1")
    try:
        with open(logpath, "w") as out:
            subprocess.run([sys.executable, "-m", "venv", tmp], check=True, stdout=out, stderr=out)
            # the venv's own paths are what its scripts use; venv at its final name only once complete
            r = subprocess.run([os.path.join(tmp, "bin", "python"), "-m", "pip", "install", "--no-input"] + reqs
                               if reqs else ["true"], stdout=out, stderr=subprocess.STDOUT, env=env, timeout=PIP_TIMEOUT)
            nodeps = recipe.get("requirements_nodeps", [])
            if r.returncode == 0 and nodeps:
                r = subprocess.run([os.path.join(tmp, "bin", "python"), "-m", "pip", "install", "--no-input",
                                    "--no-deps"] + nodeps, stdout=out, stderr=subprocess.STDOUT, env=env,
                                   timeout=PIP_TIMEOUT)
        if r.returncode != 0:
            text = open(logpath, errors="replace").read()
            errs = [l for l in text.splitlines() if l.startswith("ERROR") or "error:" in l.lower()]
            shutil.rmtree(tmp, ignore_errors=True)
            return None, "pip install failed: " + (errs[0] if errs else last_line(text))[:240]
        for root, dirs, files in os.walk(tmp):
            os.chmod(root, 0o755)
        open(os.path.join(tmp, ".complete"), "w").write(" ".join(reqs))
        shutil.rmtree(venv, ignore_errors=True)
        os.rename(tmp, venv)
        return venv, None
    except subprocess.TimeoutExpired:
        shutil.rmtree(tmp, ignore_errors=True)
        return None, "pip install timed out after %ds" % PIP_TIMEOUT
    except Exception as e:  # noqa: BLE001 - a bad app never stops the run
        shutil.rmtree(tmp, ignore_errors=True)
        return None, "venv failed: %s" % e


# ---------------------------------------------------------------- one app process

def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class AppRun:
    """A scratch copy of an app owned by the bench user, its seed steps and its server process."""

    def __init__(self, app, recipe, venv, ids):
        self.app, self.recipe, self.venv = app, recipe, venv
        self.uid, self.gid = ids
        self.dir = tempfile.mkdtemp(prefix="sentinel-dast-run-")
        os.chmod(self.dir, 0o711)
        self.mnt = os.path.join(self.dir, "venv")
        os.mkdir(self.mnt, 0o755)
        self.shim = os.path.join(self.dir, "shim.py")
        with open(self.shim, "w") as f:
            f.write(SHIM)
        os.chmod(self.shim, 0o644)
        overlay = os.path.join(self.dir, "overlay")  # recipe-supplied modules (e.g. a settings shim), read-only
        os.mkdir(overlay, 0o755)
        for name, text in recipe.get("overlay", {}).items():
            with open(os.path.join(overlay, os.path.basename(name)), "w") as f:
                f.write(text)
            os.chmod(os.path.join(overlay, os.path.basename(name)), 0o644)
        self.logpath = os.path.join(self.dir, "app.log")
        self.log = open(self.logpath, "wb")
        os.chmod(self.logpath, 0o600)
        src = os.path.join(CORPUS, "apps", app)
        self.scratch = os.path.join(self.dir, "app")
        shutil.copytree(src, self.scratch, symlinks=True,
                        ignore=shutil.ignore_patterns(".git", "node_modules", "__pycache__"))
        for root, dirs, files in os.walk(self.scratch):
            for name in dirs + files:
                p = os.path.join(root, name)
                st = os.lstat(p)
                os.lchown(p, self.uid, self.gid)
                if not stat.S_ISLNK(st.st_mode):  # the copy is the app's own to write (corpus files are read-only)
                    os.chmod(p, (st.st_mode | (0o700 if stat.S_ISDIR(st.st_mode) else 0o600)) & 0o7755)
        os.chmod(self.scratch, 0o755)
        os.lchown(self.scratch, self.uid, self.gid)
        self.workdir = os.path.join(self.scratch, recipe.get("workdir", "."))
        self.proc = None
        self.port = None

    def wrap(self, argv, wall):
        python = os.path.join(self.mnt, "bin", "python")
        argv = [python if a == "{python}" else a.replace("{port}", str(self.port or 0)) for a in argv]
        return ["unshare", "--mount", "--propagation", "private", "--", "/bin/sh", "-c",
                'mount --bind "$1" "$2" && shift 2 && exec "$@"', "sh", self.venv, self.mnt,
                "prlimit", "--as=%d" % self.recipe.get("mem", MEM_CAP), "--",
                "timeout", "-s", "KILL", str(wall),
                "setpriv", "--reuid=%d" % self.uid, "--regid=%d" % self.gid, "--init-groups", "--"] + argv

    def env(self):
        env = {"PATH": os.path.join(self.mnt, "bin") + ":/usr/bin:/bin", "HOME": self.scratch,
               "LANG": "C.UTF-8", "PYTHONDONTWRITEBYTECODE": "1", "PYTHONUNBUFFERED": "1",
               "VIRTUAL_ENV": self.mnt, "TMPDIR": self.scratch}
        if self.recipe.get("overlay"):
            env["PYTHONPATH"] = os.path.join(self.dir, "overlay")
        env.update({k: v.replace("{port}", str(self.port or 0)) for k, v in self.recipe.get("env", {}).items()})
        return env

    def setup(self):
        for step in self.recipe.get("setup", []):
            if self.recipe["kind"] == "script" and step[0] == "{python}" and step[1].endswith(".py"):
                step = ["{python}", self.shim, "script", step[1], "0", self.workdir, ""] + step[2:]
            r = subprocess.run(self.wrap(step, 300), cwd=self.workdir, env=self.env(), stdout=self.log,
                               stderr=self.log, stdin=subprocess.DEVNULL, timeout=330)
            if r.returncode != 0:
                self.log.flush()
                return "seed step %s exited %d: %s" % (" ".join(step[1:3]), r.returncode,
                                                       last_line(read_nofollow(self.logpath)))
        self.seed_log_bytes = self.log.tell()
        return None

    def start(self, wall):
        self.seed_log_bytes = getattr(self, "seed_log_bytes", 0)
        self.port = free_port()
        kind = self.recipe["kind"]
        if kind == "cmd":
            argv = self.recipe["cmd"]
        else:
            argv = ["{python}", self.shim, kind, self.recipe["target"], "{port}", self.workdir,
                    ",".join(self.recipe.get("before", []))] + self.recipe.get("args", [])
        self.proc = subprocess.Popen(self.wrap(argv, wall), cwd=self.workdir, env=self.env(), stdout=self.log,
                                     stderr=self.log, stdin=subprocess.DEVNULL, start_new_session=True)
        url = "http://127.0.0.1:%d%s" % (self.port, self.recipe.get("probe", "/"))
        deadline = time.time() + self.recipe.get("start_timeout", 90)
        while time.time() < deadline:
            if self.proc.poll() is not None:
                self.log.flush()
                return "exited %s before answering: %s" % (self.proc.returncode,
                                                             last_line(read_nofollow(self.logpath), 2))
            try:
                urllib.request.urlopen(urllib.request.Request(url, method="GET"), timeout=3).read(1)
                return None
            except urllib.error.HTTPError:
                return None  # any HTTP answer is an answer
            except Exception:  # noqa: BLE001
                time.sleep(0.5)
        self.stop()
        return "no HTTP answer on %s within %ds: %s" % (self.recipe.get("probe", "/"),
                                                        self.recipe.get("start_timeout", 90),
                                                        last_line(read_nofollow(self.logpath), 2))

    def requests_after_start(self):
        self.log.flush()
        text = read_nofollow(self.logpath)[self.seed_log_bytes:]
        return sum(1 for line in ANSI.sub("", text).splitlines() if REQUEST_LINE.search(line))

    def stop(self):
        if self.proc and self.proc.poll() is None:
            for sig in (signal.SIGTERM, signal.SIGKILL):
                try:
                    os.killpg(self.proc.pid, sig)
                except ProcessLookupError:
                    break
                try:
                    self.proc.wait(5)
                    break
                except subprocess.TimeoutExpired:
                    continue
        try:  # stragglers that stayed in the group after the leader died
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, AttributeError, PermissionError):
            pass

    def cleanup(self):
        self.stop()
        self.log.close()
        shutil.rmtree(self.dir, ignore_errors=True)  # rmtree does not follow symlinks


# ---------------------------------------------------------------- routes

def route_regex(path):
    """A route as written in the source (flask <x>, fastapi {x}, or a regex) -> compiled full-match regex."""
    if path.startswith("^") or path.endswith("$") or "(" in path or "\\" in path:
        return path.lstrip("^").rstrip("$")
    out = ""
    for piece in re.split(r"(<[^>]*>|\{[^}]*\})", path):
        if piece.startswith("<") and piece.endswith(">"):
            out += ".+" if piece.startswith("<path:") else "[^/]+"
        elif piece.startswith("{") and piece.endswith("}"):
            out += ".+" if ":path" in piece else "[^/]+"
        else:
            out += re.escape(piece)
    return out


def const_str(node):
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "{x}" for v in node.values)
    return None


ROUTE_METHODS = {"route", "get", "post", "put", "delete", "patch", "api_route", "websocket", "head", "options"}


def parse_py(source):
    """ast of a module; Python 2 sources (some of these apps) are read through lib2to3 first."""
    try:
        return ast.parse(source)
    except SyntaxError:
        import warnings
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            from lib2to3 import refactor
        tool = refactor.RefactoringTool(refactor.get_fixers_from_package("lib2to3.fixes"))
        return ast.parse(str(tool.refactor_string(source if source.endswith("\n") else source + "\n", "<app>")))


def python_routes(tree):
    """(prefix variable, path) pairs of decorator routes and add_route/add_url_rule calls in one module,
    the url prefixes Blueprint/APIRouter/Namespace objects were made with, and tornado URL tuples."""
    routes, prefixes, tornado = [], {}, []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            for d in node.decorator_list:
                if isinstance(d, ast.Call) and isinstance(d.func, ast.Attribute) and d.func.attr in ROUTE_METHODS \
                        and d.args and const_str(d.args[0]) is not None:
                    owner = d.func.value.id if isinstance(d.func.value, ast.Name) else None
                    routes.append((owner, const_str(d.args[0]), node.name))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            name = node.func.attr
            if name in ("add_url_rule", "add_route", "add_get", "add_post", "add_put", "add_delete",
                        "add_api_route", "add_resource") and node.args:
                args = node.args[1:] if name in ("add_route", "add_resource") and len(node.args) > 1 and \
                    const_str(node.args[0]) and const_str(node.args[0]).isupper() else node.args
                if name == "add_resource":
                    args = node.args[1:]
                for a in args:
                    if const_str(a) is not None and const_str(a).startswith("/"):
                        owner = node.func.value.id if isinstance(node.func.value, ast.Name) else None
                        routes.append((owner, const_str(a), None))
                        break
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) and len(node.targets) == 1 \
                and isinstance(node.targets[0], ast.Name):
            fn = node.value.func
            fname = fn.attr if isinstance(fn, ast.Attribute) else fn.id if isinstance(fn, ast.Name) else ""
            if fname in ("Blueprint", "APIRouter", "Namespace", "namespace"):
                for kw in node.value.keywords:
                    if kw.arg in ("url_prefix", "prefix", "path") and const_str(kw.value) is not None:
                        prefixes[node.targets[0].id] = const_str(kw.value)
                if fname in ("Namespace", "namespace") and node.targets[0].id not in prefixes and node.value.args:
                    prefixes[node.targets[0].id] = "/" + (const_str(node.value.args[0]) or "").strip("/")
        if isinstance(node, ast.Tuple) and len(node.elts) >= 2 and const_str(node.elts[0]) is not None \
                and const_str(node.elts[0]).startswith(("/", "^/", r"^\/")) and isinstance(node.elts[1], (ast.Name, ast.Attribute)):
            h = node.elts[1]
            tornado.append((const_str(node.elts[0]), h.id if isinstance(h, ast.Name) else h.attr))
    return routes, prefixes, tornado


def django_routes(appdir, urls_rel, prefix, out, depth=0):
    """Walk a Django urls.py: url()/re_path()/path() entries; views resolved to their module file."""
    if depth > 4:
        return
    path = os.path.join(appdir, urls_rel)
    try:
        tree = ast.parse(open(path, encoding="utf-8", errors="replace").read())
    except (OSError, SyntaxError):
        return
    pkg = os.path.dirname(urls_rel)
    aliases = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = pkg.split(os.sep) if pkg else []
                parts = parts[:len(parts) - (node.level - 1)] if node.level > 1 else parts
                base = ".".join(parts + ([node.module] if node.module else []))
            for a in node.names:
                aliases[a.asname or a.name] = (base, a.name)
        elif isinstance(node, ast.Import):
            for a in node.names:
                aliases[a.asname or a.name.split(".")[0]] = (a.name, None)

    def module_file(dotted):
        for cand in (dotted.replace(".", "/") + ".py", dotted.replace(".", "/") + "/__init__.py"):
            if os.path.isfile(os.path.join(appdir, cand)):
                return cand
        return None

    def view_file(v):
        if isinstance(v, ast.Attribute):
            n = v
            chain = []
            while isinstance(n, ast.Attribute):
                chain.insert(0, n.attr)
                n = n.value
            if isinstance(n, ast.Name):
                chain.insert(0, n.id)
                if n.id in aliases:
                    base, name = aliases[n.id]
                    head = base + ("." + name if name else "")
                else:
                    head = n.id
                dotted = ".".join([head] + chain[1:])
                # drop trailing attribute parts (function, .as_view) until a module is found
                parts = dotted.split(".")
                while parts:
                    f = module_file(".".join(parts))
                    if f:
                        return f
                    parts.pop()
        if isinstance(v, ast.Call):
            return view_file(v.func)
        if isinstance(v, ast.Name) and v.id in aliases:
            base, name = aliases[v.id]
            return module_file(base + "." + name) or module_file(base)
        return None

    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("url", "path", "re_path") \
                and len(node.args) >= 2 and const_str(node.args[0]) is not None:
            pat = const_str(node.args[0])
            if node.func.id == "path":
                rx = re.sub(r"<[^>]*>", "[^/]+", re.escape(pat).replace(r"\<", "<").replace(r"\>", ">"))
                rx = re.sub(r"<[^>]*>", "[^/]+", rx)
            else:
                rx = pat.lstrip("^").rstrip("$")
            v = node.args[1]
            if isinstance(v, ast.Call) and isinstance(v.func, ast.Name) and v.func.id == "include" and v.args:
                inc = v.args[0]
                if isinstance(inc, ast.Tuple):
                    inc = inc.elts[0]
                target = const_str(inc)
                if target:
                    f = module_file(target)
                    if f:
                        django_routes(appdir, f, prefix + rx, out, depth + 1)
                elif isinstance(inc, (ast.Name, ast.Attribute)):
                    f = view_file(inc)
                    if f:
                        django_routes(appdir, f, prefix + rx, out, depth + 1)
                continue
            f = view_file(v)
            if f:
                out.setdefault(f, []).append(prefix + rx + ("$" if node.func.id == "path" or pat.endswith("$") else ""))


HANDLERS = {}  # app -> file -> [(route regex, handler function)] where a decorator names it


def route_map(app, recipe):
    """file (relative to the app root) -> list of path regexes (matched against the URL path without '/')."""
    appdir = os.path.join(CORPUS, "apps", app)
    sub = recipe.get("workdir", ".")
    base = os.path.normpath(os.path.join(appdir, sub))
    out = {}
    if recipe.get("django_urls"):
        tmp = {}
        django_routes(base, recipe["django_urls"], "", tmp)
        for f, rxs in tmp.items():
            out.setdefault(os.path.normpath(os.path.join(sub, f)), []).extend(["/" + r for r in rxs])
    class_files, tornado_all, global_prefixes, per_file = {}, [], {}, {}
    for root, dirs, files in os.walk(base):
        dirs[:] = [d for d in dirs if d not in (".git", "node_modules", "tests", "test", "venv", ".venv")
                   and os.path.relpath(os.path.join(root, d), base) not in recipe.get("not_served", [])]
        for name in files:
            if not name.endswith(".py"):
                continue
            full = os.path.join(root, name)
            rel = os.path.relpath(full, appdir)
            try:
                tree = parse_py(open(full, encoding="utf-8", errors="replace").read())
            except (SyntaxError, ValueError):
                continue
            routes, prefixes, tornado = python_routes(tree)
            per_file[rel] = routes
            global_prefixes.update(prefixes)
            tornado_all.extend(tornado)
            for node in ast.walk(tree):
                if isinstance(node, ast.ClassDef):
                    class_files.setdefault(node.name, rel)
            for node in ast.walk(tree):  # register_blueprint(bp, url_prefix=...) / include_router(r, prefix=...)
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                        node.func.attr in ("register_blueprint", "include_router", "add_namespace") and node.args:
                    tgt = node.args[0]
                    tname = tgt.id if isinstance(tgt, ast.Name) else tgt.attr if isinstance(tgt, ast.Attribute) else None
                    for kw in node.keywords:
                        if kw.arg in ("url_prefix", "prefix", "path") and const_str(kw.value) is not None and tname:
                            global_prefixes[tname] = const_str(kw.value)
    api_prefix = recipe.get("api_prefix", {})
    for rel, routes in per_file.items():
        for owner, path, function in routes:
            pre = api_prefix.get(rel, "") + global_prefixes.get(owner, "")
            rx = route_regex(pre.rstrip("/") + path if pre else path)
            out.setdefault(rel, []).append(rx)
            if function:
                HANDLERS.setdefault(app, {}).setdefault(rel, []).append((re.compile(rx.lstrip("^").rstrip("$")), function))
    for rx, handler in tornado_all:
        if handler in class_files:
            out.setdefault(class_files[handler], []).append(route_regex(rx if rx.startswith("^") else "^" + rx))
    for f, rxs in recipe.get("routes", {}).items():
        out.setdefault(f, []).extend(rxs)
    return {f: [re.compile(r.lstrip("^").rstrip("$") if not r.endswith("$") else r.lstrip("^")) for r in rxs]
            for f, rxs in out.items()}


def module_file(appdir, importer, dotted, level=0):
    """The app file a module name imports (relative to the app root), looked up beside the
    importer, then from each of its parent directories up to the app root; None for a library."""
    here = os.path.dirname(os.path.join(appdir, importer))
    if level:
        for _ in range(level - 1):
            here = os.path.dirname(here)
        bases = [here]
    else:
        bases, d = [], here
        while True:
            bases.append(d)
            if os.path.normpath(d) == os.path.normpath(appdir):
                break
            d = os.path.dirname(d)
    parts = dotted.split(".") if dotted else []
    for base in bases:
        for cand in (os.path.join(base, *parts) + ".py", os.path.join(base, *parts, "__init__.py")):
            if parts and os.path.isfile(cand):
                return os.path.relpath(cand, appdir)
    return None


def handler_callees(app, routes):
    """handler file -> {(app file, function)} it calls directly (`libuser.login(...)` after
    `import libuser`, `login(...)` after `from libuser import login`): a label in a helper module
    is reached through the routes of the handlers that call its function (one level)."""
    appdir = os.path.join(CORPUS, "apps", app)
    out = {}
    for rel in routes:
        if not rel.endswith(".py") or not os.path.isfile(os.path.join(appdir, rel)):
            continue
        try:
            tree = parse_py(open(os.path.join(appdir, rel), encoding="utf-8", errors="replace").read())
        except (SyntaxError, ValueError):
            continue
        modules, names = {}, {}
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for a in node.names:
                    f = module_file(appdir, rel, a.name)
                    if f:
                        modules[a.asname or a.name] = f
            elif isinstance(node, ast.ImportFrom):
                for a in node.names:
                    sub = module_file(appdir, rel, ((node.module or "") + "." + a.name).strip("."), node.level)
                    if sub:
                        modules[a.asname or a.name] = sub
                        continue
                    f = module_file(appdir, rel, node.module or "", node.level)
                    if f:
                        names[a.asname or a.name] = (f, a.name)
        def calls_in(scope):
            calls = set()
            for node in ast.walk(scope):
                if not isinstance(node, ast.Call):
                    continue
                fn = node.func
                if isinstance(fn, ast.Attribute) and isinstance(fn.value, ast.Name) and fn.value.id in modules:
                    calls.add((modules[fn.value.id], fn.attr))
                elif isinstance(fn, ast.Name) and fn.id in names:
                    calls.add(names[fn.id])
            return calls
        out[rel] = calls_in(tree)
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                out[(rel, node.name)] = calls_in(node)
    return out


def reachable(label, served, callees, path=None, app=None):
    """True when the label's file serves one of `served`'s routes, or a handler among them calls
    the label's function: the handler function of the route `path` matches where a decorator
    names it, else any function of the handler's file."""
    if label["file"] in served:
        return True
    function = (label.get("location") or {}).get("function")
    if not function:
        return False
    target = (label["file"], function)
    for h in served:
        named = [fn for rx, fn in HANDLERS.get(app, {}).get(h, []) if path is not None and
                 (rx.fullmatch(path) or rx.fullmatch(path.rstrip("/")) or rx.fullmatch(path.lstrip("/")))]
        scopes = [(h, fn) for fn in named] if named else [h]
        if any(target in callees.get(scope, ()) for scope in scopes):
            return True
    return False


def reachable_labels(app, recipe, labels, routes):
    """The handlers' callees and the labels some route reaches (through its file or a call)."""
    callees = handler_callees(app, routes)
    served_all = set(routes) | ({recipe["fallback"]} if recipe.get("fallback") else set())
    return callees, [l for l in labels if reachable(l, served_all, callees)]


def url_path(url):
    rest = url.split("://", 1)[-1]
    path = "/" + rest.split("/", 1)[1] if "/" in rest else "/"
    return path.split("?", 1)[0].split("#", 1)[0] or "/"


def files_serving(path, routes, fallback=None):
    hits = set()
    for f, rxs in routes.items():
        for rx in rxs:
            if rx.fullmatch(path) or (rx.pattern.endswith("/") and rx.fullmatch(path + "/")) \
                    or rx.fullmatch(path.rstrip("/")) or rx.fullmatch(path.lstrip("/")):
                hits.add(f)
                break
    return hits or ({fallback} if fallback else set())


def cwes_of(label):
    out = set()
    for c in label.get("acceptable_cwes") or [label.get("primary_cwe")]:
        m = re.search(r"(\d+)", str(c or ""))
        if m:
            out.add(int(m.group(1)))
    return out


def score(report, labels, routes, fallback=None, callees=None, app=None):
    findings = [f for f in report.get("findings", []) if (f.get("location") or {}).get("url")]
    found, matched = set(), set()
    for i, f in enumerate(findings):
        path = url_path(f["location"]["url"])
        served = files_serving(path, routes, fallback)
        fc = set(f.get("cwe") or [])
        for label in labels:
            if reachable(label, served, callees or {}, path, app) and fc & cwes_of(label):
                found.add(label["id"])
                matched.add(i)
    fps = [f for i, f in enumerate(findings) if i not in matched]
    return found, fps


# ---------------------------------------------------------------- one scan

def scan(sentinel, url, tools, out_dir, login=None):
    """One scan; `login` (the recipe's, as `dast.login` takes it) goes to both scanners through an
    operator config file, its values through the environment."""
    return run_sentinel(sentinel, ["--dast", url, "--active", "--tools", tools],
                        os.path.join(out_dir, "report-%s.json" % tools), login)


def prove_scan(sentinel, url, app, out_dir, login=None):
    """`sentinel scan APP --tools native --prove URL`: the taint findings at routes tried against
    the running app (the login as `dast.login`, like the DAST scan's)."""
    return run_sentinel(sentinel, [os.path.join(CORPUS, "apps", app), "--tools", "native", "--prove", url],
                        os.path.join(out_dir, "report-prove.json"), login)


def run_sentinel(sentinel, arguments, out, login=None):
    """`sentinel scan ARGUMENTS` writing its JSON report to `out`, with a fresh SENTINEL_HOME and
    `login` as `dast.login` in an operator config (its values through the environment):
    (seconds, report or None, error or None)."""
    home = tempfile.mkdtemp(prefix="sentinel-home-")
    env = dict(os.environ, SENTINEL_HOME=home, SENTINEL_RULES=os.path.join(ROOT, "rules")
               if os.path.isdir(os.path.join(ROOT, "rules")) else "/work/main/rules")
    config = []
    if login and not NO_LOGIN:
        fields = {}
        for index, (name, value) in enumerate(sorted(login["fields"].items())):
            env["BENCH_LOGIN_%d" % index] = value
            fields[name] = {"env": "BENCH_LOGIN_%d" % index}
        spec = {"url": login["url"], "fields": fields}
        for key in ("loggedInText", "loggedOutText"):
            if login.get(key):
                spec[key] = login[key]
        path = os.path.join(home, "scan.yml")
        with open(path, "w") as f:
            json.dump({"dast": {"login": spec}}, f)  # JSON is YAML
        config = ["--config", path]
    started = time.time()
    err = None
    try:
        r = subprocess.run([sentinel, "scan"] + arguments + ["--format", "json", "--output", out, "--fail-on", "none",
                                                          "--min-confidence", "low", "--max-duration", "10m"] + config,
                           env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=SCAN_TIMEOUT)
        if r.returncode not in (0, 1):
            err = "sentinel exited %d: %s" % (r.returncode, last_line(r.stderr.decode(errors="replace")))
    except subprocess.TimeoutExpired:
        err = "scan timed out"
    seconds = time.time() - started
    shutil.rmtree(home, ignore_errors=True)
    try:
        report = json.load(open(out))
    except (OSError, ValueError):
        report = None
        err = err or "no report"
    return seconds, report, err


def score_prove(report, app):
    """Each taint finding at a route, matched to a label (see the docstring): rows of
    (verdict, class CWE, proven, requests, finding)."""
    gt = json.load(open(os.path.join(CORPUS, "ground-truth", app, "ground-truth.json")))
    rows = []
    for f in report.get("findings", []):
        props = f.get("properties") or {}
        if not props.get("route"):
            continue
        loc = f.get("location") or {}
        line, fc = loc.get("startLine") or 0, set(f.get("cwe") or [])
        verdict = "unlabelled"
        for label in gt.get("findings", []):
            where = label.get("location") or {}
            start, end = where.get("start_line") or 0, where.get("end_line") or where.get("start_line") or 0
            if label.get("file") == loc.get("file") and start - 2 <= line <= end + 2 and fc & cwes_of(label):
                verdict = "true" if label.get("is_vulnerable") else "trap"
                if verdict == "true":
                    break
        rows.append((verdict, (f.get("cwe") or [0])[0], props.get("proven") == "true",
                     int(props.get("proofRequests") or 0), f))
    return rows


def run_app(app, recipe, sentinel, cache, ids, scanners):
    res = {"app": app, "started": False, "reason": None, "scanners": {}, "notes": recipe.get("notes", "")}
    gt = json.load(open(os.path.join(CORPUS, "ground-truth", app, "ground-truth.json")))
    labels = [l for l in gt.get("findings", []) if l.get("is_vulnerable")]
    try:
        routes = route_map(app, recipe)
    except Exception as e:  # noqa: BLE001
        routes = {}
        res["route_error"] = str(e)
    callees, reach = reachable_labels(app, recipe, labels, routes)
    res.update(labels=len(labels), reachable=len(reach), route_files=len(routes))
    if recipe.get("skip"):
        res["reason"] = recipe["skip"]
        return res
    venv, err = venv_for(cache, app, recipe)
    if err:
        res["reason"] = err
        return res
    for tools in scanners:
        run = None
        try:
            run = AppRun(app, recipe, venv, ids)
            err = run.setup() or run.start(SCAN_TIMEOUT + 120)
            if err:
                res["reason"] = err
                return res
            res["started"] = True
            url = "http://127.0.0.1:%d%s" % (run.port, recipe.get("scan_path", "/"))
            if START_ONLY:
                log("  %s answers on %s" % (app, url))
                return res
            if tools == "prove":
                seconds, report, serr = prove_scan(sentinel, url, app, run.dir, recipe.get("login"))
                entry = {"wall": seconds, "error": serr}
                if report is not None:
                    os.makedirs(OUT_DIR, exist_ok=True)
                    entry["report"] = os.path.join(OUT_DIR, "%s-prove.json" % app)
                    with open(entry["report"], "w") as f:
                        json.dump(report, f)
                    entry["rows"] = [(v, c, p, n, (f.get("location") or {}).get("file"),
                                      (f.get("location") or {}).get("startLine"), f.get("ruleId"),
                                      (f.get("properties") or {}).get("proofReason") or "")
                                     for v, c, p, n, f in score_prove(report, app)]
                res["scanners"][tools] = entry
                log("  %s prove: %.0fs, %s" % (app, seconds, serr or "%d at routes, %d proven" % (
                    len(entry.get("rows", [])), sum(1 for r in entry.get("rows", []) if r[2]))))
                continue
            seconds, report, serr = scan(sentinel, url, tools, run.dir, recipe.get("login"))
            if report is not None:
                os.makedirs(OUT_DIR, exist_ok=True)
                with open(os.path.join(OUT_DIR, "%s-%s.json" % (app, tools)), "w") as f:
                    json.dump(report, f)
            requests = run.requests_after_start() if recipe.get("access_log", True) else None
            entry = {"wall": seconds, "requests": requests, "error": serr}
            if report:
                entry["report"] = os.path.join(OUT_DIR, "%s-%s.json" % (app, tools))
                found, fps = score(report, reach, routes, recipe.get("fallback"), callees, app)
                entry.update(found=sorted(found), fps=fps, findings=len(report.get("findings", [])),
                             status=",".join(str(t.get("status")) for t in report.get("summary", {}).get("tools", [])))
            res["scanners"][tools] = entry
            log("  %s %s: %.0fs, %s requests, %s" % (app, tools, seconds, requests,
                                                      serr or "%d/%d found" % (len(entry.get("found", [])), len(reach))))
        except Exception as e:  # noqa: BLE001
            res["scanners"][tools] = {"error": "bench error: %s" % e}
        finally:
            if run:
                run.cleanup()
    return res


# ---------------------------------------------------------------- main

def main():
    args = sys.argv[1:]
    sentinel, only, skip_wapiti, jobs = None, None, False, 3
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--apps":
            only = [x.strip() for x in args[i + 1].split(",") if x.strip()]
            i += 1
        elif a.startswith("--apps="):
            only = [x.strip() for x in a.split("=", 1)[1].split(",") if x.strip()]
        elif a == "--start-only":  # recipe development: install, seed, start, probe, stop
            global START_ONLY
            START_ONLY = True
        elif a == "--rescore":  # score the saved run again (after a route-map or recipe change), no scans
            global RESCORE
            RESCORE = True
        elif a == "--prove":
            global PROVE
            PROVE = True
        elif a == "--skip-wapiti":
            skip_wapiti = True
        elif a == "--no-login":  # every app anonymously (the recipes' logins are not given)
            global NO_LOGIN
            NO_LOGIN = True
        elif a == "--jobs":
            jobs = int(args[i + 1])
            i += 1
        elif a in ("-h", "--help"):
            print(__doc__)
            return
        else:
            sentinel = a
        i += 1
    if not sentinel:
        for cand in ("/work/main/.build/debug/sentinel", "/work/main/.build-release-static/release/sentinel"):
            if os.path.isfile(cand):
                sentinel = cand
                break
    if not sentinel or not os.access(sentinel, os.X_OK):
        raise SystemExit("no sentinel binary (give it as the first argument)")
    if os.getuid() != 0:
        raise SystemExit("run as root: apps run as the %s user, in a mount namespace of their own" % BENCH_USER)
    cache = os.environ.get("DAST_BENCH_DIR") or os.path.join(os.environ.get("TMPDIR") or "/tmp",
                                                             "sentinel-dast-bench-%d" % os.getuid())
    private_dir(cache, os.getuid())
    ids = bench_user()
    recipes = json.load(open(RECIPES))["apps"]
    apps = sorted(recipes)
    if only:
        want = {a if a.startswith("realvuln-") else "realvuln-" + a for a in only}
        for a in sorted(want - set(apps)):
            log("%s: no recipe in %s (skipped)" % (a, os.path.basename(RECIPES)))
        apps = [a for a in apps if a in want]
    scanners = ["dast"] + ([] if skip_wapiti or not os.path.exists(WAPITI) else ["wapiti"])
    if PROVE:
        scanners = ["prove", "dast"]
    saved = os.path.join(OUT_DIR, "results.json")
    if RESCORE:
        results = json.load(open(saved))
        apps = [a for a in apps if a in results]
        for a in apps:
            rescore(results[a], a, recipes[a])
        scanners = [t for t in ("dast", "wapiti") if any(t in results[a]["scanners"] for a in apps)]
        report(apps, results, scanners)
        return
    log("sentinel: %s; scanners: %s; cache: %s; apps: %d" % (sentinel, ",".join(scanners), cache, len(apps)))
    results = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        futs = {pool.submit(run_app, a, recipes[a], sentinel, cache, ids, scanners): a for a in apps}
        for fut in concurrent.futures.as_completed(futs):
            a = futs[fut]
            try:
                results[a] = fut.result()
            except Exception as e:  # noqa: BLE001
                results[a] = {"app": a, "started": False, "reason": "bench error: %s" % e, "scanners": {},
                              "labels": 0, "reachable": 0}
            r = results[a]
            log("%s: %s" % (a, "started" if r["started"] else "NOT STARTED: " + str(r["reason"])))
    os.makedirs(OUT_DIR, exist_ok=True)
    old = json.load(open(saved)) if os.path.isfile(saved) else {}
    old.update(results)
    with open(saved, "w") as f:
        json.dump(old, f, indent=1)
    if PROVE:
        prove_report(apps, results)
        return
    report(apps, results, scanners)


def prove_report(apps, results):
    """Issue 80's figures, per half and class (see the module docstring)."""
    import halves
    print()
    # Finding by finding for the tune half only: the check half is counted, never looked at.
    for a in apps:
        if halves.half(a) != "tune":
            continue
        for row in (results[a]["scanners"].get("prove") or {}).get("rows", []):
            verdict, cwe, proven, requests, file, line, rule, reason = row
            print("%s %s %s:%s %s CWE-%s proven=%s requests=%d %s" % (
                a.replace("realvuln-", ""), verdict, file, line, rule, cwe, proven, requests, reason[:100]))
    print()
    print("| half | class | true at routes | proven | DAST alone found (labels of the class) | proven traps "
          "| proven unlabelled | requests per proven |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for half in halves.HALVES:
        table = {}
        for a in apps:
            if halves.half(a) != half:
                continue
            entry = results[a]["scanners"]
            dast_found = set((entry.get("dast") or {}).get("found", []))
            gt = json.load(open(os.path.join(CORPUS, "ground-truth", a, "ground-truth.json")))
            for label in gt.get("findings", []):
                primary = re.search(r"\d+", str(label.get("primary_cwe") or ""))
                if label["id"] in dast_found and primary:
                    table.setdefault(int(primary.group()), [0, 0, 0, 0, 0, 0])[2] += 1
            for verdict, cwe, proven, requests, *_ in (entry.get("prove") or {}).get("rows", []):
                row = table.setdefault(cwe, [0, 0, 0, 0, 0, 0])
                if verdict == "true":
                    row[0] += 1
                    row[1] += proven
                if proven:
                    row[3] += verdict == "trap"
                    row[4] += verdict == "unlabelled"
                    row[5] += requests
        for cwe in sorted(table):
            t = table[cwe]
            proven_all = t[1] + t[3] + t[4]
            print("| %s | CWE-%d | %d | %d | %d | %d | %d | %s |" % (
                half, cwe, t[0], t[1], t[2], t[3], t[4], "%.0f" % (t[5] / proven_all) if proven_all else "-"))


def rescore(res, app, recipe):
    gt = json.load(open(os.path.join(CORPUS, "ground-truth", app, "ground-truth.json")))
    labels = [l for l in gt.get("findings", []) if l.get("is_vulnerable")]
    routes = route_map(app, recipe)
    callees, reach = reachable_labels(app, recipe, labels, routes)
    res.update(labels=len(labels), reachable=len(reach), notes=recipe.get("notes", ""))
    for entry in res["scanners"].values():
        if entry.get("report") and os.path.isfile(entry["report"]):
            found, fps = score(json.load(open(entry["report"])), reach, routes, recipe.get("fallback"), callees, app)
            entry.update(found=sorted(found), fps=fps)


def fmt(v, pat="%d"):
    return "-" if v is None else pat % v


def report(apps, results, scanners):
    print()
    for a in apps:
        r = results[a]
        print("## %s" % a)
        print("  started: %s" % ("yes" if r["started"] else "no (%s)" % r["reason"]))
        if r.get("notes"):
            print("  recipe notes: %s" % r["notes"])
        print("  labels (vulnerable): %d, web-reachable: %d, not web-reachable: %d" %
              (r["labels"], r["reachable"], r["labels"] - r["reachable"]))
        for t in scanners:
            e = r["scanners"].get(t)
            if not e:
                continue
            print("  %s: found %s, candidate FPs %s (injection-class %s), requests %s, wall %.0fs%s%s" % (
                t, len(e.get("found", [])), len(e.get("fps", [])),
                sum(1 for f in e.get("fps", []) if set(f.get("cwe") or []) & INJECTION_CWES),
                fmt(e.get("requests")), e.get("wall", 0), ", status " + e["status"] if e.get("status") else "",
                ", error: " + e["error"] if e.get("error") else ""))
            if e.get("found"):
                print("    found: %s" % ", ".join(e["found"]))
            for f in e.get("fps", []):
                loc = f.get("location") or {}
                print("    FP? %s param=%s CWE=%s %s" % (loc.get("url"), loc.get("parameter") or "-",
                                                        ",".join(str(c) for c in f.get("cwe") or []) or "-",
                                                        (f.get("ruleId") or f.get("rule") or f.get("title") or "")[:60]))
    print()
    print("| app | started | web-reachable labels | found Sentinel | found Wapiti | cand. FPs S (inj) | cand. FPs W (inj) "
          "| requests S | requests W | wall S s | wall W s |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    tot = {"reach": 0, "fs": 0, "fw": 0, "ps": 0, "pw": 0, "is": 0, "iw": 0, "rs": 0, "rw": 0, "ws": 0.0, "ww": 0.0,
           "started": 0}
    for a in apps:
        r = results[a]
        s, w = r["scanners"].get("dast", {}), r["scanners"].get("wapiti", {})
        def cell(e, k):
            if not e or e.get("error") and k not in e:
                return "-"
            if k == "found":
                return str(len(e.get("found", [])))
            if k == "fps":
                fps = e.get("fps", [])
                return "%d (%d)" % (len(fps), sum(1 for f in fps if set(f.get("cwe") or []) & INJECTION_CWES))
            if k == "wall":
                return "%.0f" % e["wall"] if "wall" in e else "-"
            return fmt(e.get(k))
        started = "yes" if r["started"] else "no: " + str(r["reason"])[:80].replace("|", "/")
        print("| %s | %s | %d | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            a.replace("realvuln-", ""), started, r["reachable"], cell(s, "found"), cell(w, "found"), cell(s, "fps"),
            cell(w, "fps"), cell(s, "requests"), cell(w, "requests"), cell(s, "wall"), cell(w, "wall")))
        if r["started"]:
            tot["started"] += 1
            tot["reach"] += r["reachable"]
            for e, x in ((s, "s"), (w, "w")):
                tot["f" + x] += len(e.get("found", []))
                tot["p" + x] += len(e.get("fps", []))
                tot["i" + x] += sum(1 for f in e.get("fps", []) if set(f.get("cwe") or []) & INJECTION_CWES)
                tot["r" + x] += e.get("requests") or 0
                tot["w" + x] += e.get("wall", 0)
    print("| **total** (%d of %d started) | | %d | %d | %d | %d (%d) | %d (%d) | %d | %d | %.0f | %.0f |" % (
        tot["started"], len(apps), tot["reach"], tot["fs"], tot["fw"], tot["ps"], tot["is"], tot["pw"], tot["iw"],
        tot["rs"], tot["rw"], tot["ws"], tot["ww"]))
    check_costs(apps, results)


def check_costs(apps, results):
    """Sentinel's requests per check over every app, and per parameter it tested: what each class
    costs (README's DAST table). From each report's "requests by check" notice."""
    per_check, points = {}, 0
    for a in apps:
        e = (results.get(a) or {}).get("scanners", {}).get("dast") or {}
        try:
            summary = json.loads(read_nofollow(e["report"]))["summary"]
        except (KeyError, OSError, ValueError, TypeError):
            continue
        for notice in summary.get("notices", []):
            text = notice.get("message", "")
            if text.startswith("requests by check: "):
                for part in text[len("requests by check: "):].split(", "):
                    name, _, count = part.rpartition(" ")
                    if count.isdigit():
                        per_check[name] = per_check.get(name, 0) + int(count)
        for tool in summary.get("tools", []):
            m = re.search(r"(\d+) parameters tested", tool.get("message") or "")
            if m:
                points += int(m.group(1))
    if not per_check:
        return
    print()
    print("Sentinel's requests by check, all apps (%d parameters tested):" % points)
    print()
    print("| check | requests | per parameter tested |")
    print("|---|---:|---:|")
    for name, count in sorted(per_check.items(), key=lambda kv: -kv[1]):
        print("| %s | %d | %.1f |" % (name, count, count / points if points else 0))


if __name__ == "__main__":
    main()
