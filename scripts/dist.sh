#!/usr/bin/env bash
# The release tarball, from a `make install` into a staging DESTDIR (one install mechanism):
#
#   DISTDIR/sentinel-VERSION-linux-ARCH.tar.gz         the tree below, under one top-level directory
#   DISTDIR/sentinel-VERSION-linux-ARCH.tar.gz.sha256  its checksum (sha256sum -c format)
#   DISTDIR/sentinel-VERSION-linux-ARCH.debug          bin/sentinel's debug info (gdb finds it by debuglink)
#   DISTDIR/sentinel-VERSION-linux-ARCH-cli.debug      libexec/sentinel/sentinel-cli's
#
#   sentinel-VERSION-linux-ARCH/
#     bin/sentinel                                     the lean launcher, Swift runtime static, stripped
#     libexec/sentinel/sentinel-cli                    the full command line it runs every other command in
#     share/sentinel/{rules,profiles}/                 found relative to the binary (<bindir>/../share/sentinel)
#     share/bash-completion/completions/sentinel       completions from swift-argument-parser
#     share/zsh/site-functions/_sentinel
#     share/fish/vendor_completions.d/sentinel.fish
#     share/doc/sentinel/help/sentinel[-SUB...].txt    `--help` of every command and subcommand
#     share/doc/sentinel/{README.md,LICENSE,NOTICE,THIRD-PARTY-NOTICES.md}
#     share/doc/sentinel/SHA256SUMS                    every other file, relative to the tree's root
#
# The archive holds files only (no directory entries), so `tar -x -C /usr/local --strip-components=1`
# creates what is missing and leaves the modes of existing directories alone. Owner 0:0, modes
# normalised, sorted, mtime of the last commit, gzip without a timestamp: the same tree gives the
# same bytes.
#
# usage: scripts/dist.sh RELEASE_BINARY DISTDIR   (the Makefile's `dist` target builds the binary first)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
binary="${1:?usage: dist.sh RELEASE_BINARY DISTDIR}"
distdir="${2:?usage: dist.sh RELEASE_BINARY DISTDIR}"
fail() { echo "dist: $*" >&2; exit 1; }

[[ -x "$binary" ]] || fail "$binary: no release binary (make release)"
version="$("$binary" --version)"
[[ "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+ ]] || fail "$binary --version printed '$version'"
name="sentinel-$version-linux-$(uname -m)"
mkdir -p "$distdir"
distdir="$(cd "$distdir" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
stage="$work/$name"

# 1. The installed tree: bin/sentinel and share/sentinel/{rules,profiles}, exactly as `make install`.
cli="$(dirname "$(realpath "$binary")")/sentinel-cli"
[[ -x "$cli" ]] || fail "$cli: no release binary beside $binary (make release)"
make -C "$root" --no-print-directory -o release install DESTDIR="$work" PREFIX="/$name" RELEASE_BIN="$(realpath "$binary")" \
    RELEASE_CLI="$cli" >/dev/null
bin="$stage/bin/sentinel"

# 2. Debug info beside the tarball, symbols and debug sections out of the shipped binaries.
for pair in "$bin:$name.debug" "$stage/libexec/sentinel/sentinel-cli:$name-cli.debug"; do
    shipped="${pair%%:*}" debug="$distdir/${pair#*:}"
    objcopy --only-keep-debug "$shipped" "$debug"
    chmod 0644 "$debug"
    objcopy --strip-all --add-gnu-debuglink="$debug" "$shipped"
done

# 3. What the binary says about itself (completions, --help texts) and the docs, from the stripped
#    binary that ships (scripts/stage-docs.sh, shared with scripts/deb.sh).
share="$stage/share"
"$root/scripts/stage-docs.sh" "$bin" "$share"

# 4. Checksums of every file in the tree, then the archive and its own checksum.
(cd "$stage" && find . -type f ! -path ./share/doc/sentinel/SHA256SUMS -printf '%P\n' | LC_ALL=C sort |
    xargs -d '\n' sha256sum >"$work/SHA256SUMS")
mv "$work/SHA256SUMS" "$share/doc/sentinel/SHA256SUMS"
mtime="$(git -C "$root" log -1 --format=%ct 2>/dev/null || date +%s)"
(cd "$work" && find "$name" ! -type d | LC_ALL=C sort) >"$work/files"
tar -C "$work" --no-recursion --owner=0 --group=0 --numeric-owner --mode='u+rw,go+r,go-w' \
    --mtime="@$mtime" -T "$work/files" -cf - | gzip -9 -n >"$distdir/$name.tar.gz"
(cd "$distdir" && sha256sum "$name.tar.gz" >"$name.tar.gz.sha256")
echo "$distdir/$name.tar.gz ($(du -h "$distdir/$name.tar.gz" | cut -f1), binary $(du -h "$bin" | cut -f1))"
