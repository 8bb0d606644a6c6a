#!/usr/bin/env bash
# The Python parser against CPython 3.12's ast.parse over seventeen PyPI projects' sources and the
# interpreter's own Lib (issue 13).
#
# usage: bench/parse-parity.sh [--project NAME]... [--details N] [--strings]
#   PYTHON312     the CPython 3.12 interpreter (default: /root/.pyenv/versions/3.12.1/bin/python3.12, else
#                 python3.12 on PATH); its pip fetches the sources
#   PARITY_DIR    where the sources are cached (default: $TMPDIR/sentinel-parse-parity-<uid>, created 0700)
#   CONFIG        debug (default) or release build of sentinel-bench
# The first run downloads ~90 MB and has pip prepare twelve sdists' metadata (15+ minutes); later runs
# reuse the cache.
# --strings also compares every code-like string literal of those files as a module of its own.
# Prints one Markdown row per project (files, lines, verdict disagreements both ways, files whose
# structural fingerprint differs) and each disagreement; exits 1 when the parser rejects a file
# CPython accepts or a fingerprint differs (see bench/parse-parity.py).
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
python="${PYTHON312:-/root/.pyenv/versions/3.12.1/bin/python3.12}"
[[ -x "$python" ]] || python="$(command -v python3.12 || true)"
[[ -n "$python" ]] || { echo "parse-parity: no CPython 3.12 (set PYTHON312)" >&2; exit 2; }

cache="${PARITY_DIR:-${TMPDIR:-/tmp}/sentinel-parse-parity-$(id -u)}"
mkdir -p -m 0700 "$cache"
# A shared /tmp: refuse a cache someone else created (they could plant the sources we parse).
[[ -O "$cache" ]] || { echo "parse-parity: $cache is not owned by $(id -un)" >&2; exit 2; }

cd "$root"
config="${CONFIG:-debug}"
swift build -c "$config" --product sentinel-bench >/dev/null
bench="$(swift build -c "$config" --show-bin-path)/sentinel-bench"

"$python" bench/parse-parity.py --cache "$cache" --bench "$bench" "$@"
