#!/usr/bin/env bash
# A clean Debian 12 root with no Swift on it: `debootstrap --variant=minbase bookworm` plus the
# packages named, kept as a tarball in CACHE_DIR so that only the first run downloads. The
# tarball's name carries the month and the package list, so the cache refreshes monthly and when
# the list changes (older tarballs are removed). Prints the tarball's path.
#
# usage: scripts/debian-root.sh CACHE_DIR [PACKAGE...]     (as root; reaches DEBIAN_MIRROR,
#        default http://deb.debian.org/debian, on the first run of a month)
set -euo pipefail
cache="${1:?usage: debian-root.sh CACHE_DIR [PACKAGE...]}"
shift
mirror="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
fail() { echo "debian-root: $*" >&2; exit 1; }

[[ "$(id -u)" == 0 ]] || fail "run as root (debootstrap keeps root-owned files)"
command -v debootstrap >/dev/null || fail "debootstrap missing: apt-get install debootstrap"
packages="$(printf '%s\n' "$@" | LC_ALL=C sort -u | paste -sd, -)"
key="bookworm-minbase-$(date -u +%Y-%m)-$(printf '%s' "$packages" | sha256sum | cut -c1-12)"
tarball="$cache/$key.tar"
if [[ ! -f "$tarball" ]]; then
    mkdir -p "$cache"
    work="$(mktemp -d "$cache/.root-XXXXXX")"
    trap 'rm -rf "$work"' EXIT
    echo "debian-root: debootstrap bookworm (minbase${packages:+ + $packages}) into $cache (once)" >&2
    timeout 3000 debootstrap --variant=minbase ${packages:+--include="$packages"} bookworm "$work/root" "$mirror" \
        >"$work/debootstrap.log" 2>&1 || fail "debootstrap failed: $(tail -3 "$work/debootstrap.log")"
    rm -rf "$work/root/var/cache/apt/archives/"*.deb "$work/root/var/lib/apt/lists/"*_Packages
    tar -C "$work/root" --numeric-owner -cf "$work/root.tar" .
    find "$cache" -maxdepth 1 -name 'bookworm-minbase-*.tar' -delete
    mv "$work/root.tar" "$tarball"
fi
echo "$tarball"
