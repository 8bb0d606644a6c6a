#!/usr/bin/env bash
# Whether two sentinel builds report the same findings over the same trees: each tree scanned at
# its root by both (default scanners, JSON), compared as sorted (ruleId, path, line, fingerprint)
# lists. Run as root it shows that the unprivileged analysis (issue 53) finds what root found.
#
#   bench/findings-same.sh OLD_BINARY NEW_BINARY TREE...      # prints one line per tree that differs
set -euo pipefail
[[ $# -ge 3 ]] || { echo "usage: $0 OLD_BINARY NEW_BINARY TREE..." >&2; exit 2; }
old=$1 new=$2
shift 2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
same=0 differ=0
for tree in "$@"; do
    for side in old new; do
        bin=$old
        [[ $side == new ]] && bin=$new
        # A scan's own status (3: no advisories for an ecosystem) does not matter here: its findings do.
        { "$bin" scan "$tree" --format json --fail-on none --allow-stale-db 2>/dev/null || true; } \
            | jq -S '[.findings[] | {ruleId, file: .location.path, line: .location.line, fingerprint}] | sort_by(.fingerprint)' \
            > "$work/$side.json"
    done
    if cmp -s "$work/old.json" "$work/new.json"; then
        same=$((same + 1))
    else
        differ=$((differ + 1))
        echo "differs: $tree ($(jq length "$work/old.json") vs $(jq length "$work/new.json") findings)"
    fi
done
echo "same: $same of $((same + differ)) trees"
