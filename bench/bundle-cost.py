#!/usr/bin/env python3
"""What a 2 MB bundle costs a scan (issue 77: "a 2 MB bundle costs no more than its notice").

    bench/bundle-cost.py BIN                     # median CPU of 5 runs per tree
    bench/bundle-cost.py BIN --runs 9 --mb 3     # more runs, a larger bundle
    bench/bundle-cost.py BIN --analysed          # also one run with --no-default-excludes

Builds, in a temporary directory, a small Flask project (two Python files, one template) and
three copies of it that each add one built file of `--mb` megabytes, as build tools write them
(generated here, none copied from a project):
- `static/js/charts.js`: a minifier's output, statements run together on lines of 30 kB (no
  `.min` in its name and no `vendor/` folder: the content alone must name it);
- `static/assets/index-4f8a9c1b.js`: a Vite chunk, its name hashed, its lines long;
- `static/dist/main.js`: webpack's development bundle, readable modules in its module table
  behind its `/******/` bootstrap (the shape that cost 167 s of CPU before issue 77).
Each tree is scanned as users point the tool (`BIN scan ROOT --allow-missing-db --allow-stale-db
--fail-on none --format json`, defaults: SAST, secrets, dependencies), runs interleaved after one
warm-up each (bench/lib/interleaved_runs.py); CPU is user + system of the scan and of every process
it started (os.wait4). Prints per tree the median
CPU, the extra over the project alone, whether the JSON report names the file in its generated
notice, and `filesScanned`. `--analysed` adds one run per bundle with `--no-default-excludes`,
what the file would cost analysed (bounded by the work budget per file).

Exit status: 0, 1 when a bundle is not named as generated or a scan fails (its command line is
printed), 2 on bad arguments.
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from interleaved_runs import run_interleaved  # noqa: E402  (wait4's CPU of the whole tree, interleaved)

APP = '''from flask import Flask, request, render_template

app = Flask(__name__)


@app.route("/hello")
def hello():
    name = request.args.get("name", "world")
    return render_template("hello.html", name=name)
'''

MODELS = '''import sqlite3


def find_user(connection: sqlite3.Connection, user_id: int):
    return connection.execute("SELECT name FROM users WHERE id = ?", (user_id,)).fetchone()
'''

TEMPLATE = "<p>Hello {{ name }}</p>\n"


def minified(size):
    """Statements run together, broken into lines of 30 kB, as terser and esbuild print them."""
    parts, total, i = [], 0, 0
    while total < size:
        part = (f"function q{i}(a,b){{return a.map(function(c){{return c*b+{i}}})}}var r{i}=q{i}([1,2,3],{i % 7});"
                f"if(r{i}.length>2){{document.getElementById(\"n{i}\").textContent=r{i}.join(\",\")}}")
        parts.append(part)
        total += len(part)
        i += 1
    text = "".join(parts)
    return "\n".join(text[k:k + 30_000] for k in range(0, len(text), 30_000)) + "\n"


def vite_chunk(size):
    """A Vite chunk: imports of other hashed chunks, then minified code on long lines."""
    return 'import{a as e,b as t}from"./vendor-9c1b4f3a.js";\n' + minified(size)


def webpack_development(size):
    """webpack's development bundle: readable modules in `__webpack_modules__` behind its bootstrap."""
    modules, total, i = [], 0, 0
    while total < size:
        module = f'''"./src/components/widget{i}.js":
/*!**********************************!*\\
  !*** ./src/components/widget{i}.js ***!
  \\**********************************/
((module, exports, __webpack_require__) => {{
  const api = __webpack_require__("./src/api.js");
  function render{i}(root, items) {{
    const list = document.createElement("ul");
    for (const item of items) {{
      const entry = document.createElement("li");
      entry.textContent = item.label + " (" + item.count + ")";
      list.appendChild(entry);
    }}
    root.appendChild(list);
    return api.fetchJson("/api/widgets/{i}").then((data) => data.items);
  }}
  module.exports = {{ render{i} }};
}}),
'''
        modules.append(module)
        total += len(module)
        i += 1
    return ("/******/ (() => { // webpackBootstrap\n/******/ \tvar __webpack_modules__ = ({\n" + "".join(modules)
            + "/******/ \t});\n/******/ \tfunction __webpack_require__(moduleId) {\n"
            + "/******/ \t\tvar module = { exports: {} };\n"
            + "/******/ \t\t__webpack_modules__[moduleId](module, module.exports, __webpack_require__);\n"
            + "/******/ \t\treturn module.exports;\n/******/ \t}\n/******/ })();\n")


BUNDLES = (
    ("minified", "static/js/charts.js", minified),
    ("vite-chunk", "static/assets/index-4f8a9c1b.js", vite_chunk),
    ("webpack-dev", "static/dist/main.js", webpack_development),
)


def write(root, relative, text):
    path = os.path.join(root, relative)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as handle:
        handle.write(text)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binary")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--mb", type=float, default=2.0)
    parser.add_argument("--analysed", action="store_true")
    arguments = parser.parse_args()
    binary = os.path.abspath(arguments.binary)
    if arguments.runs < 1 or arguments.mb <= 0:
        print("bundle-cost.py: --runs must be at least 1 and --mb above 0", file=sys.stderr)
        return 2
    if not os.access(binary, os.X_OK):
        print(f"bundle-cost.py: {binary}: not an executable file", file=sys.stderr)
        return 2
    work = tempfile.mkdtemp(prefix="bundle-cost.")
    try:
        return run(binary, arguments, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def run(binary, arguments, work):
    size = int(arguments.mb * 1_000_000)
    home = os.path.join(work, "home")
    os.makedirs(home)
    # run_interleaved spawns with this process's environment.
    os.environ["SENTINEL_HOME"] = home
    subprocess.run([binary, "rules", "compile"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    trees = [("project alone", None, None)] + list(BUNDLES)
    roots = {name: os.path.join(work, name.replace(" ", "-")) for name, _, _ in trees}
    for name, relative, make in trees:
        write(roots[name], "app.py", APP)
        write(roots[name], "models.py", MODELS)
        write(roots[name], "templates/hello.html", TEMPLATE)
        if make:
            write(roots[name], relative, make(size))

    def scan(name, report, *extra):
        return [binary, "scan", roots[name], "--allow-missing-db", "--allow-stale-db", "--fail-on", "none",
                "--format", "json", "--output", os.path.join(work, report), *extra]

    samples = run_interleaved({name: scan(name, name + ".json") for name, _, _ in trees}, arguments.runs, warmup=1)
    cpu = {name: statistics.median(cpus) for name, (_, cpus) in samples.items()}
    print(f"sentinel: {binary}; bundles of {size / 1e6:.1f} MB; median of {arguments.runs} runs")
    print(f"{'tree':14} {'file':34} {'CPU ms':>8} {'extra ms':>9} {'named':>6} {'files':>6}"
          + (f" {'analysed s':>11} {'not-analysed':>12}" if arguments.analysed else ""))
    missing = 0
    for name, relative, _ in trees:
        with open(os.path.join(work, name + ".json")) as handle:
            summary = json.load(handle)["summary"]
        named = "–"
        if relative:
            listed = [path for entry in summary.get("defaultExclusions", []) if entry.get("kind") == "generated"
                      for path in entry.get("signalsByFile", {})]
            named = "yes" if any(path.endswith(relative) for path in listed) else "NO"
            missing += named == "NO"
        line = (f"{name:14} {relative or '':34} {cpu[name]:8.0f} {cpu[name] - cpu['project alone']:9.0f} {named:>6} "
                f"{summary.get('filesScanned', 0):6}")
        if arguments.analysed and relative:
            report = name + ".analysed.json"
            analysed = run_interleaved({name: scan(name, report, "--no-default-excludes")}, 1, warmup=0)
            with open(os.path.join(work, report)) as handle:
                findings = json.load(handle)["findings"]
            bounded = sum(1 for f in findings if f.get("ruleId") == "sentinel.file-not-analysed")
            line += f" {analysed[name][1][0] / 1000:11.2f} {bounded:12}"
        print(line, flush=True)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
