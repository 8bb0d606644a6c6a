"""Sentinel's Python parser against CPython's ast.parse over the sources of large PyPI projects.

usage: python3.12 bench/parse-parity.py --cache DIR --bench SENTINEL_BENCH [--project NAME]... [--details N]
                                        [--strings]

Fetches each project once into DIR (sdists where they are pure Python and carry their tests, wheels
where building the sdist needs a compiler), then for every .py file compares the accept/reject verdict
of `ast.parse` with `sentinel-bench parse`, and, for files both accept, a structural fingerprint
(counts of statements, calls, attributes, subscripts, operators... that map one to one between the
two trees). With --strings, every string literal of those files that looks like code (or parses) is
compared the same way as a module of its own: the test suites of CPython, linters and formatters hold
thousands of snippets, valid and invalid, that never appear as files. Prints a Markdown table per
project and the disagreements; exits 1 when the parser rejects a file CPython accepts or a
fingerprint differs.
"""
import argparse
import ast
import hashlib
import json
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


def parses(source: bytes) -> bool:
    try:
        ast.parse(source)
        return True
    except Exception:
        return False


def constants(path: str) -> list[bytes]:
    """String and bytes literals of one file that could be code: four bytes or more, not a bare name."""
    warnings.simplefilter("ignore")
    try:
        with open(path, "rb") as f:
            tree = ast.parse(f.read())
    except Exception:
        return []
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, (str, bytes)):
            value = node.value.encode("utf-8", "surrogatepass") if isinstance(node.value, str) else node.value
            if len(value) < 4 or len(value) > 20000 or value.strip().decode("latin-1").isidentifier():
                continue
            # Prose is rejected by both sides: keep what parses, or looks like code.
            if any(c in value for c in (b"\n", b"(", b"=", b":")) or parses(value):
                out.append(value)
    return out


def mine(cache: pathlib.Path, pool, paths: list[str]) -> list[str]:
    """Writes each distinct code-like literal of `paths` to its own file; returns their paths."""
    directory = cache / "strings"
    directory.mkdir(exist_ok=True)
    written = []
    seen = set()
    for values in pool.imap_unordered(constants, paths, chunksize=16):
        for value in values:
            if value in seen:
                continue
            seen.add(value)
            target = directory / (hashlib.sha1(value).hexdigest()[:20] + ".py")
            if not target.exists():
                target.write_bytes(value)
            written.append(str(target))
    return sorted(written)


class Memo:
    """CPython's verdicts from earlier runs, by path, size and modification time (they take minutes)."""

    def __init__(self, path: pathlib.Path):
        self.path = path
        self.known = json.loads(path.read_text()) if path.exists() else {}

    def verdicts(self, pool, paths: list[str]) -> dict[str, tuple[bool, str]]:
        def key(p: str) -> str:
            st = os.stat(p)
            return f"{st.st_size}:{st.st_mtime_ns}"

        missing = [p for p in paths if self.known.get(p, [None])[0] != key(p)]
        for path, ok, detail in pool.imap_unordered(cpython, missing, chunksize=16):
            self.known[path] = [key(path), ok, detail]
        return {p: (self.known[p][1], self.known[p][2]) for p in paths}

    def save(self) -> None:
        self.path.write_text(json.dumps(self.known))


def ours(bench: str, paths: list[str]) -> tuple[dict[str, tuple[bool, str]], float]:
    start = time.perf_counter()
    done = subprocess.run([bench, "parse"], input="\n".join(paths) + "\n", capture_output=True, text=True, check=True)
    elapsed = time.perf_counter() - start
    verdicts = {}
    for line in done.stdout.split("\n"):  # not splitlines(): messages may quote U+2028 and the like
        if not line:
            continue
        path, verdict, detail = line.split("\t", 2)
        verdicts[path] = (verdict == "ok", detail)
    return verdicts, elapsed


def compare(label: str, paths: list[str], theirs: dict, verdicts: dict, limit: int) -> tuple[list[int], list[str]]:
    """One table row (files, lines, CPython rejects, we reject/CPython accepts, we accept/CPython
    rejects, structure differs) and the disagreements behind it."""
    lines = 0
    for p in paths:
        with open(p, "rb") as f:
            lines += f.read().count(b"\n")
    they_reject = [p for p in paths if not theirs[p][0]]
    missed = [p for p in paths if theirs[p][0] and not verdicts.get(p, (False, "no output"))[0]]
    extra = [p for p in paths if not theirs[p][0] and verdicts.get(p, (False, ""))[0]]
    differs = [p for p in paths if theirs[p][0] and verdicts.get(p, (False, ""))[0] and theirs[p][1] != verdicts[p][1]]
    details = []
    for p in missed[:limit]:
        details.append(f"we reject, CPython accepts: {verdicts.get(p, (False, 'no output'))[1]}")
    for p in extra[:limit]:
        details.append(f"we accept, CPython rejects: {p}: {theirs[p][1]}")
    for p in differs[:limit]:
        a, b = dict(f.split("=") for f in theirs[p][1].split()), dict(f.split("=") for f in verdicts[p][1].split())
        diff = ", ".join(f"{k} CPython {a[k]} ours {b.get(k)}" for k in a if a[k] != b.get(k))
        details.append(f"structure differs: {p}: {diff}")
    row = [len(paths), lines, len(they_reject), len(missed), len(extra), len(differs)]
    print(f"| {label} | " + " | ".join(f"{n:,}" for n in row) + " |")
    return row, details


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cache", required=True, type=pathlib.Path)
    parser.add_argument("--bench", required=True)
    parser.add_argument("--project", action="append", help="only these projects (repeatable)")
    parser.add_argument("--details", type=int, default=20, help="disagreements listed per project and kind")
    parser.add_argument("--strings", action="store_true", help="also every string literal, parsed as a module")
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

    processes = min(os.cpu_count() or 1, 4)
    start = time.perf_counter()
    memo = Memo(args.cache / f"cpython-{sys.version.split()[0]}.json")
    with multiprocessing.Pool(processes) as pool:
        theirs = memo.verdicts(pool, every)
        strings = mine(args.cache, pool, [p for p in every if theirs[p][0]]) if args.strings else []
        theirs.update(memo.verdicts(pool, strings))
    memo.save()
    cpython_seconds = time.perf_counter() - start
    verdicts, our_seconds = ours(args.bench, every + strings)

    print(f"CPython {sys.version.split()[0]} ast.parse vs sentinel-bench parse ({len(every)} files"
          + (f" and {len(strings)} mined literals" if strings else "")
          + f"; CPython {cpython_seconds:.1f} s on {processes} processes, ours {our_seconds:.1f} s on one)")
    print()
    print("| project | files | lines | CPython rejects | we reject, CPython accepts | we accept, CPython rejects "
          "| structure differs |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    totals = [0] * 6
    details = []
    for name, requirement, what in projects:
        row, found = compare(f"{requirement} ({what})", files[name], theirs, verdicts, args.details)
        totals = [a + b for a, b in zip(totals, row)]
        details += found
    print("| **total** | " + " | ".join(f"**{n:,}**" for n in totals) + " |")
    if strings:
        label = "string literals of the files above, each parsed as a module"
        row, found = compare(label, strings, theirs, verdicts, args.details)
        totals = [a + b for a, b in zip(totals, row)]
        details += found
    if details:
        print()
        for d in details:
            print(d)
    return 1 if totals[3] or totals[5] else 0


if __name__ == "__main__":
    sys.exit(main())
