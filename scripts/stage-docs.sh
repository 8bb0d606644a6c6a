#!/usr/bin/env bash
# What an installed tree says about itself, written from the (stripped) binary that ships, for both
# packages (scripts/dist.sh's tarball and scripts/deb.sh's .deb):
#
#   SHARE/bash-completion/completions/sentinel       completions from swift-argument-parser
#   SHARE/zsh/site-functions/_sentinel
#   SHARE/fish/vendor_completions.d/sentinel.fish
#   SHARE/doc/sentinel/help/sentinel[-SUB...].txt    `--help` of every command and subcommand
#   SHARE/doc/sentinel/{README.md,LICENSE,NOTICE,THIRD-PARTY-NOTICES.md}
#
# usage: scripts/stage-docs.sh BINARY SHARE
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bin="${1:?usage: stage-docs.sh BINARY SHARE}"
share="${2:?usage: stage-docs.sh BINARY SHARE}"
[[ -x "$bin" ]] || { echo "stage-docs: $bin: not an executable" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

mkdir -p "$share/bash-completion/completions" "$share/zsh/site-functions" "$share/fish/vendor_completions.d" \
    "$share/doc/sentinel/help"
"$bin" --generate-completion-script bash >"$share/bash-completion/completions/sentinel"
"$bin" --generate-completion-script zsh >"$share/zsh/site-functions/_sentinel"
"$bin" --generate-completion-script fish >"$share/fish/vendor_completions.d/sentinel.fish"
# Every command path from argument-parser's own description of the tree (`help` is its built-in).
"$bin" --experimental-dump-help | python3 -c '
import json, sys
def walk(command, path):
    yield path
    for sub in command.get("subcommands", []):
        if sub["commandName"] != "help":
            yield from walk(sub, path + [sub["commandName"]])
for path in walk(json.load(sys.stdin)["command"], []):
    print(" ".join(path))
' >"$work/commands"
while read -r -a words; do
    file="$(IFS=-; echo "sentinel${words[*]:+-${words[*]}}").txt"
    COLUMNS=80 LINES=24 "$bin" "${words[@]}" --help >"$share/doc/sentinel/help/$file"
done <"$work/commands"
for doc in README.md LICENSE NOTICE THIRD-PARTY-NOTICES.md; do
    [[ -f "$root/$doc" ]] && install -m 0644 "$root/$doc" "$share/doc/sentinel/$doc"
done
exit 0
