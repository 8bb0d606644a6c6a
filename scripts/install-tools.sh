#!/usr/bin/env bash
# Installs the external scanners Sentinel runs in the sandbox (bandit, semgrep) into a venv.
#
#   scripts/install-tools.sh [DIR]      DIR defaults to $SENTINEL_TOOLS or /opt/sentinel-tools/venv
#
# Idempotent: a tool whose `DIR/bin/<tool> --version` already works is left alone.
# The venv is made by Debian's /usr/bin/python3 (not pyenv's): the sandbox profiles bind only
# /usr, /lib*, /etc and /opt/sentinel-tools, so the venv's interpreter must resolve inside them.
set -euo pipefail

DIR="${1:-${SENTINEL_TOOLS:-/opt/sentinel-tools/venv}}"
PYTHON=/usr/bin/python3
BANDIT_SPEC="${BANDIT_SPEC:-bandit}"
SEMGREP_SPEC="${SEMGREP_SPEC:-semgrep}"

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

# A venv made by another interpreter (e.g. pyenv's) would not run inside the sandbox: redo it.
if [ -f "$DIR/pyvenv.cfg" ] && ! grep -Eq '^home = /usr/bin/?$' "$DIR/pyvenv.cfg"; then
    log "$DIR was made by another interpreter ($(grep '^home' "$DIR/pyvenv.cfg")); recreating it"
    rm -rf "$DIR"
fi
if [ ! -x "$DIR/bin/python" ]; then
    log "creating venv $DIR"
    mkdir -p "$(dirname "$DIR")"
    "$PYTHON" -m venv "$DIR"
fi

PIP=("$DIR/bin/python" -m pip --disable-pip-version-check --no-input --quiet)

install_if_missing() {
    local tool="$1" spec="$2"
    if "$DIR/bin/$tool" --version >/dev/null 2>&1; then
        log "$tool present: $("$DIR/bin/$tool" --version 2>/dev/null | head -n 1)"
        return 0
    fi
    log "installing $spec"
    "${PIP[@]}" install "$spec"
    "$DIR/bin/$tool" --version >/dev/null 2>&1 || { log "$tool does not run after installing"; return 1; }
    log "$tool installed: $("$DIR/bin/$tool" --version 2>/dev/null | head -n 1)"
}

install_if_missing bandit "$BANDIT_SPEC"
# semgrep's --version may try the network; keep it quiet and offline.
export SEMGREP_ENABLE_VERSION_CHECK=0 SEMGREP_SEND_METRICS=off
install_if_missing semgrep "$SEMGREP_SPEC"
