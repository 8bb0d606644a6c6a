"""Sentinel's Python parser against CPython's ast.parse over the sources of large PyPI projects.

usage: python3.12 bench/parse-parity.py --cache DIR --bench SENTINEL_BENCH [--project NAME]... [--details N]

Fetches each project once into DIR (sdists where they are pure Python and carry their tests, wheels
where building the sdist needs a compiler), then for every .py file compares the accept/reject verdict
of `ast.parse` with `sentinel-bench parse`, and, for files both accept, a structural fingerprint
(counts of statements, calls, attributes, subscripts, operators... that map one to one between the
two trees). Prints a Markdown table per project and the disagreements; exits 1 when the parser
rejects a file CPython accepts or a fingerprint differs.
"""
import argparse
import ast
import multiprocessing
import os
import pathlib
import subprocess
import sys
import sysconfig
import tarfile
import time
import warnings
import zipfile

# (name, pip requirement, what to fetch): pinned so the figures reproduce. The linters' and
# formatters' sdists carry test inputs written to probe syntax corners; "local" is the running
# interpreter's own standard library and Lib/test (CPython's grammar and tokenizer tests).
PROJECTS = [
    ("django", "django==5.2.8", "sdist"),
    ("ansible-core", "ansible-core==2.21.5", "sdist"),
    ("sympy", "sympy==1.14.0", "sdist"),
    ("twisted", "twisted==26.10.0", "sdist"),
    ("scrapy", "scrapy==2.19.0", "sdist"),
    ("pip", "pip==26.3", "sdist"),
    ("setuptools", "setuptools==84.2.1", "sdist"),
    ("pandas", "pandas==3.1.1", "wheel"),
    ("sqlalchemy", "sqlalchemy==2.1.9", "wheel"),
    ("mypy", "mypy==2.4.1", "wheel"),
    ("botocore", "botocore==1.44.5", "wheel"),
    ("black", "black==26.10.1", "sdist"),
    ("pylint", "pylint==4.1.4", "sdist"),
    ("astroid", "astroid==4.3.4", "sdist"),
    ("parso", "parso==0.8.7", "sdist"),
    ("libcst", "libcst==1.9.0", "sdist"),
    ("autopep8", "autopep8==2.3.2", "sdist"),
    ("cpython-stdlib", f"CPython {sys.version.split()[0]} Lib", "local"),
]

# Fingerprint fields, in the order sentinel-bench prints them (bench/Sources/sentinel-bench/ParseParity.swift).
FIELDS = [
    ("stmt", (ast.stmt,)),
    ("call", (ast.Call,)),
    ("attr", (ast.Attribute,)),
    ("sub", (ast.Subscript,)),
    ("lambda", (ast.Lambda,)),
    ("binop", (ast.BinOp,)),
    ("boolop", (ast.BoolOp,)),
    ("cmp", (ast.Compare,)),
    ("comp", (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)),
    ("yield", (ast.Yield, ast.YieldFrom)),
    ("await", (ast.Await,)),
    ("ifexp", (ast.IfExp,)),
    ("fstr", (ast.FormattedValue,)),
    ("name", (ast.Name,)),
    ("const", (ast.Constant,)),
    ("unary", (ast.UnaryOp,)),
    ("tuple", (ast.Tuple,)),
    ("list", (ast.List,)),
    ("dict", (ast.Dict,)),
    ("set", (ast.Set,)),
    ("starred", (ast.Starred,)),
    ("slice", (ast.Slice,)),
    ("walrus", (ast.NamedExpr,)),
    ("arg", (ast.arg,)),
    ("for", (ast.comprehension,)),
    ("handler", (ast.ExceptHandler,)),
    ("withitem", (ast.withitem,)),
    ("alias", (ast.alias,)),
]


def fetch(cache: pathlib.Path, name: str, requirement: str, what: str) -> pathlib.Path:
    """The extracted sources of one project, downloaded and unpacked on first use."""
    if what == "local":
        return pathlib.Path(sysconfig.get_paths()["stdlib"])
    src = cache / "src" / name
    if (src / ".complete").exists():
        return src
    download = cache / "download" / name
    download.mkdir(parents=True, exist_ok=True)
    if not any(download.iterdir()):
        choice = ["--no-binary=:all:"] if what == "sdist" else ["--only-binary=:all:"]
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", *choice, requirement, "-d", str(download)],
            check=True,
        )
    archive = next(download.iterdir())
    src.mkdir(parents=True, exist_ok=True)
    if archive.name.endswith(".whl"):
        with zipfile.ZipFile(archive) as z:
            z.extractall(src)
    else:
        with tarfile.open(archive) as t:
            t.extractall(src, filter="data")
    (src / ".complete").touch()
    return src


def fingerprint(tree: ast.AST) -> str:
    counts = [0] * len(FIELDS)
    const = [label for label, _ in FIELDS].index("const")
    for node in ast.walk(tree):
        for i, (_, types) in enumerate(FIELDS):
            if isinstance(node, types):
                counts[i] += 1
        if isinstance(node, ast.JoinedStr):
            # CPython 3.12 ends a format spec whose last piece is a field with an empty string
            # (`f"{x:<{w}}"`); Sentinel drops empty pieces, as CPython does everywhere else.
            counts[const] -= sum(1 for v in node.values if isinstance(v, ast.Constant) and v.value == "")
    return " ".join(f"{label}={n}" for (label, _), n in zip(FIELDS, counts))


def cpython(path: str) -> tuple[str, bool, str]:
    """(path, accepted, fingerprint or error message)."""
    warnings.simplefilter("ignore")  # invalid escape sequences and the like: warnings, not errors
    try:
        with open(path, "rb") as f:
            return path, True, fingerprint(ast.parse(f.read(), filename=path))
    except Exception as e:  # SyntaxError, and ValueError/RecursionError/MemoryError on hostile input
        return path, False, f"{type(e).__name__}: {e}"


def ours(bench: str, paths: list[str]) -> tuple[dict[str, tuple[bool, str]], float]:
    start = time.perf_counter()
    done = subprocess.run([bench, "parse"], input="\n".join(paths) + "\n", capture_output=True, text=True, check=True)
    elapsed = time.perf_counter() - start
    verdicts = {}
    for line in done.stdout.splitlines():
        path, verdict, detail = line.split("\t", 2)
        verdicts[path] = (verdict == "ok", detail)
    return verdicts, elapsed


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cache", required=True, type=pathlib.Path)
    parser.add_argument("--bench", required=True)
    parser.add_argument("--project", action="append", help="only these projects (repeatable)")
    parser.add_argument("--details", type=int, default=20, help="disagreements listed per project and kind")
    args = parser.parse_args()
    if sys.version_info[:2] != (3, 12):
        print(f"parse-parity: needs CPython 3.12, this is {sys.version.split()[0]}", file=sys.stderr)
        return 2

    projects = [p for p in PROJECTS if not args.project or p[0] in args.project]
    files: dict[str, list[str]] = {}
    for name, requirement, what in projects:
        src = fetch(args.cache, name, requirement, what)
        files[name] = sorted(str(p) for p in src.rglob("*.py") if p.is_file() and "site-packages" not in p.parts)
    every = [p for name, _, _ in projects for p in files[name]]

    start = time.perf_counter()
    with multiprocessing.Pool(min(os.cpu_count() or 1, 4)) as pool:
        theirs = {path: (ok, detail) for path, ok, detail in pool.imap_unordered(cpython, every, chunksize=16)}
    cpython_seconds = time.perf_counter() - start
    mine, our_seconds = ours(args.bench, every)

    print(f"CPython {sys.version.split()[0]} ast.parse vs sentinel-bench parse ({len(every)} files; "
          f"CPython {cpython_seconds:.1f} s on {min(os.cpu_count() or 1, 4)} processes, ours {our_seconds:.1f} s on one)")
    print()
    print("| project | files | lines | CPython rejects | we reject, CPython accepts | we accept, CPython rejects "
          "| structure differs |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    details = []
    totals = [0] * 6
    for name, requirement, what in projects:
        paths = files[name]
        lines = 0
        for p in paths:
            with open(p, "rb") as f:
                lines += f.read().count(b"\n")
        they_reject = [p for p in paths if not theirs[p][0]]
        missed = [p for p in paths if theirs[p][0] and not mine.get(p, (False, "no output"))[0]]
        extra = [p for p in paths if not theirs[p][0] and mine.get(p, (False, ""))[0]]
        differs = [p for p in paths if theirs[p][0] and mine.get(p, (False, ""))[0] and theirs[p][1] != mine[p][1]]
        row = [len(paths), lines, len(they_reject), len(missed), len(extra), len(differs)]
        totals = [a + b for a, b in zip(totals, row)]
        print(f"| {requirement} ({what}) | " + " | ".join(f"{n:,}" for n in row) + " |")
        for p in missed[: args.details]:
            details.append(f"we reject, CPython accepts: {mine.get(p, (False, 'no output'))[1]}")
        for p in extra[: args.details]:
            details.append(f"we accept, CPython rejects: {p}: {theirs[p][1]}")
        for p in differs[: args.details]:
            a, b = dict(f.split("=") for f in theirs[p][1].split()), dict(f.split("=") for f in mine[p][1].split())
            diff = ", ".join(f"{k} CPython {a[k]} ours {b.get(k)}" for k in a if a[k] != b.get(k))
            details.append(f"structure differs: {p}: {diff}")
    print("| **total** | " + " | ".join(f"**{n:,}**" for n in totals) + " |")
    if details:
        print()
        for d in details:
            print(d)
    return 1 if totals[3] or totals[5] else 0


if __name__ == "__main__":
    sys.exit(main())
