#!/usr/bin/env bash
# Python parser throughput on a large real tree (Django 5.1 from PyPI by default).
#
# usage: bench/parse-throughput.sh [debug|release|package-release] [TREE]
#   debug            the PythonSyntaxTests "Python tree benchmark" test in the debug build (also checks that
#                    CPython's ast.parse accepts/rejects the same files when python3 is present)
#   release          the parser sources compiled alone with `swiftc -O -wmo` and a small driver:
#                    the optimised figure without a release build of the whole package (~30 s)
#   package-release  the same test as `debug` in `swift build -c release` (slow; idle machine only)
# Prints files, lines, seconds and lines/second; for comparison, CPython's own ast.parse speed.
set -euo pipefail

mode="${1:-debug}"
tree="${2:-}"
root="$(cd "$(dirname "$0")/.." && pwd)"

if [[ -z "$tree" ]]; then
    work="${TMPDIR:-/tmp}/sentinel-django"
    if [[ ! -d "$work/src/django" ]]; then
        mkdir -p "$work"
        python3 -m pip download --quiet --no-deps 'django==5.1.*' -d "$work"
        unzip -q -o "$work"/django-*.whl -d "$work/src"
    fi
    tree="$work/src/django"
fi

cd "$root"
case "$mode" in
    debug | package-release)
        config=()
        [[ "$mode" == package-release ]] && config=(-c release -Xswiftc -enable-testing)
        swift build --build-tests "${config[@]}" >/dev/null
        SENTINEL_PY_TREE="$tree" SENTINEL_PY_AGREE=1 \
            swift test --skip-build "${config[@]}" --filter PythonTreeBenchmarkTests 2>&1 \
            | grep -E '^parsed|rejected:|we reject|CPython rejects|Test run with' || true
        ;;
    release)
        tmp="$(mktemp -d)"
        trap 'rm -rf "$tmp"' EXIT
        cat >"$tmp/main.swift" <<'SWIFT'
import Foundation
let root = CommandLine.arguments[1]
var paths: [String] = []
if let e = FileManager.default.enumerator(atPath: root) {
    for case let rel as String in e where rel.hasSuffix(".py") { paths.append(root + "/" + rel) }
}
let sources = paths.compactMap { FileManager.default.contents(atPath: $0).map { [UInt8]($0) } }
var lines = 0
for s in sources { for c in s where c == 10 { lines += 1 } }
let clock = ContinuousClock()
for round in 1...3 {
    var failed = 0
    let t = clock.measure {
        for s in sources {
            do { _ = try PythonParser.parseModule(bytes: s, fileName: "x") } catch { failed += 1 }
        }
    }
    let sec = Double(t.components.seconds) + Double(t.components.attoseconds) / 1e18
    print("round \(round): parsed \(sources.count) files, \(lines) lines in \(String(format: "%.3f", sec)) s:",
          "\(Int(Double(lines) / sec)) lines/s, rejected \(failed)")
}
SWIFT
        # The parser's one dependency (LineIndex, for multi-line f-strings) as a small module.
        swiftc -O -wmo -parse-as-library -emit-library -static -module-name SourcePositions \
            Sources/SourcePositions/LineIndex.swift Sources/SourcePositions/SourceColumn.swift \
            -emit-module-path "$tmp/SourcePositions.swiftmodule" -o "$tmp/libSourcePositions.a"
        swiftc -O -wmo -module-name PyBench -I "$tmp" -L "$tmp" -lSourcePositions \
            Sources/PythonSyntax/*.swift "$tmp/main.swift" -o "$tmp/pybench"
        "$tmp/pybench" "$tree"
        ;;
    *) echo "usage: $0 [debug|release|package-release] [TREE]" >&2; exit 2 ;;
esac

python3 - "$tree" <<'PY'
import ast, os, sys, time
files = [os.path.join(d, f) for d, _, fs in os.walk(sys.argv[1]) for f in fs if f.endswith(".py")]
sources = [open(f, "rb").read() for f in files]
lines = sum(s.count(b"\n") for s in sources)
start = time.perf_counter()
for s in sources:
    try:
        ast.parse(s)
    except SyntaxError:
        pass
elapsed = time.perf_counter() - start
print(f"CPython ast.parse: {len(files)} files, {lines} lines in {elapsed:.3f} s: {int(lines / elapsed)} lines/s")
PY
