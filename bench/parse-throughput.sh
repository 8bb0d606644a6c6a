#!/usr/bin/env bash
# Python parser throughput: parses every .py file of Django's sources with the native parser and
# prints files, lines and lines/second (plus files CPython and we disagree on, when python3 exists).
#
# usage: bench/parse-throughput.sh [debug|release] [TREE]
#   TREE defaults to Django 5.1 fetched from PyPI into a temp dir (pip download, unzip).
# The measurement is the "Python tree benchmark" test, run with SENTINEL_PY_TREE set; release mode
# builds the test bundle with -c release (slow: only when the machine is otherwise idle).
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
    debug) config=() ;;
    release) config=(-c release -Xswiftc -enable-testing) ;;
    *) echo "usage: $0 [debug|release] [TREE]" >&2; exit 2 ;;
esac

swift build --build-tests "${config[@]}" >/dev/null
SENTINEL_PY_TREE="$tree" SENTINEL_PY_AGREE=1 \
    swift test --skip-build "${config[@]}" --filter PythonTreeBenchmarkTests 2>&1 \
    | grep -E '^parsed|rejected:|we reject|CPython rejects|Test run with' || true
