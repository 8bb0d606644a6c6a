#!/usr/bin/env python3
"""Time per test suite, from Swift Testing's event stream (`swift test --event-stream-output-path F
--experimental-event-stream-version 0`): CI prints it after the tests so a slow suite is seen.

A suite's time is the sum of its test cases' wall times (each case from its start to its end: a
plain test is one case, a parameterised one a case per argument). Under parallel execution they
overlap, and the run's wall time is printed beside them. Neither the xUnit file's per-test times nor
the test-level events can serve: a test is "started" when it is queued, long before it runs.

    scripts/suite-times.py EVENTS.jsonl [--top N]
"""
import argparse
import collections
import json
import sys


def case_id(payload):
    """A test case's identity within its test (its arguments' id; one case for a plain test)."""
    return (payload.get("_testCase") or {}).get("id")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("events")
    parser.add_argument("--top", type=int, default=30, help="suites to list (default 30)")
    args = parser.parse_args()

    kinds, started, per_suite, per_target = {}, {}, collections.defaultdict(float), collections.defaultdict(float)
    counts = collections.Counter()
    run = {}
    try:
        with open(args.events, encoding="utf-8") as stream:
            for line in stream:
                try:
                    record = json.loads(line)
                except ValueError:
                    continue  # a line cut short by a crash: the rest still counts
                payload = record.get("payload", {})
                if record.get("kind") == "test":
                    kinds[payload.get("id")] = payload.get("kind")
                    continue
                kind, test, instant = payload.get("kind"), payload.get("testID"), payload.get("instant", {})
                now = instant.get("absolute")
                if kind in ("runStarted", "runEnded"):
                    run[kind] = now
                elif kind == "testCaseStarted" and test is not None:
                    started[(test, case_id(payload))] = now
                elif kind == "testCaseEnded" and (test, case_id(payload)) in started:
                    seconds = now - started.pop((test, case_id(payload)))
                    suite = test.split("/")[0]
                    per_suite[suite] += seconds
                    per_target[suite.split(".")[0]] += seconds
                    counts[suite] += 1
    except OSError as error:
        sys.exit(f"suite-times: {args.events}: {error.strerror}")
    if not per_suite:
        sys.exit(f"suite-times: {args.events}: no test ended")

    wall = run.get("runEnded", 0) - run.get("runStarted", 0)
    total = sum(per_suite.values())
    print(f"== time per suite: {len(per_suite)} suites, {sum(counts.values())} test cases, "
          f"{total:.0f} s of test time in {wall:.0f} s of wall time (cases overlap) ==")
    for suite, seconds in sorted(per_suite.items(), key=lambda item: -item[1])[: args.top]:
        print(f"{seconds:8.1f} s  {counts[suite]:5d} cases  {suite}")
    print("== time per test target ==")
    for target, seconds in sorted(per_target.items(), key=lambda item: -item[1]):
        print(f"{seconds:8.1f} s  {target}")


if __name__ == "__main__":
    main()
