#!/usr/bin/env python3
"""Growth of the readers of hostile inputs (issue 54): time and peak memory of `sentinel scan`
on a repository holding one generated lockfile, and of `sentinel heal` reading a generated pytest
output, at sizes doubling up to 100 MB. Linear readers keep seconds/MB and MB(RSS)/MB flat.

    bench/reader-growth.py SENTINEL [PEER_SENTINEL] [--max-mb 100]

SENTINEL is a release binary (make release) with its profiles and rules where it finds them (in
place in the checkout, or copied beside its directory); PEER_SENTINEL, when given, is measured on the same
inputs in the same run (an older build). Each input is the shape a hostile repository would use:
- yarn.lock: one dependency chain through every entry (paths as long as the file);
- package-lock.json (v3): a chain nested as deep as the size allows (keys as long as the chain);
- package-lock.json (v3): wide, 1 level deep (the ordinary shape, for comparison);
- pytest output: N failures, each with its section and summary line (heal's signal).
A run that exceeds --timeout seconds is reported as such, not waited for; each run's address space
is capped at 12 GiB (a run that hits it is reported by its exit status).
"""
import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def yarn_chain(target):
    out = ["# yarn lockfile v1\n\n"]
    size, i = 0, 0
    while size < target:
        entry = f'p{i}@^1.0.0:\n  version "1.0.{i}"\n  resolved "https://registry.yarnpkg.com/p{i}/-/p{i}-1.0.{i}.tgz"\n  dependencies:\n    p{i + 1} "^1.0.0"\n\n'
        out.append(entry)
        size += len(entry)
        i += 1
    return "".join(out), {"package.json": '{"dependencies": {"p0": "^1.0.0"}}'}


def npm_deep(target):
    parts = ['"": {"dependencies": {"p0": "1"}}']
    size, depth, location = 0, 0, ""
    while size < target:
        location += ("/" if location else "") + f"node_modules/p{depth}"
        entry = f'"{location}": {{"version": "1.0.{depth}", "dependencies": {{"p{depth + 1}": "1", "p0": "1"}}}}'
        parts.append(entry)
        size += len(entry)
        depth += 1
    return '{"lockfileVersion": 3, "packages": {' + ",".join(parts) + "}}", {}


def npm_wide(target):
    parts = []
    size, i = 0, 0
    while size < target:
        entry = f'"node_modules/p{i}": {{"version": "1.0.{i % 50}", "resolved": "https://registry.npmjs.org/p{i}/-/p{i}-1.0.{i % 50}.tgz", "dependencies": {{"p{(i + 1) % 1000}": "1"}}}}'
        parts.append(entry)
        size += len(entry)
        i += 1
    direct = ", ".join(f'"p{j}": "1"' for j in range(min(i, 1000)))
    return '{"lockfileVersion": 3, "packages": {"": {"dependencies": {' + direct + "}}, " + ",".join(parts) + "}}", {}


def pytest_output(target):
    sections, summary = [], []
    size, i = 0, 0
    while size < target:
        section = (
            f"______________________________ test_case_{i} ______________________________\n\n"
            f"    def test_case_{i}():\n>       assert compute({i}) == {i + 1}\nE       assert {i} == {i + 1}\n\n"
            f"tests/test_many.py:{i + 1}: AssertionError\n"
        )
        line = f"FAILED tests/test_many.py::test_case_{i} - assert {i} == {i + 1}\n"
        sections.append(section)
        summary.append(line)
        size += len(section) + len(line)
        i += 1
    return (
        "============================= test session starts ==============================\n"
        "=================================== FAILURES ===================================\n"
        + "".join(sections)
        + "=========================== short test summary info ============================\n"
        + "".join(summary)
        + f"============================== {i} failed in 1.00s ==============================\n"
    )


MEMORY_CAP = 12 << 30


def cap_memory():
    # A quadratic reader would take the machine down with it: its address space is capped.
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))


def measure(command, env, timeout):
    """(seconds, peak MiB, failure) with failure None, "timeout" or "exit N" (the cap hit)."""
    try:
        done = subprocess.run(
            ["/usr/bin/time", "-f", "%e %M"] + command, env=env, capture_output=True, text=True, timeout=timeout,
            preexec_fn=cap_memory,
        )
    except subprocess.TimeoutExpired:
        return None, None, f"over {timeout:g} s"
    last = done.stderr.strip().splitlines()[-1].split()
    failure = None if done.returncode in (0, 1) else f"exit {done.returncode}"
    return float(last[0]), int(last[1]) / 1024, failure


def cells(result, size):
    seconds, peak, failure = result
    if failure:
        return (failure, "", "" if peak is None else f"{peak:.0f}")
    return (f"{seconds:.2f}", f"{seconds / size:.3f}", f"{peak:.0f}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("sentinel")
    parser.add_argument("peer", nargs="?")
    parser.add_argument("--max-mb", type=float, default=100)
    parser.add_argument("--timeout", type=float, default=600)
    parser.add_argument("--only", default="yarn,npm-deep,npm-wide,pytest", help="inputs to measure (comma-separated)")
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="reader-growth-")
    # PyPI advisories from the example, and one npm advisory (on a package every input holds), so
    # that the scan reads the npm lockfiles instead of stopping for want of npm data.
    advisories = os.path.join(work, "osv")
    os.makedirs(advisories)
    with open(os.path.join(advisories, "BENCH-0001.json"), "w") as f:
        f.write('{"id": "BENCH-0001", "modified": "2024-01-01T00:00:00Z", "summary": "bench", '
                '"affected": [{"package": {"ecosystem": "npm", "name": "p5"}, "versions": ["1.0.5"]}]}')
    binaries = [("sentinel", args.sentinel)] + ([("peer", args.peer)] if args.peer else [])
    # A state directory each: an older build refuses a newer one's databases.
    environments = {}
    for name, binary in binaries:
        environments[binary] = dict(os.environ, SENTINEL_HOME=os.path.join(work, "home-" + name))
        for source in [ROOT + "/examples/osv", advisories]:
            subprocess.run([binary, "db", "import", source], env=environments[binary], check=True, capture_output=True)
    sizes = []
    mb = 1.0
    while mb < args.max_mb:
        sizes.append(mb)
        mb *= 4
    sizes.append(args.max_mb)
    print("| input | MB | " + " | ".join(f"{name} s | {name} s/MB | {name} peak MiB" for name, _ in binaries) + " |")
    print("|---|---:|" + "---:|---:|---:|" * len(binaries))
    only = set(args.only.split(","))
    lockfiles = [("yarn", "yarn.lock chain", "yarn.lock", yarn_chain), ("npm-deep", "package-lock deep", "package-lock.json", npm_deep),
                 ("npm-wide", "package-lock wide", "package-lock.json", npm_wide)]
    for key, label, name, generate in lockfiles:
        if key not in only:
            continue
        for size in sizes:
            repo = os.path.join(work, "repo")
            shutil.rmtree(repo, ignore_errors=True)
            os.makedirs(repo)
            text, extra = generate(int(size * 1e6))
            with open(os.path.join(repo, name), "w") as f:
                f.write(text)
            for other, content in extra.items():
                with open(os.path.join(repo, other), "w") as f:
                    f.write(content)
            row = []
            for _, binary in binaries:
                result = measure(
                    [binary, "scan", repo, "--sca", "--tools", "osv", "--allow-stale-db", "--fail-on", "none", "--format", "json",
                     "--output", os.path.join(work, "out.json")], environments[binary], args.timeout)
                row.append(cells(result, size))
            print(f"| {label} | {size:g} | " + " | ".join(" | ".join(cells) for cells in row) + " |", flush=True)
    for size in sizes if "pytest" in only else []:
        repo = os.path.join(work, "heal-repo")
        shutil.rmtree(repo, ignore_errors=True)
        os.makedirs(repo + "/tests")
        with open(repo + "/tests/test_many.py", "w") as f:
            f.write("def test_ok():\n    assert True\n")
        signal = os.path.join(work, "pytest.txt")
        with open(signal, "w") as f:
            f.write(pytest_output(int(size * 1e6)))
        row = []
        for _, binary in binaries:
            result = measure(
                [binary, "heal", "--signal", signal, "--repo", repo, "--verify", "true", "--max-minutes", "1", "--level", "observer"],
                environments[binary], args.timeout)
            row.append(cells(result, size))
        print(f"| pytest output (heal's signal) | {size:g} | " + " | ".join(" | ".join(cells) for cells in row) + " |", flush=True)
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
