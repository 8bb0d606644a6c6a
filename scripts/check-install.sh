#!/usr/bin/env bash
# A real `make install` into a temporary DESTDIR; the installed tree is then moved elsewhere and
# run from there, to check that the binary finds its rules and profiles relative to itself
# (<bindir>/../share/sentinel) and is the static-stdlib release build.
#
# usage: scripts/check-install.sh        (builds the release binary: several minutes cold)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

fail() { echo "check-install: $*" >&2; exit 1; }

make -C "$root" install DESTDIR="$work/stage" PREFIX=/opt/sentinel
[[ -x "$work/stage/opt/sentinel/bin/sentinel" ]] || fail "no bin/sentinel under DESTDIR"
[[ -x "$work/stage/opt/sentinel/libexec/sentinel/sentinel-cli" ]] || fail "no libexec/sentinel/sentinel-cli under DESTDIR"
[[ -f "$work/stage/opt/sentinel/share/sentinel/profiles/minimal.yaml" ]] || fail "no share/sentinel/profiles"
[[ -d "$work/stage/opt/sentinel/share/sentinel/rules/python" ]] || fail "no share/sentinel/rules"
for binary in bin/sentinel libexec/sentinel/sentinel-cli; do
    if ldd "$work/stage/opt/sentinel/$binary" | grep -q libswiftCore; then
        fail "$binary links the Swift runtime dynamically"
    fi
done

# Moved: the prefix it was installed for (/opt/sentinel) no longer holds it.
mv "$work/stage/opt/sentinel" "$work/moved"
bin="$work/moved/bin/sentinel"
# A profile only the moved tree has: seeing it proves which directory was read.
sed 's/^name: minimal$/name: check-install-marker/' "$root/profiles/minimal.yaml" \
    >"$work/moved/share/sentinel/profiles/check-install-marker.yaml"

cd /  # nowhere near a checkout
unset SENTINEL_PROFILES SENTINEL_RULES
# Source and sanitizer sets (`set:` files) are included by rules, not rules themselves.
expected_rules="$(find "$root/rules" -name '*.yaml' -exec grep -L '^set:' {} + | wc -l)"
rules_line="$("$bin" rules list | tail -1)"
[[ "$rules_line" == "$expected_rules rules" ]] || fail "rules list: '$rules_line', expected '$expected_rules rules'"
profiles="$("$bin" sandbox profiles)"
for name in minimal scan-bandit check-install-marker; do
    grep -qE "^$name " <<<"$profiles" || fail "sandbox profiles does not list $name:
$profiles"
done
status=0
SENTINEL_HOME="$work/home" "$bin" scan --tools native --format json "$root/examples" >"$work/scan.json" || status=$?
[[ $status -eq 1 ]] || fail "scan of examples/ exited $status (1 expected: it is vulnerable on purpose)"
echo "check-install: ok (bin/sentinel, $expected_rules rules and $(( $(grep -c . <<<"$profiles") - 1 )) profiles from the moved prefix)"
