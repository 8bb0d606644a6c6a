# Sourced by bench scripts. noise_sources WORK: the sources of the seven real projects of the noise
# benchmark (bench/noise.sh), fetched once as sdists from PyPI into WORK/sdists and unpacked into
# WORK/src (one directory per project, named NAME-VERSION). Later runs reuse what is there, so the
# versions stay those of the first fetch until the cache is removed.
NOISE_PROJECTS=(django flask requests httpx sqlalchemy scrapy ansible-core)

noise_sources() {
    local work=$1 project pattern archive name
    mkdir -p "$work/sdists" "$work/src"
    # pip builds each sdist's metadata; with build isolation it would build setuptools & co. from
    # source too (minutes each), so the build backends come as wheels into a private venv and
    # isolation is off.
    for project in "${NOISE_PROJECTS[@]}"; do
        pattern=$(echo "$project" | tr '-' '_')
        if ! ls "$work/sdists" | grep -qi "^\(${project}\|${pattern}\)-[0-9]"; then
            if [[ ! -x "$work/dlvenv/bin/pip" ]]; then
                python3 -m venv "$work/dlvenv"
                "$work/dlvenv/bin/pip" install -q -U setuptools wheel flit_core hatchling hatch-vcs \
                    hatch-fancy-pypi-readme setuptools_scm
            fi
            "$work/dlvenv/bin/pip" download -q --no-deps --no-binary :all: --no-build-isolation "$project" \
                -d "$work/sdists" >/dev/null
        fi
    done
    for archive in "$work"/sdists/*.tar.gz; do
        name=$(basename "$archive" .tar.gz)
        [[ -d "$work/src/$name" ]] || tar -xzf "$archive" -C "$work/src"
    done
}
