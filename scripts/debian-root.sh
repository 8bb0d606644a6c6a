#!/usr/bin/env bash
# A clean Debian 12 root with no Swift on it: `debootstrap --variant=minbase bookworm` plus the
# packages named, kept as a tarball in CACHE_DIR so that only the first run downloads. The
# tarball's name carries the month and the package lists, so the cache refreshes monthly and when
# a list changes (the same lists' tarballs of earlier months are removed). Prints the tarball's path.
#
# --fetch PACKAGE,... leaves those packages uninstalled but ready for apt: the root's sources name
# bookworm, bookworm-updates and bookworm-security, its package lists are kept, and the .debs of
# `apt-get install PACKAGE...` (dependencies and recommends included) wait in /var/cache/apt/archives,
# so that `apt-get install --no-download` inside the root resolves and installs them offline.
#
# usage: scripts/debian-root.sh [--fetch PACKAGE,...] CACHE_DIR [PACKAGE...]
#        (as root; reaches DEBIAN_MIRROR, default http://deb.debian.org/debian, and
#        DEBIAN_SECURITY_MIRROR, default http://deb.debian.org/debian-security, on the first run of a month)
set -euo pipefail
usage="usage: debian-root.sh [--fetch PACKAGE,...] CACHE_DIR [PACKAGE...]"
fetch=""
if [[ "${1:-}" == --fetch ]]; then
    fetch="$(printf '%s' "${2:?$usage}" | tr ', ' '\n\n' | grep -v '^$' | LC_ALL=C sort -u | paste -sd' ' -)"
    shift 2
fi
cache="${1:?$usage}"
shift
mirror="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
security="${DEBIAN_SECURITY_MIRROR:-http://deb.debian.org/debian-security}"
fail() { echo "debian-root: $*" >&2; exit 1; }

[[ "$(id -u)" == 0 ]] || fail "run as root (debootstrap keeps root-owned files)"
command -v debootstrap >/dev/null || fail "debootstrap missing: apt-get install debootstrap"
packages="$(printf '%s\n' "$@" | LC_ALL=C sort -u | paste -sd, -)"
lists="$packages${fetch:+|fetch:$fetch}"
hash="$(printf '%s' "$lists" | sha256sum | cut -c1-12)"
key="bookworm-minbase-$(date -u +%Y-%m)-$hash"
tarball="$cache/$key.tar"
if [[ ! -f "$tarball" ]]; then
    mkdir -p "$cache"
    work="$(mktemp -d "$cache/.root-XXXXXX")"
    trap 'rm -rf "$work"' EXIT
    echo "debian-root: debootstrap bookworm (minbase${packages:+ + $packages}) into $cache (once)" >&2
    timeout 3000 debootstrap --variant=minbase ${packages:+--include="$packages"} bookworm "$work/root" "$mirror" \
        >"$work/debootstrap.log" 2>&1 || fail "debootstrap failed: $(tail -3 "$work/debootstrap.log")"
    rm -rf "$work/root/var/cache/apt/archives/"*.deb "$work/root/var/lib/apt/lists/"*_Packages
    if [[ -n "$fetch" ]]; then
        echo "debian-root: fetching $fetch (uninstalled) into the root's apt cache" >&2
        printf '%s\n' "deb $mirror bookworm main" "deb $mirror bookworm-updates main" \
            "deb $security bookworm-security main" >"$work/root/etc/apt/sources.list"
        cp /etc/resolv.conf "$work/root/etc/resolv.conf"
        # shellcheck disable=SC2086 # one word a package
        unshare --mount --propagation private --pid --fork --mount-proc="$work/root/proc" chroot "$work/root" \
            /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive /bin/sh -c \
            'apt-get update -qq && apt-get install -y -qq --download-only "$@"' sh $fetch \
            >"$work/fetch.log" 2>&1 || fail "fetching $fetch failed: $(tail -3 "$work/fetch.log")"
        rm -f "$work/root/etc/resolv.conf"
    fi
    tar -C "$work/root" --numeric-owner -cf "$work/root.tar" .
    find "$cache" -maxdepth 1 -name "bookworm-minbase-*-$hash.tar" ! -name "$key.tar" -delete
    mv "$work/root.tar" "$tarball"
fi
echo "$tarball"
