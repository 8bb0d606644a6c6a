#!/usr/bin/env python3
"""JavaScript/TypeScript SAST against Semgrep in one run (issue 60): recall and precision on the
labelled js-vuln-dev apps, then speed and memory on the largest JS/TS project of realcode-dev.

    bench/sast-js.py SENTINEL [--runs 3] [--skip-semgrep] [--skip-speed] [--jobs N]
    make bench-pip-deps && bench/sast-js.py .build-release-static/release/sentinel

Python 3 standard library only; Semgrep is the bench venv's (`make bench-pip-deps` pins
semgrep==1.185.0, the version of the corpus's stored results), or $SEMGREP. Corpora are read in
place: ../shared/corpora/{js-vuln-dev,realcode-dev,semgrep-rules} from the repository root
($JS_VULN_DEV, $REALCODE, $SEMGREP_RULES override them). Sentinel uses its own shipped rules (beside
the binary, or the checkout it was built in) unless $SENTINEL_RULES is set; note that a scan as root
runs its analysis in a sandbox that binds only the shipped rule directory, so there a SENTINEL_RULES
elsewhere fails with "no such rule directory". SENTINEL_HOME is an empty temporary directory.

1. Recall and precision (js-vuln-dev: 7 vulnerable Node apps, 161 labels, 4 traps, RealVuln format).
   Each app is scanned as the corpus's score.sh does, `sentinel scan APP --tools native --format
   sarif --fail-on none`, at the default settings and again with `--min-confidence low`; each SARIF
   goes through the corpus's `rv.py sarif`. Semgrep runs live once over the apps/ folder, as the
   stored results were made (`cd apps && semgrep --config JS --config TS --metrics=off --json .`,
   JS/TS = the javascript/ and typescript/ rule folders of semgrep-rules; Semgrep OSS analyses one
   file at a time, so this equals score.sh's per-app SEMGREP=1 runs with one rule load instead of
   seven), and its results are split per app. Everything is then scored by the corpus's own
   `rv.py score` (RealVuln's matcher: same file, a CWE in `acceptable_cwes`, line within 10; micro
   averages over the apps) beside the stored Semgrep results (`published/`), whose README figure
   is F3 29.5, precision 0.165, recall 0.323. Nothing of the scorer is copied here.
2. Speed and memory: the realcode-dev project with the most JS/TS bytes (.js .mjs .cjs .jsx .ts .mts
   .cts .tsx, leaving out node_modules/, dist/, build/ and minified files: `.min.` in the name or a
   line over 1,000 characters in the first 2 KB), scanned at its root by
   `sentinel scan DIR --tools native --format json --fail-on none` and
   `semgrep --config JS --config TS --metrics=off --json .` (cwd DIR), interleaved (Sentinel,
   Semgrep, Sentinel, ...) after one untimed Sentinel run that also warms the page cache; median of
   --runs. Wall time from spawn to exit; CPU is user+sys of the whole process tree (wait4); peak RSS
   is the larger of the tree's summed RSS sampled every 0.1 s from /proc and the largest single
   process's ru_maxrss (what `/usr/bin/time -v` prints). The harness is a child subreaper, so
   processes a tool leaves behind are waited for and counted.
   Jobs: Sentinel scans with one thread per CPU it may run on and has no option for it; Semgrep's
   own default is 0.85 x the logical cores (its --help prints the figure). Without --jobs, Semgrep
   gets --jobs = the CPUs this process may use, so both use every CPU; with --jobs N both are
   pinned (taskset) to the same N CPUs and Semgrep gets --jobs N. The live recall run uses the
   same --jobs.

Semgrep runs offline: --metrics=off, --disable-version-check, SEMGREP_ENABLE_VERSION_CHECK=0,
SEMGREP_SEND_METRICS=off, local rule folders only, and HOME/XDG_CONFIG_HOME/XDG_CACHE_HOME in a
temporary directory (its settings file, log and version cache). Prints markdown tables.
"""
import argparse
import ctypes
import datetime
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CORPORA = os.path.normpath(os.path.join(ROOT, "..", "shared", "corpora"))
JS_VULN_DEV = os.environ.get("JS_VULN_DEV", os.path.join(CORPORA, "js-vuln-dev"))
REALCODE = os.environ.get("REALCODE", os.path.join(CORPORA, "realcode-dev"))
SEMGREP_RULES = os.environ.get("SEMGREP_RULES", os.path.join(CORPORA, "semgrep-rules"))
SEMGREP = os.environ.get("SEMGREP", os.path.join(ROOT, ".venv-bench", "bin", "semgrep"))
JS_EXTENSIONS = {".js", ".mjs", ".cjs", ".jsx", ".ts", ".mts", ".cts", ".tsx"}
SKIP_DIRECTORIES = {"node_modules", "dist", "build"}
STORED = {"f3": 29.5, "precision": 0.165, "recall": 0.323}  # js-vuln-dev/README.md, Semgrep 1.185.0
PR_SET_CHILD_SUBREAPER = 36
PAGE = os.sysconf("SC_PAGE_SIZE")


def fail(message):
    sys.exit(f"sast-js.py: {message}")


def bad_input(message):
    print(f"sast-js.py: {message}", file=sys.stderr)
    sys.exit(2)


# --------------------------------------------------------------------------- processes

def tree_rss(root):
    """Summed RSS (bytes) of `root`'s descendants, `root` itself left out."""
    children = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            continue
        ppid = int(stat[stat.rindex(b")") + 2:].split()[1])
        children.setdefault(ppid, []).append(int(entry))
    total, stack = 0, list(children.get(root, []))
    while stack:
        pid = stack.pop()
        stack.extend(children.get(pid, []))
        try:
            with open(f"/proc/{pid}/statm") as f:
                total += int(f.read().split()[1]) * PAGE
        except (OSError, ValueError, IndexError):
            pass
    return total


def measure(argv, cwd, env, stdout_path, stderr_path):
    """Runs argv to its end: (exit code, wall s, CPU s, peak RSS bytes, largest process's maxrss bytes)."""
    peak = [0]
    done = threading.Event()

    def sample():
        me = os.getpid()
        while not done.wait(0.1):
            peak[0] = max(peak[0], tree_rss(me))

    with open(stdout_path, "wb") as out, open(stderr_path, "wb") as err:
        start = time.perf_counter()
        process = subprocess.Popen(argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=err)
        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        cpu, maxrss = usage.ru_utime + usage.ru_stime, usage.ru_maxrss
        while True:  # what the command left running, handed to this subreaper
            try:
                _, _, usage = os.wait4(-1, 0)
            except ChildProcessError:
                break
            cpu += usage.ru_utime + usage.ru_stime
            maxrss = max(maxrss, usage.ru_maxrss)
        done.set()
        sampler.join()
    return process.returncode, wall, cpu, max(peak[0], maxrss * 1024), maxrss * 1024


def output_of(argv, env=None):
    try:
        return subprocess.run(argv, env=env, capture_output=True, text=True, timeout=120).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""


# --------------------------------------------------------------------------- tools

def semgrep_environment(tmp):
    env = dict(os.environ, SEMGREP_ENABLE_VERSION_CHECK="0", SEMGREP_SEND_METRICS="off")
    for name in ("HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME"):
        env[name] = os.path.join(tmp, "semgrep-" + name.lower())
        os.makedirs(env[name], exist_ok=True)
    return env


def semgrep_rule_folders():
    """javascript/ and typescript/ of a semgrep-rules checkout, flat (the corpus) or under rules/."""
    for base in (SEMGREP_RULES, os.path.join(SEMGREP_RULES, "rules")):
        folders = [os.path.join(base, language) for language in ("javascript", "typescript")]
        if all(os.path.isdir(folder) for folder in folders):
            return folders
    bad_input(f"{SEMGREP_RULES}: no javascript/ and typescript/ rule folders (set SEMGREP_RULES)")


def semgrep_argv(folders, jobs):
    argv = [SEMGREP, "scan"]
    for folder in folders:
        argv += ["--config", folder]
    return argv + ["--metrics=off", "--disable-version-check", "--json", "--jobs", str(jobs), "."]


def semgrep_default_jobs(env):
    text = re.sub(".\x08", "", output_of([SEMGREP, "scan", "--help=plain"], env) or output_of([SEMGREP, "scan", "--help"], env))
    match = re.search(r"--jobs=VALUE \(absent=(\d+)\)", text)
    return match.group(1) if match else "?"


def semgrep_counts(report):
    """'N results, F files scanned, E errors (kind n, ...)' of a Semgrep JSON report."""
    kinds = {}
    for error in report.get("errors", []):
        kind = error.get("type")
        kind = kind if isinstance(kind, str) else kind[0] if isinstance(kind, list) and kind else "?"
        kinds[kind] = kinds.get(kind, 0) + 1
    return (f"{len(report.get('results', []))} results, {len(report.get('paths', {}).get('scanned', []))} files "
            f"scanned, {sum(kinds.values())} errors"
            + (" (" + ", ".join(f"{k} {n}" for k, n in sorted(kinds.items())) + ")" if kinds else ""))


def sentinel_counts(report):
    """'N findings, F files scanned' of a Sentinel JSON report, with its notice of code it did not analyse."""
    summary = report.get("summary", {})
    notes = [n.get("message", "") for n in summary.get("notices", []) if "not analysed" in n.get("message", "")]
    return (f"{len(report.get('findings', []))} findings, {summary.get('filesScanned', '?')} files scanned"
            + "".join(f"; {note}" for note in notes))


def count_rules(folders):
    return sum(1 for folder in folders for _, _, files in os.walk(folder)
               for name in files if name.endswith((".yaml", ".yml")))


def pinned(argv, cpus):
    return ["taskset", "-c", ",".join(map(str, cpus))] + argv if cpus else argv


# --------------------------------------------------------------------------- 1. recall and precision

def rule_key(check_id):
    """A Semgrep rule id without the prefix its rule folder's location gives it."""
    match = re.search(r"(?:^|\.)((?:javascript|typescript)\..*)$", check_id or "")
    return match.group(1) if match else check_id


def finding_keys(path):
    try:
        with open(path) as f:
            results = json.load(f).get("results", [])
    except (OSError, ValueError):
        return set()
    return {(r.get("path"), r.get("start", {}).get("line"), rule_key(r.get("check_id"))) for r in results}


def score_table(text, label):
    """(precision, recall, F2, F3, TP, FP, FN) of `label`'s row in rv.py's score table."""
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells and cells[0] == label and len(cells) >= 8:
            return tuple(float(c) for c in cells[1:5]) + tuple(int(c) for c in cells[5:8])
    return None


def per_app_rows(text):
    rows, inside = {}, False
    for line in text.splitlines():
        if line.startswith("Per app"):
            inside = True
        elif inside and line.startswith("| ") and not line.startswith("| app "):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            rows[cells[0]] = cells[2:5]
    return rows


def recall(sentinel, env, tmp, jobs, skip_semgrep, folders, semgrep_env, cpus):
    rv = os.path.join(JS_VULN_DEV, "rv.py")
    apps_dir = os.path.join(JS_VULN_DEV, "apps")
    truth = os.path.join(JS_VULN_DEV, "ground-truth")
    for path in (rv, apps_dir, truth, os.path.join(JS_VULN_DEV, "published")):
        if not os.path.exists(path):
            bad_input(f"{path}: missing (set JS_VULN_DEV to the js-vuln-dev corpus)")
    apps = sorted(a for a in os.listdir(truth) if os.path.exists(os.path.join(truth, a, "ground-truth.json")))
    scan = os.path.join(tmp, "scan")
    py_env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    labels = {"sentinel": [], "sentinel-low": ["--min-confidence", "low"]}
    print(f"## js-vuln-dev: recall and precision ({len(apps)} apps)\n")
    for label, flags in labels.items():
        started = time.perf_counter()
        for app in apps:
            app_dir = os.path.join(apps_dir, app)
            sarif = os.path.join(tmp, "sarif", label, app + ".sarif")
            os.makedirs(os.path.dirname(sarif), exist_ok=True)
            with open(os.path.join(tmp, f"stderr-{label}-{app}.txt"), "wb") as err:
                code = subprocess.run([sentinel, "scan", app_dir, "--tools", "native", "--format", "sarif",
                                       "--fail-on", "none", *flags, "--output", sarif],
                                      env=env, stdout=subprocess.DEVNULL, stderr=err).returncode
            if code != 0 or not (os.path.exists(sarif) and os.path.getsize(sarif)):
                fail(f"sentinel exited {code} on {app} ({label}): {tail(err.name)}")
            subprocess.run([sys.executable, rv, "sarif", sarif, app_dir,
                            os.path.join(scan, app, label, "results.json")], env=py_env, check=True)
        flag_text = " ".join(flags) or "defaults"
        print(f"- Sentinel ({flag_text}): {len(apps)} apps scanned one after the other in "
              f"{time.perf_counter() - started:.1f} s")
    for app in apps:  # the stored results under a label of their own, read in place
        stored = os.path.join(JS_VULN_DEV, "published", app, "semgrep")
        if os.path.isdir(stored):
            os.makedirs(os.path.join(scan, app), exist_ok=True)
            os.symlink(stored, os.path.join(scan, app, "semgrep-stored"))
    specs = [f"{label}={scan}" for label in labels]
    if not skip_semgrep:
        out = os.path.join(tmp, "semgrep-apps.json")
        code, wall, _, rss, _ = measure(pinned(semgrep_argv(folders, jobs), cpus), apps_dir, semgrep_env,
                                        out, os.path.join(tmp, "semgrep-apps.stderr"))
        try:
            with open(out) as f:
                report = json.load(f)
        except (OSError, ValueError):
            fail(f"semgrep exited {code} on {apps_dir} without a JSON report; stderr: {tmp}/semgrep-apps.stderr")
        split = {app: [] for app in apps}
        for result in report.get("results", []):
            app, _, rest = result.get("path", "").removeprefix("./").partition("/")
            if app in split:
                split[app].append(dict(result, path=rest))
        for app, results in split.items():
            os.makedirs(os.path.join(scan, app, "semgrep-live"), exist_ok=True)
            with open(os.path.join(scan, app, "semgrep-live", "results.json"), "w") as f:
                json.dump({"results": results}, f)
        print(f"- Semgrep live over apps/ (exit {code}): {semgrep_counts(report)}; {wall:.1f} s, "
              f"peak RSS {rss / 2**20:.0f} MiB, --jobs {jobs}")
        specs.append(f"semgrep-live={scan}")
    specs.append(f"semgrep-stored={scan}")
    labels_scored = [spec.partition("=")[0] for spec in specs]
    score = subprocess.run([sys.executable, rv, "score", JS_VULN_DEV, *specs, "--families", ",".join(labels_scored),
                            "--per-app", "sentinel"], env=py_env, capture_output=True, text=True)
    if score.returncode != 0:
        fail(f"rv.py score failed: {score.stderr.strip().splitlines()[-1:] or score.returncode}")
    print()
    print(score.stdout.rstrip())
    print(f"\nStored Semgrep figure (js-vuln-dev/README.md, Semgrep 1.185.0, semgrep-rules 157ae47): "
          f"F3 {STORED['f3']}, precision {STORED['precision']}, recall {STORED['recall']}.")
    stored = score_table(score.stdout, "semgrep-stored")
    if stored and (stored[0], stored[1], stored[3]) != (STORED["precision"], STORED["recall"], STORED["f3"]):
        print(f"WARNING: the stored results score F3 {stored[3]}, not {STORED['f3']}: the corpus or scorer changed")
    if skip_semgrep:
        return
    live = score_table(score.stdout, "semgrep-live")
    if live and stored:
        same = live[3] == stored[3] and live[4:] == stored[4:]
        print(f"Live Semgrep {'reproduces' if same else 'does not reproduce'} the stored result: F3 {live[3]} "
              f"(TP/FP/FN {'/'.join(map(str, live[4:]))}) against {stored[3]} ({'/'.join(map(str, stored[4:]))}).")
        live_keys = stored_keys = both = 0
        for app in apps:
            a = finding_keys(os.path.join(scan, app, "semgrep-live", "results.json"))
            b = finding_keys(os.path.join(scan, app, "semgrep-stored", "results.json"))
            live_keys, stored_keys, both = live_keys + len(a), stored_keys + len(b), both + len(a & b)
        print(f"Findings (file, line, rule): {live_keys} live, {stored_keys} stored, {both} in both.")
        if not same:
            tables = {}
            for label in ("semgrep-live", "semgrep-stored"):
                run = subprocess.run([sys.executable, rv, "score", JS_VULN_DEV, f"{label}={scan}", "--per-app", label],
                                     env=py_env, capture_output=True, text=True)
                tables[label] = per_app_rows(run.stdout)
            print("\n| app | live TP/FP/FN | stored TP/FP/FN |\n|---|---|---|")
            for app in apps:
                print(f"| {app} | {'/'.join(tables['semgrep-live'].get(app, ['-']))} | "
                      f"{'/'.join(tables['semgrep-stored'].get(app, ['-']))} |")


# --------------------------------------------------------------------------- 2. speed and memory

def minified(path, name):
    if ".min." in name:
        return True
    try:
        with open(path, "rb") as f:
            head = f.read(2048)
    except OSError:
        return True
    return any(len(line) > 1000 for line in head.split(b"\n"))


def js_size(project):
    total = files = 0
    for directory, subdirs, names in os.walk(project):
        subdirs[:] = [d for d in subdirs if d not in SKIP_DIRECTORIES]
        for name in names:
            path = os.path.join(directory, name)
            if os.path.splitext(name)[1].lower() in JS_EXTENSIONS and not os.path.islink(path) \
                    and not minified(path, name):
                total += os.path.getsize(path)
                files += 1
    return total, files


def speed(sentinel, env, tmp, runs, jobs, skip_semgrep, folders, semgrep_env, cpus):
    proj = os.path.join(REALCODE, "proj")
    if not os.path.isdir(proj):
        bad_input(f"{proj}: missing (set REALCODE to the realcode-dev corpus)")
    sizes = {name: js_size(os.path.join(proj, name)) for name in sorted(os.listdir(proj))
             if os.path.isdir(os.path.join(proj, name))}
    name = max(sizes, key=lambda n: sizes[n][0])
    tree = os.path.join(proj, name)
    print(f"\n## Speed and memory: realcode-dev/proj/{name}\n")
    print(f"Largest JS/TS project: {name}, {sizes[name][1]} files, {sizes[name][0] / 1e6:.2f} MB of JS/TS "
          f"(next: " + ", ".join(f"{n} {sizes[n][0] / 1e6:.2f} MB" for n in sorted(sizes, key=lambda n: -sizes[n][0])[1:3])
          + f"); {runs} timed runs each, interleaved, after one untimed Sentinel run; "
          + (f"both pinned to CPUs {','.join(map(str, cpus))}" if cpus else f"all {jobs} CPUs")
          + (f", Semgrep --jobs {jobs}.\n" if not skip_semgrep else ".\n"))
    out = os.path.join(tmp, "speed")
    os.makedirs(out)
    commands = {"Sentinel": (pinned([sentinel, "scan", tree, "--tools", "native", "--format", "json",
                                     "--fail-on", "none"], cpus), tree, env)}
    if not skip_semgrep:
        commands["Semgrep"] = (pinned(semgrep_argv(folders, jobs), cpus), tree, semgrep_env)
    argv, cwd, environment = commands["Sentinel"]
    code, *_ = measure(argv, cwd, environment, os.path.join(out, "warmup.json"), os.path.join(out, "warmup.stderr"))
    if code != 0:
        fail(f"sentinel exited {code} on {tree}: {tail(os.path.join(out, 'warmup.stderr'))}")
    samples = {label: [] for label in commands}
    findings = {}
    for i in range(runs):
        for label, (argv, cwd, environment) in commands.items():
            report = os.path.join(out, f"{label}-{i}.json")
            code, wall, cpu, rss, maxrss = measure(argv, cwd, environment, report, report + ".stderr")
            if code != 0:
                fail(f"{label} exited {code} on {tree} (run {i + 1}): {tail(report + '.stderr')}")
            try:
                with open(report) as f:
                    data = json.load(f)
            except (OSError, ValueError):
                fail(f"{label} wrote no JSON report on {tree} (run {i + 1})")
            findings[label] = sentinel_counts(data) if label == "Sentinel" else semgrep_counts(data)
            samples[label].append((wall, cpu, rss, maxrss))
            print(f"  run {i + 1} {label}: {wall:.2f} s, CPU {cpu:.2f} s, peak RSS {rss / 2**20:.0f} MiB",
                  file=sys.stderr)
    med = {label: [statistics.median(s[k] for s in rows) for k in range(4)] for label, rows in samples.items()}
    print("| tool | wall (median) | CPU user+sys | peak RSS, process tree | largest process (maxrss) | runs (wall) | report |")
    print("|---|---:|---:|---:|---:|---|---|")
    for label, (wall, cpu, rss, maxrss) in med.items():
        print(f"| {label} | {wall:.2f} s | {cpu:.2f} s | {rss / 2**20:.0f} MiB | {maxrss / 2**20:.0f} MiB | "
              + ", ".join(f"{s[0]:.2f}" for s in samples[label]) + f" | {findings[label]} |")
    if "Semgrep" in med:
        s, g = med["Sentinel"], med["Semgrep"]
        print(f"\nSemgrep / Sentinel: wall {g[0] / s[0]:.1f}x, CPU {g[1] / s[1]:.1f}x, peak RSS {g[2] / s[2]:.1f}x.")


def tail(path):
    try:
        with open(path, errors="replace") as f:
            lines = [line.strip() for line in f if line.strip()]
    except OSError:
        return "(no stderr)"
    return lines[-1] if lines else "(no stderr)"


# --------------------------------------------------------------------------- main

def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("sentinel", help="the sentinel binary (a release build)")
    parser.add_argument("--runs", type=int, default=3, help="timed runs per tool on the largest project (default 3)")
    parser.add_argument("--skip-semgrep", action="store_true", help="no live Semgrep (the stored results still scored)")
    parser.add_argument("--skip-speed", action="store_true", help="only recall and precision")
    parser.add_argument("--jobs", type=int, help="CPUs for both tools (pinned; Semgrep --jobs N); default: all")
    arguments = parser.parse_args()
    sentinel = os.path.abspath(arguments.sentinel)
    if not (os.path.isfile(sentinel) and os.access(sentinel, os.X_OK)):
        bad_input(f"{arguments.sentinel}: not an executable file")
    if arguments.runs < 1:
        bad_input("--runs must be at least 1")
    available = sorted(os.sched_getaffinity(0))
    cpus = []
    jobs = len(available)
    if arguments.jobs is not None:
        if not 1 <= arguments.jobs <= len(available):
            bad_input(f"--jobs {arguments.jobs}: this process may use {len(available)} CPUs")
        jobs = arguments.jobs
        if jobs < len(available):
            if not shutil.which("taskset"):
                bad_input("--jobs below the CPU count needs taskset (util-linux)")
            cpus = available[:jobs]
    folders = []
    if not arguments.skip_semgrep:
        if not os.access(SEMGREP, os.X_OK):
            bad_input(f"{SEMGREP}: no semgrep (make bench-pip-deps, or set SEMGREP)")
        folders = semgrep_rule_folders()
    if ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        fail(f"prctl(PR_SET_CHILD_SUBREAPER): {os.strerror(ctypes.get_errno())}")

    tmp = tempfile.mkdtemp(prefix="sast-js-")
    try:
        env = dict(os.environ, SENTINEL_HOME=os.path.join(tmp, "sentinel-home"))
        os.makedirs(env["SENTINEL_HOME"])
        semgrep_env = semgrep_environment(tmp)
        version = output_of([sentinel, "--version"], env) or "?"
        head = output_of(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"]) or "?"
        built = datetime.datetime.fromtimestamp(os.path.getmtime(sentinel), datetime.timezone.utc)
        model = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")), "?")
        print("# sast-js.py\n")
        print(f"- date: {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC, load "
              + " ".join(f"{x:.2f}" for x in os.getloadavg()))
        print(f"- machine: {os.cpu_count()} logical cores ({model}), {len(available)} usable by this process")
        print(f"- sentinel: {sentinel}, `--version`: {version} (binary modified {built:%Y-%m-%d %H:%M} UTC); "
              f"SENTINEL_RULES={env.get('SENTINEL_RULES', '(unset: its shipped rules)')}; this checkout at {head}")
        if not arguments.skip_semgrep:
            print(f"- semgrep: {SEMGREP}, {output_of([SEMGREP, '--version'], semgrep_env) or '?'}; "
                  f"{count_rules(folders)} rule files from {', '.join(folders)}; --jobs {jobs} "
                  f"(Semgrep's own default here: {semgrep_default_jobs(semgrep_env)})")
        print()
        recall(sentinel, env, tmp, jobs, arguments.skip_semgrep, folders, semgrep_env, cpus)
        if not arguments.skip_speed:
            speed(sentinel, env, tmp, arguments.runs, jobs, arguments.skip_semgrep, folders, semgrep_env, cpus)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
