#!/usr/bin/env bash
# What makes the release binary's size, and what `make dist` ships: the static-stdlib release
# build (`make release`) before stripping, broken down by ELF section and by the largest
# single object (ICU's data), then the binary in the dist tarball, the tarball and the debug file.
# Also whether the full Foundation (and with it FoundationInternationalization and ICU's data)
# is linked, and what in the sources and dependencies needs it.
#
#   bench/binary-size.sh        # builds what is missing (make dist into bench/out/dist); prints
#                               # the markdown for BENCHMARKS.md, also in bench/out/binary-size.md
set -euo pipefail
cd "$(dirname "$0")/.."
out=bench/out
mkdir -p "$out"
exec > >(tee "$out/binary-size.md")
make --no-print-directory dist DISTDIR="$out/dist" >&2
bin=.build-release-static/release/sentinel
version="$("$bin" --version)"
name="sentinel-$version-linux-$(uname -m)"
tarball="$out/dist/$name.tar.gz"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
tar -xzf "$tarball" -C "$work"
shipped="$work/$name/bin/sentinel"

mb() { awk -v b="$1" 'BEGIN { printf "%.1f MB", b / 1000000 }'; }
file_size() { stat -c %s "$1"; }
# Section sizes in bytes by name pattern (readelf -S -W, after the index: name type address
# offset size, the size in hex).
sections() {
    readelf -S -W "$bin" | sed -n 's/^ *\[ *[0-9]*\] *//p' | while read -r section _ _ _ size _; do
        if [[ "$section" =~ $1 ]]; then echo $((16#$size)); fi
    done | awk '{ total += $1 } END { print total + 0 }'
}
total=$(file_size "$bin")
debug=$(sections '^\.debug_')
symbols=$(sections '^\.(symtab|strtab)$')
icu_symbol=$(nm -S "$bin" | awk '$4 ~ /^icudt[0-9]+_dat$/ { print $2, $4 }')
icu=$((16#${icu_symbol% *}))
icu_version=${icu_symbol##* icudt}; icu_version=${icu_version%_dat}
# Code and tables by symbol (nm -S), summed: ICU's (C symbols suffixed _NN, C++ in namespace
# icu_NN) and FoundationInternationalization's (its module name in the mangled Swift symbol).
symbols_matching() {
    nm -S "$bin" | awk -v re="$1" 'NF == 4 && $4 ~ re { print $2 }' | while read -r size; do echo $((16#$size)); done |
        awk '{ total += $1 } END { print total + 0 }'
}
icu_code=$(symbols_matching "(_${icu_version}\$|icu_${icu_version})")
intl_code=$(symbols_matching 'FoundationInternationalization')
rodata=$(sections '^\.rodata$')
text=$(sections '^\.text$')
unwind=$(sections '^\.eh_frame')
swift_meta=$(sections '^swift5_')
other=$(( total - debug - symbols - rodata - text - unwind - swift_meta ))
strip --strip-debug -o "$work/debug-stripped" "$bin"

echo "| what | bytes | size |"
echo "|---|---:|---:|"
row() { printf '| %s | %d | %s |\n' "$1" "$2" "$(mb "$2")"; }
row "**before**: release binary as built (\`$bin\`)" "$total"
row "— DWARF debug info (\`.debug_*\`)" "$debug"
row "— symbol tables (\`.symtab\`, \`.strtab\`)" "$symbols"
row "— \`.rodata\`, of which ICU's data \`icudt*_dat\` (FoundationInternationalization)" "$rodata"
row "&nbsp;&nbsp;— ICU's data alone" "$icu"
row "— \`.text\` (code: ours, the Swift runtime, Foundation, ICU, libdispatch)" "$text"
row "— unwind tables (\`.eh_frame*\`)" "$unwind"
row "— Swift metadata (\`swift5_*\`)" "$swift_meta"
row "— everything else (relocations, dynamic symbols, data)" "$other"
row "ICU's code and tables, across sections (symbols \`*_$icu_version\`, \`icu_$icu_version::*\`)" "$icu_code"
row "FoundationInternationalization's own symbols, across sections" "$intl_code"
row "debug info stripped (\`strip --strip-debug\`)" "$(file_size "$work/debug-stripped")"
row "**after**: \`bin/sentinel\` in the tarball (\`objcopy --strip-all\`)" "$(file_size "$shipped")"
row "the tarball \`$name.tar.gz\`" "$(file_size "$tarball")"
row "\`$name.debug\` beside it (not in the tarball)" "$(file_size "$out/dist/$name.debug")"
echo
# What would have to change for FoundationEssentials alone (no ICU): every module importing
# Foundation links all of it; the APIs below exist only there (swift-corelibs-foundation).
importing=$(grep -rlE '^import Foundation$' Sources | wc -l)
sources=$(find Sources -name '*.swift' | wc -l)
only_full=$(grep -rhoE '\b(NSRegularExpression|NSString|Bundle|Process\(\)|DateFormatter|ISO8601DateFormatter|String\(format:|XMLParser|NumberFormatter)' Sources |
    sed 's/($//; s/(format:$/(format:)/' | sort | uniq -c | sort -rn | awk '{ printf "%s%s %s", sep, $2, $1; sep = ", " }')
yams=$(grep -rlE '^import Foundation$' .build-release-static/checkouts/Yams/Sources 2>/dev/null | wc -l)
intl=$(nm "$bin" | grep -c 'FoundationInternationalization' || true)
gc=$(grep -c -- 'gc-sections' .build-release-static/release.yaml 2>/dev/null || true)
echo "- Linked: FoundationInternationalization ($intl symbols) and ICU's data; $importing of $sources source files"
echo "  \`import Foundation\`, Yams $yams files. Foundation-only APIs used: $only_full."
echo "- Dead code: SwiftPM's release link already passes \`--gc-sections\` ($gc link commands in release.yaml)."
