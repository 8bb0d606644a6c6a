#!/usr/bin/env python3
"""Growth of the taint engine with program shapes a pull request controls (issue 76 H13/H14,
issue 77 "Linear taint"): each shape is generated at 1x, 2x, 4x, 8x and 16x its base size into a
temporary directory, `sentinel scan --sast` runs on it, and the CPU seconds (user + system) of each
size are printed with the ratio 16x/1x. A linear engine keeps the ratio near 16 (issue 77 asks for
at most 20); a quadratic one approaches 256.

    bench/growth.py SENTINEL [--only js-chain,py-chain,...] [--base-scale 1.0] [--timeout 900]

SENTINEL is a release binary (`swift build -c release --product sentinel-cli` and
`--product sentinel`), run with its rules where it finds them (in place in the checkout).
Shapes (N at 1x, before --base-scale):
- js-chain        one JS file: `function g_i(x) { return g_{i+1}(x); }`, the tail runs
                  `exec`, the head is called from an Express route with `req.query` (N = 1000);
- py-chain        the same in Python: `def g_i(x): return g_{i+1}(x)`, head called from a Flask
                  route with `request.args`, tail `os.system` (N = 1000);
- express-calls   N lines of `f(a, b);` beside an Express route that runs `exec` (N = 1000);
- ts-generics     N TypeScript statements `a < b , c > (d);` beside an Express route (N = 1000);
- templates       N directories each holding `partial.html` that includes "partial.html" and
                  prints a variable, one Flask view rendering one of them (N = 256);
- amd-modules     N AMD modules `define('m_i', ['m_{i-1}'], function (d) { return { f: ... } })`,
                  each a callback holding two methods, the shape of a module loader's bundle,
                  beside an Express route that runs `exec` (N = 100; found for issue 77);
- callbacks       N statements `items.forEach(function (it, k) { ... items.map(function (z) ...) })`,
                  a callback holding a callback, beside the same route (N = 100).
Each generated program also holds one true finding (the route reaching its sink): the count of
findings is printed, so a size where the finding is lost shows.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

SCALES = [1, 2, 4, 8, 16]


def js_chain(n):
    lines = ["const express = require('express');", "const { exec } = require('child_process');", "const app = express();"]
    lines += [f"function g{i}(x) {{ return g{i + 1}(x); }}" for i in range(n)]
    lines.append(f"function g{n}(x) {{ return exec(x); }}")
    lines.append("app.get('/run', (req, res) => { g0(req.query.cmd); res.send('ok'); });")
    lines.append("app.listen(3000);")
    return {"app.js": "\n".join(lines) + "\n"}


def py_chain(n):
    lines = ["import os", "from flask import Flask, request", "", "app = Flask(__name__)", ""]
    for i in range(n):
        lines += [f"def g{i}(x):", f"    return g{i + 1}(x)", ""]
    lines += [f"def g{n}(x):", "    return os.system(x)", ""]
    lines += ["@app.route('/run')", "def run():", "    g0(request.args.get('cmd'))", "    return 'ok'", ""]
    return {"app.py": "\n".join(lines)}


def express_app(body):
    """`app.js`: `body` between an Express app's imports and a route that runs `exec` on a query."""
    lines = ["const express = require('express');", "const { exec } = require('child_process');", "const app = express();"]
    lines += body
    lines.append("app.get('/run', (req, res) => { exec(req.query.cmd); res.send('ok'); });")
    lines.append("app.listen(3000);")
    return {"app.js": "\n".join(lines) + "\n"}


def express_calls(n):
    return express_app(["function f(a, b) { return a + b; }", "let a = 1, b = 2;"] + ["f(a, b);"] * n)


def ts_generics(n):
    lines = ["import express from 'express';", "import { exec } from 'child_process';", "const app = express();",
             "declare const a: any, b: any, c: any, d: any;"]
    lines += ["a < b , c > (d);"] * n
    lines.append("app.get('/run', (req, res) => { exec(req.query.cmd as string); res.send('ok'); });")
    lines.append("app.listen(3000);")
    return {"app.ts": "\n".join(lines) + "\n"}


def templates(n):
    files = {
        "app.py": "from flask import Flask, request, render_template\n\napp = Flask(__name__)\n\n"
        "@app.route('/page')\ndef page():\n    return render_template('d0/partial.html', name=request.args.get('name'))\n"
    }
    for i in range(n):
        files[f"templates/d{i}/partial.html"] = (
            "<p>{{ name|safe }}</p>\n{% if depth %}{% include \"partial.html\" %}{% endif %}\n"
        )
    return files


def amd_modules(n):
    body = []
    for i in range(n):
        dependency = f"'m{i - 1}'" if i else ""
        body.append(f"define('m{i}', [{dependency}], function (d) {{ return {{ f: function (x) {{ return d ? d.f(x) : x; }}, "
                    f"g{i}: function (y) {{ var z = y + {i}; return z; }} }}; }});")
    return express_app(body)


def callbacks(n):
    return express_app(["var items = [];"] + [
        f"items.forEach(function (it, k) {{ var w{i} = it.value + k; items.map(function (z) {{ return z + w{i}; }}); }});"
        for i in range(n)])


SHAPES = {
    "js-chain": (js_chain, 1000),
    "py-chain": (py_chain, 1000),
    "express-calls": (express_calls, 1000),
    "ts-generics": (ts_generics, 1000),
    "templates": (templates, 256),
    "amd-modules": (amd_modules, 100),
    "callbacks": (callbacks, 100),
}


def write(root, files):
    shutil.rmtree(root, ignore_errors=True)
    for name, text in files.items():
        path = os.path.join(root, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
    return sum(len(text) for text in files.values())


def run(sentinel, repo, output, env, timeout):
    """(CPU seconds, findings, failure): failure None, "over T s" or "exit N"."""
    timing = output + ".time"
    command = ["/usr/bin/time", "-f", "%U %S", "-o", timing, sentinel, "scan", repo, "--sast", "--fail-on", "none", "--min-confidence", "low",
               "--format", "json", "--output", output]
    try:
        done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, None, f"over {timeout:g} s"
    with open(timing) as f:
        user, system = f.read().strip().splitlines()[-1].split()
    failure = None if done.returncode in (0, 1) else f"exit {done.returncode}: {done.stderr.strip()[:200]}"
    findings = None
    if failure is None:
        with open(output) as f:
            findings = len(json.load(f).get("findings", []))
    return float(user) + float(system), findings, failure


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("sentinel")
    parser.add_argument("--only", default=",".join(SHAPES), help="shapes to measure (comma-separated)")
    parser.add_argument("--base-scale", type=float, default=1.0, help="multiplies each shape's N at 1x")
    parser.add_argument("--timeout", type=float, default=900)
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="growth-")
    env = dict(os.environ, SENTINEL_HOME=os.path.join(work, "home"))
    print("| shape | " + " | ".join(f"{s}x" for s in SCALES) + " | 16x/1x |")
    print("|---|" + "---:|" * (len(SCALES) + 1))
    try:
        for key in args.only.split(","):
            generate, base = SHAPES[key]
            n = max(1, int(base * args.base_scale))
            cells, first, last = [], None, None
            for scale in SCALES:
                repo = os.path.join(work, key)
                size = write(repo, generate(n * scale))
                seconds, findings, failure = run(args.sentinel, repo, os.path.join(work, "out.json"), env, args.timeout)
                if failure:
                    cells.append(f"N={n * scale}: {failure}")
                    break
                cells.append(f"{seconds:.2f} s (N={n * scale}, {size // 1024} KB, {findings} f.)")
                first = seconds if scale == 1 else first
                last = seconds if scale == 16 else last
                print(f"  {key} {scale}x: {cells[-1]}", file=sys.stderr, flush=True)
            cells += [""] * (len(SCALES) - len(cells))
            ratio = f"{last / max(first, 0.01):.1f}" if first is not None and last is not None else "-"
            print(f"| {key} | " + " | ".join(cells) + f" | {ratio} |", flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
