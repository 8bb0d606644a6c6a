#!/usr/bin/env bash
# The Debian package, from a `make install` into a staging DESTDIR with PREFIX=/usr (one install
# mechanism, as scripts/dist.sh's tarball):
#
#   DISTDIR/sentinel_VERSION_ARCH.deb
#     /usr/bin/sentinel                                  the lean launcher, Swift runtime static, stripped
#     /usr/libexec/sentinel/sentinel-cli                 the full command line it runs every other command in
#     /usr/share/sentinel/{rules,profiles}/              found relative to the binary (<bindir>/../share/sentinel)
#     /usr/share/bash-completion/completions/sentinel    completions (scripts/stage-docs.sh)
#     /usr/share/zsh/vendor-completions/_sentinel        (Debian's zsh reads vendor-completions)
#     /usr/share/fish/vendor_completions.d/sentinel.fish
#     /usr/share/doc/sentinel/help/sentinel[-SUB...].txt `--help` of every command and subcommand
#     /usr/share/doc/sentinel/{README.md,LICENSE,NOTICE,THIRD-PARTY-NOTICES.md,copyright}
#
# Depends: what the two binaries link, as dpkg-shlibdeps maps each NEEDED library to the package that
# ships it (with the minimum version the symbols used need); Recommends: git (heal, proposals) and
# ca-certificates (HTTPS to OSV, GitHub). Owner root:root, modes normalised, every mtime that of the
# last commit (SOURCE_DATE_EPOCH, which dpkg-deb also uses for the archive members): the same tree
# gives the same bytes.
#
# usage: scripts/deb.sh RELEASE_BINARY DISTDIR   (the Makefile's `deb` target builds the binary first)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
binary="${1:?usage: deb.sh RELEASE_BINARY DISTDIR}"
distdir="${2:?usage: deb.sh RELEASE_BINARY DISTDIR}"
fail() { echo "deb: $*" >&2; exit 1; }

for tool in dpkg-deb dpkg-shlibdeps objcopy python3; do
    command -v "$tool" >/dev/null || fail "$tool missing: apt-get install dpkg-dev binutils python3"
done
[[ -x "$binary" ]] || fail "$binary: no release binary (make release)"
version="$("$binary" --version)"
[[ "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+ ]] || fail "$binary --version printed '$version'"
arch="$(dpkg --print-architecture)"
name="sentinel_${version}_$arch"
mkdir -p "$distdir"
distdir="$(cd "$distdir" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
stage="$work/$name"
export SOURCE_DATE_EPOCH="${SOURCE_DATE_EPOCH:-$(git -C "$root" log -1 --format=%ct 2>/dev/null || date +%s)}"

# 1. The installed tree, exactly as `make install PREFIX=/usr`.
cli="$(dirname "$(realpath "$binary")")/sentinel-cli"
[[ -x "$cli" ]] || fail "$cli: no release binary beside $binary (make release)"
make -C "$root" --no-print-directory -o release install DESTDIR="$stage" PREFIX=/usr RELEASE_BIN="$(realpath "$binary")" \
    RELEASE_CLI="$cli" >/dev/null
bin="$stage/usr/bin/sentinel"
binaries=("$bin" "$stage/usr/libexec/sentinel/sentinel-cli")
[[ -x "${binaries[1]}" && -d "$stage/usr/share/sentinel/rules" ]] || fail "make install left no tree in $stage"

# 2. Stripped (the tarball's .debug files carry the debug info), then what the binary says about
#    itself. Debian's zsh reads /usr/share/zsh/vendor-completions, not site-functions.
for shipped in "${binaries[@]}"; do objcopy --strip-all "$shipped"; done
"$root/scripts/stage-docs.sh" "$bin" "$stage/usr/share"
mkdir -p "$stage/usr/share/zsh/vendor-completions"
mv "$stage/usr/share/zsh/site-functions/_sentinel" "$stage/usr/share/zsh/vendor-completions/_sentinel"
rmdir "$stage/usr/share/zsh/site-functions"
year="$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y)"
cat >"$stage/usr/share/doc/sentinel/copyright" <<EOF
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: sentinel
Comment: The binaries link Swift's runtime and Foundation statically and contain other third-party
 software under its own terms: /usr/share/doc/sentinel/THIRD-PARTY-NOTICES.md lists each component,
 where it comes from and its licence; /usr/share/doc/sentinel/NOTICE is the project's notice.

Files: *
Copyright: $year The Sentinel authors
License: Apache-2.0

License: Apache-2.0
 Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 in compliance with the License. You may obtain a copy of the License at
 .
 http://www.apache.org/licenses/LICENSE-2.0
 .
 Unless required by applicable law or agreed to in writing, software distributed under the License
 is distributed on an "AS IS" BASIS, WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or
 implied. See the License for the specific language governing permissions and limitations under the
 License.
 .
 On Debian systems, the complete text of the Apache License, Version 2.0 can be found in
 "/usr/share/common-licenses/Apache-2.0".
EOF

# 3. Depends from what the binaries link: dpkg-shlibdeps reads a debian/control of its own.
mkdir -p "$work/shlibs/debian"
printf 'Source: sentinel\n\nPackage: sentinel\nArchitecture: any\n' >"$work/shlibs/debian/control"
depends="$(cd "$work/shlibs" && dpkg-shlibdeps -O "${binaries[@]}" 2>"$work/shlibdeps.log")" ||
    fail "dpkg-shlibdeps: $(cat "$work/shlibdeps.log")"
depends="${depends#shlibs:Depends=}"
[[ "$depends" == *libc6* ]] || fail "dpkg-shlibdeps printed no dependencies: '$depends'"
# libcurl and libpq are loaded on first use (dlopen), so no binary names them: named here, with
# the libcurl release that brought the option strings the client sets (CURLOPT_PROTOCOLS_STR).
depends="$depends, libcurl4 (>= 7.85.0), libpq5"

# 4. Normalised modes and times, the control files, the archive.
chmod -R u=rwX,go=rX "$stage"
chmod 0755 "${binaries[@]}"
find "$stage" -type f -printf '%P\n' | LC_ALL=C sort >"$work/files"
mkdir -p "$stage/DEBIAN"
(cd "$stage" && xargs -d '\n' md5sum <"$work/files" >DEBIAN/md5sums)
installed_size="$(du -sk --apparent-size --exclude=DEBIAN "$stage" | cut -f1)"
cat >"$stage/DEBIAN/control" <<EOF
Package: sentinel
Version: $version
Architecture: $arch
Maintainer: The Sentinel authors <sentinel@localhost>
Installed-Size: $installed_size
Depends: $depends
Recommends: ca-certificates, git
Section: utils
Priority: optional
Description: security toolkit: sandbox, SAST, SCA, DAST and self-healing fixes
 Sentinel scans Python projects (its own SAST rules, dependency advisories from OSV, optional
 Bandit, Semgrep and ZAP/Wapiti in its sandbox), runs untrusted commands in a namespace, seccomp
 and cgroup sandbox (sentinel sandbox run), and proposes verified fixes for what it finds.
 .
 /usr/bin/sentinel is a lean launcher; /usr/libexec/sentinel/sentinel-cli the full command line.
 Rules and sandbox profiles are in /usr/share/sentinel; the --help of every command in
 /usr/share/doc/sentinel/help.
EOF
chmod 0644 "$stage/DEBIAN/control" "$stage/DEBIAN/md5sums"
find "$stage" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
dpkg-deb --root-owner-group -Zxz --build "$stage" "$distdir/$name.deb" >/dev/null
echo "$distdir/$name.deb ($(du -h "$distdir/$name.deb" | cut -f1)); Depends: $depends"
