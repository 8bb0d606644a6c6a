#!/usr/bin/env bash
# The container image, built for real with Debian's podman and no image registry: the base image is
# a `debootstrap --variant=minbase bookworm` root (scripts/debian-root.sh, cached monthly) imported
# as localhost/debian:bookworm-minbase-MONTH-HASH, passed to the Containerfile as BASE; the image
# installs the .deb `make deb` built (dist/sentinel_VERSION_ARCH.deb, the build context's only
# package). Prints the image's name, localhost/sentinel:VERSION (also tagged :latest).
#
# usage: scripts/container.sh DEB [IMAGE]      (as root; podman, debootstrap)
#   BASE=IMAGE             use that base image instead of importing a debootstrap root
#   SENTINEL_ROOT_CACHE    where debian-root.sh keeps its tarballs (default ~/.cache/sentinel-roots)
#   CONTAINERS_CONF, CONTAINERS_STORAGE_CONF   podman's own: another store or configuration
#
# Where root lacks CAP_SYS_RESOURCE (some CI containers), podman's default rlimits (nofile 1048576)
# cannot be set and every RUN fails "error setting rlimits"; the build then keeps this shell's open
# files limit and podman build's default process limit instead. Where the host's pip has a CA bundle
# of its own (PIP_CERT, or pip's global.cert: a TLS-intercepting proxy's CA), the build's pip uses it,
# bound read-only for the build alone.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
usage="usage: container.sh DEB [IMAGE]"
deb="${1:?$usage}"
fail() { echo "container: $*" >&2; exit 1; }

[[ "$(id -u)" == 0 ]] || fail "run as root (rootful podman; debian-root.sh runs debootstrap)"
command -v podman >/dev/null || fail "podman missing: apt-get install podman buildah"
[[ -f "$deb" ]] || fail "$deb: no such package (make deb)"
deb="$(realpath "$deb")"
[[ "$(dirname "$deb")" == "$root/dist" ]] || fail "$deb: the Containerfile installs the .deb from $root/dist"
others="$(find "$root/dist" -maxdepth 1 -name 'sentinel_*.deb' ! -path "$deb" -printf '%f ')"
[[ -z "$others" ]] || fail "dist/ holds other packages ($others): the image installs exactly one; remove them"
version="$(dpkg-deb -f "$deb" Version)" || fail "$deb: not a Debian package"
image="${2:-localhost/sentinel:$version}"

base="${BASE:-}"
if [[ -z "$base" ]]; then
    tarball="$("$root/scripts/debian-root.sh" "${SENTINEL_ROOT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sentinel-roots}")"
    base="localhost/debian:$(basename "$tarball" .tar)"
    if ! podman image exists "$base"; then
        echo "container: importing $tarball as $base" >&2
        podman import --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
            --change 'CMD ["/bin/bash"]' "$tarball" "$base" >/dev/null
    fi
    podman tag "$base" localhost/debian:bookworm
fi

build=()
capabilities="$(awk '/^CapEff:/ { print $2 }' /proc/self/status)"
if (((0x$capabilities >> 24 & 1) == 0)); then
    build=(--ulimit "nofile=$(ulimit -Hn):$(ulimit -Hn)" --ulimit nproc=32768:32768)
fi
# pip's CA bundle, where the host's pip is told of one (a TLS-intercepting proxy's CA), for the build only.
pip_cert="${PIP_CERT:-$(python3 -m pip config get global.cert 2>/dev/null || true)}"
if [[ -n "$pip_cert" && -f "$pip_cert" ]]; then
    build+=(--volume "$(realpath "$pip_cert"):/run/sentinel-build-ca.crt:ro" --build-arg PIP_CERT=/run/sentinel-build-ca.crt)
fi
echo "container: podman build --build-arg BASE=$base -t $image" >&2
podman build "${build[@]}" --file "$root/Containerfile" --build-arg BASE="$base" --tag "$image" \
    --tag "${image%:*}:latest" "$root" >&2
echo "$image"
