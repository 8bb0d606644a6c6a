#!/usr/bin/env python3
"""Time per test suite, from Swift Testing's event stream (`swift test --event-stream-output-path F
--experimental-event-stream-version 0`): CI prints it after the tests so a slow suite is seen.

A suite's time is the sum of its tests' own wall times (start to end of each test function); under
parallel execution they overlap, so the sums add up to more than the run's wall time, which is
printed beside them. The xUnit file's per-test times cannot serve: they count from the run's start.

    scripts/suite-times.py EVENTS.jsonl [--top N]
"""
import argparse
import collections
import json
import sys


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
                elif kind == "testStarted" and test is not None:
                    started[test] = now
                elif kind == "testEnded" and test in started and kinds.get(test) != "suite":
                    seconds = now - started.pop(test)
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
    print(f"== time per suite: {len(per_suite)} suites, {sum(counts.values())} tests, "
          f"{total:.0f} s of test time in {wall:.0f} s of wall time (tests overlap) ==")
    for suite, seconds in sorted(per_suite.items(), key=lambda item: -item[1])[: args.top]:
        print(f"{seconds:8.1f} s  {counts[suite]:4d} tests  {suite}")
    print("== time per test target ==")
    for target, seconds in sorted(per_target.items(), key=lambda item: -item[1]):
        print(f"{seconds:8.1f} s  {target}")


if __name__ == "__main__":
    main()
