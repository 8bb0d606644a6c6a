#!/usr/bin/env bash
# Installs the external scanners Sentinel runs in the sandbox (bandit, semgrep, wapiti) into venvs.
#
#   scripts/install-tools.sh [DIR]      DIR defaults to $SENTINEL_TOOLS or /opt/sentinel-tools/venv
#
# Bandit and Semgrep go into DIR. Wapiti goes into its own venv beside it, DIR/../wapiti (or
# $WAPITI_DIR): wapiti3 pins exact versions (httpx==0.27.0, typing-extensions==4.10.0, h11, packaging)
# that would downgrade what Semgrep needs in the shared venv and break it.
#
# Idempotent: a tool whose `<venv>/bin/<tool> --version` already works, at its pinned version, is left alone.
# The venv is made by Debian's /usr/bin/python3 (not pyenv's): the sandbox profiles bind only
# /usr, /lib*, /etc and /opt/sentinel-tools, so the venv's interpreter must resolve inside them.
set -euo pipefail

DIR="${1:-${SENTINEL_TOOLS:-/opt/sentinel-tools/venv}}"
PYTHON=/usr/bin/python3
# Pinned: a release of a scanner changes what it reports, and the adapters' tests and the bench
# figures are checked against these versions. Raise a pin on purpose, with the tests run.
BANDIT_SPEC="${BANDIT_SPEC:-bandit==1.9.4}"
SEMGREP_SPEC="${SEMGREP_SPEC:-semgrep==1.185.0}"
WAPITI_SPEC="${WAPITI_SPEC:-wapiti3==3.2.3}"
WAPITI_DIR="${WAPITI_DIR:-$(dirname "$DIR")/wapiti}"

log() { printf 'install-tools: %s\n' "$*" >&2; }

if [ ! -x "$PYTHON" ]; then
    log "$PYTHON is missing; installing python3 with apt"
    apt-get install -y --no-install-recommends python3 >&2
fi

if ! "$PYTHON" -c 'import ensurepip, venv' 2>/dev/null; then
    log "python3-venv is missing; installing it with apt"
    apt-get install -y --no-install-recommends python3-venv >&2 \
        || { apt-get update >&2 && apt-get install -y --no-install-recommends python3-venv >&2; }
fi

# make_venv VENV: a venv made by Debian's python3. One made by another interpreter (e.g. pyenv's)
# would not run inside the sandbox: redo it.
make_venv() {
    local venv="$1"
    if [ -f "$venv/pyvenv.cfg" ] && ! grep -Eq '^home = /usr/bin/?$' "$venv/pyvenv.cfg"; then
        log "$venv was made by another interpreter ($(grep '^home' "$venv/pyvenv.cfg")); recreating it"
        rm -rf "$venv"
    fi
    if [ ! -x "$venv/bin/python" ]; then
        log "creating venv $venv"
        mkdir -p "$(dirname "$venv")"
        "$PYTHON" -m venv "$venv"
    fi
}

# install_if_missing VENV TOOL SPEC [VERSION-ARGS...]: pip-installs SPEC into VENV unless
# `VENV/bin/TOOL VERSION-ARGS` (default --version) already works.
install_if_missing() {
    local venv="$1" tool="$2" spec="$3"
    shift 3
    local version=("${@:---version}")
    make_venv "$venv"
    # A pinned spec (`name==X`) is present only at version X: another version is replaced.
    local pinned="${spec#*==}"
    [ "$pinned" = "$spec" ] && pinned=""
    if "$venv/bin/$tool" "${version[@]}" 2>/dev/null | grep -F -- "${pinned:-.}" >/dev/null; then
        log "$tool present: $("$venv/bin/$tool" "${version[@]}" 2>/dev/null | grep -m 1 -E '[0-9]+\.[0-9]+')"
        return 0
    fi
    log "installing $spec into $venv"
    "$venv/bin/python" -m pip --disable-pip-version-check --no-input --quiet install "$spec"
    "$venv/bin/$tool" "${version[@]}" >/dev/null 2>&1 || { log "$tool does not run after installing"; return 1; }
    log "$tool installed: $("$venv/bin/$tool" "${version[@]}" 2>/dev/null | grep -m 1 -E '[0-9]+\.[0-9]+')"
}

install_if_missing "$DIR" bandit "$BANDIT_SPEC"
# semgrep's --version may try the network; keep it quiet and offline.
export SEMGREP_ENABLE_VERSION_CHECK=0 SEMGREP_SEND_METRICS=off
install_if_missing "$DIR" semgrep "$SEMGREP_SPEC"
# wapiti3's mitmproxy needs urwid-mitmproxy, which PyPI has only as source with a C extension:
# building it needs a compiler and Python's headers.
if ! "$WAPITI_DIR/bin/wapiti" --version >/dev/null 2>&1; then
    python_h="$("$PYTHON" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')/Python.h"
    if ! command -v gcc >/dev/null 2>&1 || [ ! -f "$python_h" ]; then
        log "gcc or $python_h is missing (wapiti3 builds a C extension); installing gcc and python3-dev with apt"
        apt-get install -y --no-install-recommends gcc python3-dev >&2 \
            || { apt-get update >&2 && apt-get install -y --no-install-recommends gcc python3-dev >&2; }
    fi
fi
install_if_missing "$WAPITI_DIR" wapiti "$WAPITI_SPEC"
