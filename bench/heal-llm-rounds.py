#!/usr/bin/env python3
"""Heal with a model configured: when the model is first asked, and rounds to a fix, on ConDefects bugs.

    bench/heal-llm-rounds.py SENTINEL [N] [--work DIR]

A fake OpenAI-compatible server on 127.0.0.1 stands in for the model. It knows each bug's
author's fix (../shared/corpora/condefects-py/answers) and is scripted to be wrong once: its first
reply changes the faulty line without changing what it does (a comment appended), its later
replies are the author's fix as search/replace blocks. So this measures the loop, not a model:
how soon the model gets its turn beside the templates (issue 31 asks for the first minute), whether
the lesson of its failed round reaches the next request, and how many rounds a fix then takes.
Bugs the templates fix before the model's second round are counted as such.
"""
import argparse
import difflib
import http.server
import json
import os
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
CORPUS = HERE.parent.parent / "shared" / "corpora" / "condefects-py"
sys.path.insert(0, str(CORPUS / "tools"))
import runner  # noqa: E402  (the corpus's own repository builder and test runner, read in place)


def blocks(before, after, wrong):
    """Search/replace blocks turning `before` into `after`; with `wrong`, one that changes nothing."""
    old, new = before.splitlines(), after.splitlines()
    out = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=old, b=new, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        start = max(0, i1 - 2)  # two lines of context before, so SEARCH is unique
        search = old[start:i2] if i2 > start else old[start:start + 1]
        if wrong:
            replace = list(search)
            index = next((k for k, line in enumerate(replace) if line.strip() and not line.strip().startswith("#")), None)
            if index is None:
                continue
            replace[index] += "  # checked"
        else:
            replace = old[start:i1] + new[j1:j2] + (old[i2:start + len(search)] if i2 <= start else [])
        out.append("prog.py\n<<<<<<< SEARCH\n%s\n=======\n%s\n>>>>>>> REPLACE\n" % ("\n".join(search), "\n".join(replace)))
        if wrong:
            break
    explanation = "Mark the line as checked." if wrong else "Apply the fix to the faulty line."
    return explanation + "\n" + "".join(out)


class FakeModel(http.server.BaseHTTPRequestHandler):
    script = None  # (before, after)
    requests = []  # (seconds since start, body)
    started = 0.0

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("content-length", "0"))).decode("utf-8", "replace")
        FakeModel.requests.append((time.monotonic() - FakeModel.started, body))
        before, after = FakeModel.script
        content = blocks(before, after, wrong=len(FakeModel.requests) == 1)
        reply = json.dumps({
            "id": "fake", "object": "chat.completion", "model": "fake",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": len(body) // 4, "completion_tokens": len(content) // 4,
                      "total_tokens": (len(body) + len(content)) // 4},
        }).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(reply)))
        self.end_headers()
        self.wfile.write(reply)

    def log_message(self, *args):
        pass


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("sentinel")
    ap.add_argument("n", nargs="?", type=int, default=40)
    ap.add_argument("--work", help="where logs go (default: bench/out/llm-rounds-<time>)")
    args = ap.parse_args()
    sentinel = str(Path(args.sentinel).resolve())
    work = Path(args.work or HERE / "out" / ("llm-rounds-%d" % int(time.time()))).resolve()
    work.mkdir(parents=True, exist_ok=True)
    minutes = float(os.environ.get("CONDEFECTS_MAX_MINUTES", "3"))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), FakeModel)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    env = dict(os.environ, SENTINEL_HOME=str(work / "home"), SENTINEL_LLM_URL="http://127.0.0.1:%d/v1" % server.server_port,
               SENTINEL_LLM_MODEL="fake", SENTINEL_LLM_KEY="sk-fake", SENTINEL_LLM_ALLOW_HTTP="1")
    (work / "home").mkdir(exist_ok=True)
    rows = []
    print("%-22s %-7s %-12s %11s %7s %s" % ("id", "fixed", "by", "first call", "rounds", "lesson reached round 2"), flush=True)
    for bug in runner.bug_ids()[:args.n]:
        bug_dir = CORPUS / "bugs" / bug
        w = work / bug
        w.mkdir(parents=True, exist_ok=True)
        repo = runner.make_repo(bug_dir, w / "repo")
        rc, out, passed, failed = runner.run_tests(repo)
        if rc == 0 or failed == 0:
            continue
        (w / "signal.txt").write_text(out)
        FakeModel.script = ((bug_dir / "prog.py").read_text(), (CORPUS / "answers" / (bug + ".py")).read_text())
        FakeModel.requests = []
        FakeModel.started = time.monotonic()
        with open(w / "heal.log", "wb") as log:
            subprocess.call([sentinel, "heal", "--signal", str(w / "signal.txt"), "--repo", str(repo), "--verify",
                             runner.VERIFY, "--max-minutes", "%g" % minutes, "--level", "observer", "--out", str(w / "out")],
                            stdout=log, stderr=subprocess.STDOUT, cwd=w, env=env)
        evidence = json.load(open(w / "out" / "evidence.json")) if (w / "out" / "evidence.json").exists() else {}
        candidate = evidence.get("candidate") or {}
        by = candidate.get("actor", "-")
        model_attempts = [a for a in evidence.get("attempts", []) if a.get("actor") == "llm-patch" and a["verdict"] != "skipped"]
        first = FakeModel.requests[0][0] if FakeModel.requests else None
        lesson = len(FakeModel.requests) >= 2 and "  # checked" in FakeModel.requests[1][1]
        row = {"id": bug, "fixed": bool(candidate), "by": by, "first": first, "rounds": len(model_attempts),
               "lesson": lesson, "requests": len(FakeModel.requests)}
        rows.append(row)
        print("%-22s %-7s %-12s %11s %7d %s" % (bug, "yes" if row["fixed"] else "no", by,
                                                  "%.1f s" % first if first is not None else "never", row["rounds"],
                                                  "yes" if lesson else ("-" if len(FakeModel.requests) < 2 else "no")),
              flush=True)
    server.shutdown()
    firsts = [r["first"] for r in rows if r["first"] is not None]
    by_model = [r for r in rows if r["by"] == "llm-patch"]
    print()
    print("# %d bugs: fixed %d (%d by the model, %d by templates or memory first)" % (
        len(rows), sum(r["fixed"] for r in rows), len(by_model), sum(r["fixed"] and r["by"] != "llm-patch" for r in rows)))
    if firsts:
        print("# model first asked after: median %.1f s, max %.1f s; never asked: %d (fixed before its turn)" % (
            statistics.median(firsts), max(firsts), len(rows) - len(firsts)))
        print("# within the first minute: %d of %d asked" % (sum(f <= 60 for f in firsts), len(firsts)))
    if by_model:
        print("# rounds to a fix by the model: mean %.2f, max %d" % (
            statistics.mean(r["rounds"] for r in by_model), max(r["rounds"] for r in by_model)))
    asked_twice = [r for r in rows if r["requests"] >= 2]
    print("# round 1's lesson in round 2's request: %d of %d" % (sum(r["lesson"] for r in asked_twice), len(asked_twice)))
    print("# logs: %s" % work)


if __name__ == "__main__":
    main()
