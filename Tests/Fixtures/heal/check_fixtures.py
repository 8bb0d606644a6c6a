#!/usr/bin/env python3
"""Check the heal fixture corpus: shapes, bugs, rules, fake packages and advisories.

Usage: /usr/bin/python3 check_fixtures.py [--no-deps] [NAME ...]

logic  pytest fails as shipped (>= 1 failing, >= 2 passing, 4-10 tests) and passes
       once `bug.buggy` on `bug.line` is replaced by `bug.fixed`; no test file holds the bug.
sast   pytest passes as shipped; the rule id exists in rules/python/ and the code has
       the call the rule flags.
deps   builds the wheel index (packages/make_index.py) into a temporary directory, serves
       it with `python3 -m http.server`, installs the shipped requirements (the pinned or
       resolved version must be `package.installed`), then with the pin raised to
       `package.expectedFix` (hash replaced where the line has one) runs the fixture's
       own `verify` command, which must pass; also tries the newest version.

Every run happens in a temporary copy with PYTHONDONTWRITEBYTECODE=1 and
`-p no:cacheprovider`, so the tree is left as it was. Only the standard library is used.
"""

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
import xml.etree.ElementTree as ET
from pathlib import Path

HERE = Path(__file__).resolve().parent
PACKAGES = HERE / "packages"
TEMPLATES = {
    "comparison-swap", "arithmetic-swap", "off-by-one", "negate-condition", "and-or-swap",
    "swap-arguments", "replace-variable", "initial-value", "none-guard", "slice-bound",
}
RULES = {
    "python.yaml-load": r"yaml\.(load|load_all|full_load|unsafe_load)\(",
    "python.requests-verify-false": r"requests\.\w+\(.*verify=False",
    "python.subprocess-shell-true": r"subprocess\.(run|call|check_call|check_output|Popen)\(\s*[A-Za-z_]",
    "python.requests-without-timeout": r"requests\.(get|post|put|delete|patch|head|options|request)\((?![^\n]*timeout=)",
    "python.hashlib-weak-hash": r"hashlib\.(md5|sha1)\((?![^\n]*usedforsecurity=False)",
    "python.tempfile-mktemp": r"tempfile\.mktemp\(",
    "python.jinja2-autoescape-false": r"jinja2\.Environment\(.*autoescape=False",
    "python.flask-debug-true": r"\w+\.run\(.*debug=True",
    "python.credentials-logged": r"\.(debug|info|warning|error)\(.*\b\w*_?token\b",
    "python.taint-insecure-cookie": r"\.set_cookie\((?![^\n]*secure=)",
}
KEYS = {
    "logic": {"kind", "description", "verify", "bug"},
    "sast": {"kind", "description", "verify", "rule"},
    "deps": {"kind", "description", "verify", "package"},
}
BUG_KEYS = {"file", "line", "buggy", "fixed", "template"}
PACKAGE_KEYS = {"name", "installed", "expectedFix", "advisory", "manifest"}
MINIMUM = {"logic": 22, "sast": 6, "deps": 4}
# A logic fixture's verify command, and the PYTHONPATH its tests need (a src layout's package
# lives under src/, and its command sets PYTHONPATH itself, as such projects do).
LOGIC_VERIFY = {"python3 -m pytest -q": None, "PYTHONPATH=src python3 -m pytest -q": "src"}
# A wrong patch can loop forever (gcd with a - b instead of a % b): runs are cut off.
PYTEST_TIMEOUT = 30

problems = []


def fail(name, message):
    problems.append(f"{name}: {message}")
    print(f"  FAIL {name}: {message}")


def version_key(version):
    return tuple(int(part) for part in version.split("."))


def normalize(name):
    return re.sub(r"[-_.]+", "-", name).lower()


class Env:
    """Environment for child processes: `python3` is this interpreter, no bytecode."""

    def __init__(self, scratch):
        bin_dir = scratch / "bin"
        bin_dir.mkdir()
        (bin_dir / "python3").symlink_to(sys.executable)
        self.vars = dict(os.environ)
        self.vars["PATH"] = f"{bin_dir}{os.pathsep}{self.vars.get('PATH', '')}"
        self.vars["PYTHONDONTWRITEBYTECODE"] = "1"
        self.vars.pop("PYTHONPATH", None)
        # Keep pip away from this machine's own configuration and wheel directories.
        self.vars["PIP_CONFIG_FILE"] = os.devnull
        for key in list(self.vars):
            if key.startswith("PIP_") and key != "PIP_CONFIG_FILE":
                del self.vars[key]
        self.vars["PYTEST_ADDOPTS"] = "-p no:cacheprovider"
        # mktemp -d in the deps verify commands then creates its directory in the scratch area.
        self.vars["TMPDIR"] = str(scratch)


def copy_fixture(src, scratch):
    dest = Path(tempfile.mkdtemp(dir=scratch)) / src.name
    shutil.copytree(src, dest, ignore=shutil.ignore_patterns("__pycache__", ".pytest_cache"))
    return dest


def pytest_counts(repo, env, scratch, extra_env=None):
    """(passed, failed, total, output) of a pytest run in repo."""
    report = Path(tempfile.mkdtemp(dir=scratch)) / "report.xml"
    run_env = dict(env.vars, **(extra_env or {}))
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", f"--junitxml={report}"],
            cwd=repo, env=run_env, capture_output=True, text=True, timeout=PYTEST_TIMEOUT,
        )
    except subprocess.TimeoutExpired:
        return 0, 1, 1, f"pytest timed out after {PYTEST_TIMEOUT}s"
    if not report.exists():
        return 0, 0, 0, proc.stdout + proc.stderr
    root = ET.parse(report).getroot()
    suite = root if root.tag == "testsuite" else root.find("testsuite")
    total = int(suite.get("tests", 0))
    failed = int(suite.get("failures", 0)) + int(suite.get("errors", 0))
    skipped = int(suite.get("skipped", 0))
    return total - failed - skipped, failed, total, proc.stdout + proc.stderr


def check_tree(name, path):
    for dirpath, dirnames, filenames in os.walk(path):
        for d in dirnames:
            if d in ("__pycache__", ".pytest_cache"):
                fail(name, f"stray {Path(dirpath, d).relative_to(HERE)}")
        for f in filenames:
            if f.endswith(".pyc"):
                fail(name, f"stray {Path(dirpath, f).relative_to(HERE)}")


def test_files(path):
    return sorted((path / "tests").glob("test_*.py"))


def check_logic(name, path, meta, env, scratch):
    bug = meta["bug"]
    if set(bug) != BUG_KEYS:
        return fail(name, f"bug keys {sorted(bug)}")
    if bug["template"] not in TEMPLATES:
        return fail(name, f"unknown template {bug['template']}")
    source = path / bug["file"]
    lines = source.read_text().split("\n")
    if not 1 <= bug["line"] <= len(lines) or lines[bug["line"] - 1] != bug["buggy"]:
        return fail(name, f"line {bug['line']} of {bug['file']} is not the buggy line")
    if bug["buggy"] == bug["fixed"]:
        return fail(name, "fixed equals buggy")
    if bug["template"] == "none-guard":
        if not bug["fixed"].endswith("\n" + bug["buggy"]):
            fail(name, "none-guard fix must be the guard lines followed by the buggy line")
    elif "\n" in bug["fixed"]:
        fail(name, "only none-guard fixes may span several lines")
    for test in test_files(path):
        if bug["buggy"].strip() in test.read_text():
            fail(name, f"{test.name} contains the buggy line")

    repo = copy_fixture(path, scratch)
    python_path = LOGIC_VERIFY.get(meta["verify"])
    extra = {"PYTHONPATH": str(repo / python_path)} if python_path else None
    passed, failed, total, output = pytest_counts(repo, env, scratch, extra)
    if not 4 <= total <= 10:
        fail(name, f"{total} tests (want 4-10)")
    if failed < 1:
        fail(name, "no test fails as shipped")
    if passed < 2:
        fail(name, f"only {passed} tests pass as shipped (want >= 2)")
    fixed_lines = list(lines)
    fixed_lines[bug["line"] - 1] = bug["fixed"]
    (repo / bug["file"]).write_text("\n".join(fixed_lines))
    fpassed, ffailed, ftotal, foutput = pytest_counts(repo, env, scratch, extra)
    if ffailed or fpassed != ftotal or ftotal == 0:
        fail(name, f"fixed program: {ffailed} of {ftotal} tests fail\n{foutput[-2000:]}")
    print(f"  ok   {name}: {bug['template']}; shipped {passed} passed/{failed} failed, fixed {fpassed}/{ftotal}")


def check_sast(name, path, meta, env, scratch, rule_dir):
    rule = meta["rule"]
    if rule not in RULES:
        return fail(name, f"rule {rule} is not one of the heal rules")
    if rule_dir is not None:
        rule_file = rule_dir / (rule.split(".", 1)[1] + ".yaml")
        if not rule_file.exists() or f"id: {rule}" not in rule_file.read_text():
            fail(name, f"rule {rule} not found in {rule_dir}")
    code = "\n".join(
        p.read_text() for p in path.rglob("*.py") if "tests" not in p.relative_to(path).parts
    )
    # Joined calls that span lines, so that `f(\n  a, b=1)` can be matched on one line.
    flat = re.sub(r"\(\s*\n\s*", "(", code)
    if not re.search(RULES[rule], flat):
        fail(name, f"no code matching {rule}")
    repo = copy_fixture(path, scratch)
    passed, failed, total, output = pytest_counts(repo, env, scratch)
    if failed or total == 0:
        return fail(name, f"{failed} of {total} tests fail as shipped\n{output[-2000:]}")
    if not 4 <= total <= 10:
        fail(name, f"{total} tests (want 4-10)")
    print(f"  ok   {name}: {rule}; {passed}/{total} pass")


# --- deps -------------------------------------------------------------------------------


def load_advisories():
    advisories = {}
    for path in sorted((PACKAGES / "osv").glob("*.json")):
        record = json.loads(path.read_text())
        for key in ("id", "modified", "summary", "affected", "severity"):
            if key not in record:
                fail("osv", f"{path.name} lacks {key}")
        if record.get("id") != path.stem or not re.fullmatch(r"SFX-\d{4}-\d{4}", record.get("id", "")):
            fail("osv", f"{path.name}: id {record.get('id')} does not match the file name pattern")
        for severity in record.get("severity", []):
            if severity.get("type") != "CVSS_V3" or not severity.get("score", "").startswith("CVSS:3."):
                fail("osv", f"{path.name}: severity is not a CVSS v3 vector")
        advisories[record["id"]] = record
    return advisories


def affected(record, package, version):
    """OSV evaluation over ECOSYSTEM ranges (events in order) and explicit version lists."""
    key = version_key(version)
    for entry in record["affected"]:
        if entry["package"]["ecosystem"] != "PyPI" or normalize(entry["package"]["name"]) != normalize(package):
            continue
        if version in entry.get("versions", []):
            return True
        for rng in entry.get("ranges", []):
            if rng.get("type") != "ECOSYSTEM":
                continue
            inside = False
            for event in rng["events"]:
                if "introduced" in event:
                    start = (0,) if event["introduced"] == "0" else version_key(event["introduced"])
                    inside = inside or key >= start
                elif "fixed" in event and key >= version_key(event["fixed"]):
                    inside = False
                elif "last_affected" in event and key > version_key(event["last_affected"]):
                    inside = False
            if inside:
                return True
    return False


def built_wheels(index_dir):
    """{normalized name: {version: (file name, sha256)}} from the index pages."""
    wheels = {}
    for page in (index_dir / "simple").glob("*/index.html"):
        for href in re.findall(r'href="([^"]+)"', page.read_text()):
            filename, _, digest = href.rsplit("/", 1)[1].partition("#sha256=")
            name, version = filename.split("-")[:2]
            wheels.setdefault(normalize(name), {})[version] = (filename, digest)
    return wheels


def requirement_line(text, package):
    """(start, end) of the logical requirement naming package (continuations included)."""
    pattern = re.compile(rf"^{re.escape(package)}(?=[\s\[=~<>!;])(?:[^\n]*\\\n)*[^\n]*", re.M | re.I)
    match = pattern.search(text)
    return match.span() if match else None


def repin(text, package, version, digest):
    span = requirement_line(text, package)
    line = text[span[0]:span[1]]
    line = re.sub(r"(~=|===|==)\s*[0-9][0-9.]*", f"=={version}", line, count=1)
    line = re.sub(r"--hash=sha256:[0-9a-f]{64}", f"--hash=sha256:{digest}", line)
    return text[:span[0]] + line + text[span[1]:]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def pip_install(repo, target, index, env):
    return subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--disable-pip-version-check", "--no-cache-dir",
         "--root-user-action=ignore", "--no-deps", "--target", str(target), "--index-url", index,
         "-r", "requirements.txt"],
        cwd=repo, env=env.vars, capture_output=True, text=True, timeout=300,
    )


def installed_version(target, package):
    stem = re.sub(r"[-_.]+", "_", package).lower()
    found = [p.name[len(stem) + 1:-len(".dist-info")] for p in target.glob(f"{stem}-*.dist-info")]
    return found[0] if len(found) == 1 else None


def check_deps(fixtures, env, scratch):
    advisories = load_advisories()
    index_dir = scratch / "index"
    build = subprocess.run(
        [sys.executable, str(PACKAGES / "make_index.py"), str(index_dir)],
        env=env.vars, capture_output=True, text=True,
    )
    if build.returncode:
        return fail("make_index", build.stderr)
    again = scratch / "index-again"
    subprocess.run([sys.executable, str(PACKAGES / "make_index.py"), str(again)], env=env.vars, capture_output=True)
    for path in sorted(p for p in index_dir.rglob("*") if p.is_file()):
        other = again / path.relative_to(index_dir)
        if not other.exists() or other.read_bytes() != path.read_bytes():
            fail("make_index", f"output not deterministic: {path.relative_to(index_dir)}")
    wheels = built_wheels(index_dir)
    if not any(len(v) >= 4 for v in wheels.values()):
        fail("packages", "no package has four or more versions")
    for record in advisories.values():
        for entry in record["affected"]:
            if normalize(entry["package"]["name"]) not in wheels:
                fail("osv", f"{record['id']} names unknown package {entry['package']['name']}")

    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "http.server", "--bind", "127.0.0.1", str(port)],
        cwd=index_dir, env=env.vars, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    index = f"http://127.0.0.1:{port}/simple/"
    try:
        for _ in range(50):
            try:
                urllib.request.urlopen(index, timeout=1).read()
                break
            except OSError:
                time.sleep(0.1)
        newest_breaks = 0
        for name, path, meta in fixtures:
            newest_breaks += check_deps_fixture(name, path, meta, env, scratch, index, wheels, advisories)
        if fixtures and not newest_breaks:
            fail("deps", "no fixture fails on the newest version while passing on the smallest fixed one")
    finally:
        server.terminate()
        server.wait(timeout=10)


def check_deps_fixture(name, path, meta, env, scratch, index, wheels, advisories):
    """Returns 1 when the fixture fails on the newest version (and passes on expectedFix)."""
    pkg = meta["package"]
    if set(pkg) != PACKAGE_KEYS:
        fail(name, f"package keys {sorted(pkg)}")
        return 0
    if "{index}" not in meta["verify"]:
        fail(name, "verify has no {index} placeholder")
    record = advisories.get(pkg["advisory"])
    versions = wheels.get(normalize(pkg["name"]), {})
    if record is None or not versions:
        fail(name, "unknown advisory or package")
        return 0
    manifest = path / pkg["manifest"]
    text = manifest.read_text()
    if requirement_line(text, pkg["name"]) is None:
        fail(name, f"{pkg['manifest']} has no requirement for {pkg['name']}")
        return 0
    if not affected(record, pkg["name"], pkg["installed"]):
        fail(name, f"{pkg['installed']} is not affected by {pkg['advisory']}")
    candidates = sorted(
        (v for v in versions if version_key(v) >= version_key(pkg["installed"]) and not affected(record, pkg["name"], v)),
        key=version_key,
    )
    if not candidates or candidates[0] != pkg["expectedFix"]:
        fail(name, f"smallest fixed version is {candidates[:1]}, not {pkg['expectedFix']}")

    # As shipped: pip must resolve the installed version.
    repo = copy_fixture(path, scratch)
    target = Path(tempfile.mkdtemp(dir=scratch))
    proc = pip_install(repo, target, index, env)
    got = installed_version(target, pkg["name"]) if proc.returncode == 0 else None
    if got != pkg["installed"]:
        fail(name, f"shipped requirements install {got}, not {pkg['installed']}: {proc.stderr[-500:]}")
    hashed = "--hash=" in text

    def attempt(version):
        """(install ok, import ok, tests pass, output) with the pin raised to version."""
        trial = copy_fixture(path, scratch)
        (trial / pkg["manifest"]).write_text(repin(text, pkg["name"], version, versions[version][1]))
        target = Path(tempfile.mkdtemp(dir=scratch))
        proc = pip_install(trial, target, index, env)
        if proc.returncode or installed_version(target, pkg["name"]) != version:
            return False, False, False, proc.stderr
        module = re.sub(r"[-.]+", "_", pkg["name"]).lower()
        imp = subprocess.run(
            [sys.executable, "-c", f"import {module} as m; print(m.__version__)"],
            cwd=trial, env=dict(env.vars, PYTHONPATH=str(target)), capture_output=True, text=True,
        )
        passed, failed, total, output = pytest_counts(trial, env, scratch, {"PYTHONPATH": str(target)})
        return True, imp.stdout.strip() == version, failed == 0 and total > 0, output

    ok_install, ok_import, ok_tests, output = attempt(pkg["expectedFix"])
    if not (ok_install and ok_import and ok_tests):
        fail(name, f"with {pkg['expectedFix']}: install={ok_install} import={ok_import} tests={ok_tests}\n{output[-1500:]}")

    # The fixture's own verify command, as heal runs it, with the fixed pin.
    trial = copy_fixture(path, scratch)
    (trial / pkg["manifest"]).write_text(repin(text, pkg["name"], pkg["expectedFix"], versions[pkg["expectedFix"]][1]))
    verify = subprocess.run(
        meta["verify"].replace("{index}", index), shell=True, cwd=trial, env=env.vars,
        capture_output=True, text=True, timeout=300,
    )
    if verify.returncode:
        fail(name, f"verify command fails with the fixed pin:\n{verify.stdout[-1000:]}{verify.stderr[-1000:]}")

    if hashed:
        stale = copy_fixture(path, scratch)
        bumped = re.sub(r"(==)\s*[0-9.]+", f"=={pkg['expectedFix']}", text, count=1)
        (stale / pkg["manifest"]).write_text(bumped)
        if pip_install(stale, Path(tempfile.mkdtemp(dir=scratch)), index, env).returncode == 0:
            fail(name, "raising the pin without a new hash still installs")

    newest = max(versions, key=version_key)
    newest_result = "same as fix"
    breaks = 0
    if newest != pkg["expectedFix"]:
        n_install, n_import, n_tests, _ = attempt(newest)
        newest_result = "tests pass" if n_tests else "tests FAIL"
        breaks = int(n_install and not n_tests and ok_tests)
    print(f"  ok   {name}: {pkg['name']} {pkg['installed']} -> {pkg['expectedFix']} "
          f"({'hash pinned, ' if hashed else ''}newest {newest}: {newest_result})")
    return breaks


def main(argv):
    skip_deps = "--no-deps" in argv
    wanted = [a for a in argv[1:] if not a.startswith("--")]
    rule_dir = next((p / "rules" / "python" for p in HERE.parents if (p / "rules" / "python").is_dir()), None)
    if not (HERE / "README.md").exists():
        fail("corpus", "README.md missing")
    fixtures = {"logic": [], "sast": [], "deps": []}
    with tempfile.TemporaryDirectory(prefix="heal-fixtures-") as tmp:
        scratch = Path(tmp)
        env = Env(scratch)
        for path in sorted(p for p in HERE.iterdir() if p.is_dir() and (p / ".fixture.json").exists()):
            name = path.name
            check_tree(name, path)
            meta = json.loads((path / ".fixture.json").read_text())
            kind = meta.get("kind")
            if kind not in KEYS or set(meta) != KEYS[kind]:
                fail(name, f"bad .fixture.json keys {sorted(meta)}")
                continue
            if not name.startswith(kind + "-"):
                fail(name, f"name does not start with {kind}-")
            if not test_files(path):
                fail(name, "no tests/test_*.py")
            fixtures[kind].append((name, path, meta))
        for kind, minimum in MINIMUM.items():
            if len(fixtures[kind]) < minimum:
                fail("corpus", f"{len(fixtures[kind])} {kind} fixtures (want >= {minimum})")
        used = {meta["bug"]["template"] for _, _, meta in fixtures["logic"] if isinstance(meta.get("bug"), dict)}
        if used != TEMPLATES:
            fail("corpus", f"templates without a fixture: {sorted(TEMPLATES - used)}")
        check_tree("packages", PACKAGES)

        def selected(items):
            return [item for item in items if not wanted or item[0] in wanted]

        print("logic")
        for name, path, meta in selected(fixtures["logic"]):
            if meta["verify"] not in LOGIC_VERIFY:
                fail(name, f"verify is not one of {sorted(LOGIC_VERIFY)}")
            check_logic(name, path, meta, env, scratch)
        print("sast")
        for name, path, meta in selected(fixtures["sast"]):
            check_sast(name, path, meta, env, scratch, rule_dir)
        if not skip_deps:
            print("deps")
            check_deps(selected(fixtures["deps"]), env, scratch)
    count = sum(len(v) for v in fixtures.values())
    if problems:
        print(f"\n{len(problems)} problem(s) in {count} fixtures")
        return 1
    print(f"\nall {count} fixtures ok")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
