#!/usr/bin/env bash
# The sandbox's cgroup v2 backend on a real v2 kernel: boots Debian's kernel under
# qemu-system-x86_64 with only the unified hierarchy mounted (controllers enabled), runs the
# limit checks as root inside the guest (memory + OOM report, socket buffers charged to
# memory.max, pids, cpu quota, group cleanup, a delegated subtree for a non-root launcher),
# prints a results table and powers the guest off. This host runs cgroup v1, so the Swift
# tests see v2 only through a fake cgroupfs; this is where the real kernel answers.
#
# Prerequisites (Debian 12, as root; the first run sets up, later runs reuse the cache):
#   apt-get install qemu-system-x86 debootstrap e2fsprogs   (qemu-system-x86_64, debootstrap, mkfs.ext4)
#   reach to a Debian mirror for the one-time debootstrap (DEBIAN_MIRROR, default deb.debian.org)
#   /dev/kvm for speed (-enable-kvm), used when a short boot shows it runs this kernel; else
#   TCG (software emulation, several times slower; QEMU_ACCEL=tcg forces it)
#   a release binary (`make release` -> .build-release-static/release/sentinel, built when
#   missing) and the probe (`swift build --product sentinel-probe` -> .build/debug, likewise)
#
# Usage: bench/cgroup-v2-qemu.sh           exit 0: every check passed, 1: a check failed,
#                                           2: the guest gave no results (see console.log)
# Environment: SENTINEL_QEMU_DIR (cache, default .build-qemu/, git-ignored), SENTINEL_BIN,
#   SENTINEL_PROBE (binaries to test), QEMU_TIMEOUT (seconds for the boot + checks, default
#   900), QEMU_MEMORY (MiB, default 2048), QEMU_ACCEL (kvm|tcg, default kvm when usable).
#
# Cache (rebuilt only when missing): root/ (debootstrap --variant=minbase bookworm with
# linux-image-amd64 and the binary's shared libraries), vmlinuz + initrd.img (from root/boot),
# root.img (ext4 of root/, booted read-only with snapshot=on so runs never change it). Each
# run makes payload.img: the binary, the probe, profiles/ and guest/checks.sh (mounted at /mnt).
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
out=${SENTINEL_QEMU_DIR:-$repo/.build-qemu}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
bin=${SENTINEL_BIN:-$repo/.build-release-static/release/sentinel}
probe=${SENTINEL_PROBE:-$repo/.build/debug/sentinel-probe}
vm_timeout=${QEMU_TIMEOUT:-900}
vm_memory=${QEMU_MEMORY:-2048}
packages=linux-image-amd64,kmod,libseccomp2,libjemalloc2,libcap2,libcurl4,libsqlite3-0,zlib1g,libssl3,libxml2,libicu72,libstdc++6

die() { echo "cgroup-v2-qemu: $*" >&2; exit 2; }
step() { echo "== $*" >&2; }

[ "$(id -u)" = 0 ] || die "run as root (debootstrap and mkfs.ext4 -d must keep root-owned files)"
for tool in qemu-system-x86_64 debootstrap mkfs.ext4 timeout; do
    command -v "$tool" >/dev/null || die "$tool missing: apt-get install qemu-system-x86 debootstrap e2fsprogs"
done
mkdir -p "$out"

# 1. The binaries under test.
if [ ! -x "$bin" ]; then
    step "building the release binary (make release)"
    make -C "$repo" release >&2
fi
if [ ! -x "$probe" ]; then
    step "building the probe"
    (cd "$repo" && swift build --product sentinel-probe >&2)
fi
[ -x "$bin" ] || die "$bin: not built"
[ -x "$probe" ] || die "$probe: not built"

# 2. The guest root, made once: minbase bookworm plus the kernel and the binary's libraries.
if [ ! -e "$out/root/.sentinel-complete" ]; then
    step "debootstrap bookworm into $out/root (one time, several minutes)"
    rm -rf "$out/root.tmp" "$out/root"
    timeout 3600 debootstrap --variant=minbase --include="$packages" bookworm "$out/root.tmp" "$mirror" >"$out/debootstrap.log" 2>&1 ||
        die "debootstrap failed: see $out/debootstrap.log"
    touch "$out/root.tmp/.sentinel-complete"
    mv "$out/root.tmp" "$out/root"
fi
root=$out/root

# Every shared library the binaries load must be in the guest: install what is missing
# (the packages that own them on this host, which runs the same release).
missing=()
for library in $(ldd "$bin" "$probe" | awk '$2 == "=>" && $3 ~ /^\// {print $3}' | sort -u); do
    real=$(readlink -f "$library")
    [ -e "$root$library" ] || [ -e "$root$real" ] && continue
    owner=$( (dpkg -S "$library" || dpkg -S "$real") 2>/dev/null | head -1 | cut -d: -f1)
    [ -n "$owner" ] || die "$library: not in the guest root and no Debian package owns it (a static build is expected)"
    missing+=("$owner")
done
if [ ${#missing[@]} -gt 0 ]; then
    step "adding to the guest root: ${missing[*]}"
    chroot "$root" apt-get install -y --no-install-recommends "${missing[@]}" >&2
    rm -f "$out/root.img"
fi

# 3. The guest's init: mounts the unified hierarchy alone and hands over to the checks.
init_text=$(cat "$repo/bench/cgroup-v2-qemu/init.sh")
if [ "$(cat "$root/sbin/sentinel-qemu-init" 2>/dev/null)" != "$init_text" ]; then
    printf '%s\n' "$init_text" >"$root/sbin/sentinel-qemu-init"
    chmod 755 "$root/sbin/sentinel-qemu-init"
    rm -f "$out/root.img"
fi

# 4. Kernel, initrd (Debian's, with the virtio and ext4 modules) and the root image.
kernel=$(ls "$root"/boot/vmlinuz-* | sort -V | tail -1)
initrd=$(ls "$root"/boot/initrd.img-* | sort -V | tail -1)
if [ ! -s "$out/root.img" ]; then
    step "making root.img from $root"
    size=$(($(du -sm "$root" | cut -f1) * 5 / 4 + 256))
    rm -f "$out/root.img.tmp"
    mkfs.ext4 -q -F -L sentinel-root -d "$root" "$out/root.img.tmp" "${size}M" >/dev/null
    mv "$out/root.img.tmp" "$out/root.img"
fi

# 5. This run's payload: binary, probe, profiles and the checks.
payload=$out/payload
rm -rf "$payload" "$out/payload.img"
mkdir -p "$payload"
cp "$bin" "$payload/sentinel"
cp "$probe" "$payload/sentinel-probe"
cp -r "$repo/profiles" "$payload/profiles"
cp "$repo/bench/cgroup-v2-qemu/checks.sh" "$payload/checks.sh"
chmod 755 "$payload/sentinel" "$payload/sentinel-probe" "$payload/checks.sh"
mkfs.ext4 -q -F -L sentinel-payload -d "$payload" "$out/payload.img" \
    "$(($(du -sm "$payload" | cut -f1) + 64))M" >/dev/null

# 6. Boot. KVM when it can run this kernel, else TCG (software; slower, the same kernel).
# /dev/kvm alone proves little: a nested host may offer a KVM that runs only kernels built
# for it (kvm_pvm, say), where Debian's hangs before its first line. So a kernel-only boot
# must print its banner within 30 s; the verdict is cached per kernel.
accel=${QEMU_ACCEL:-}
verdict=$out/accel-$(basename "$kernel")
if [ -z "$accel" ] && [ -s "$verdict" ]; then accel=$(cat "$verdict"); fi
if [ -z "$accel" ]; then
    accel=tcg
    if [ -w /dev/kvm ]; then
        step "checking that KVM runs $(basename "$kernel")"
        timeout 30 qemu-system-x86_64 -enable-kvm -cpu host -m 256 -nodefaults -no-reboot -display none \
            -monitor none -serial "file:$out/kvm-check.log" -kernel "$kernel" -append "console=ttyS0 panic=-1" \
            >"$out/kvm-check.err" 2>&1 || true
        if grep -q 'Linux version' "$out/kvm-check.log" 2>/dev/null; then accel=kvm
        else echo "cgroup-v2-qemu: KVM does not run this kernel here (see $out/kvm-check.*): using TCG" >&2; fi
    fi
    echo "$accel" >"$verdict"
fi
if [ "$accel" = kvm ]; then accel_flags=(-enable-kvm -cpu host); else accel_flags=(-accel tcg -cpu max); fi
console=$out/console.log
step "booting $(basename "$kernel") ($accel, ${vm_memory} MiB, 2 vCPUs; timeout ${vm_timeout}s; log $console)"
started=$(date +%s)
status=0
timeout --kill-after=10 "$vm_timeout" qemu-system-x86_64 "${accel_flags[@]}" -m "$vm_memory" -smp 2 \
    -nodefaults -no-reboot -display none -monitor none -serial "file:$console" \
    -kernel "$kernel" -initrd "$initrd" \
    -append "console=ttyS0 root=/dev/vda ro rootfstype=ext4 init=/sbin/sentinel-qemu-init panic=-1 loglevel=3 systemd.unified_cgroup_hierarchy=1 cgroup_no_v1=all" \
    -drive "file=$out/root.img,format=raw,if=virtio,snapshot=on" \
    -drive "file=$out/payload.img,format=raw,if=virtio" || status=$?
elapsed=$(($(date +%s) - started))
[ "$status" = 124 ] && echo "cgroup-v2-qemu: the guest did not power off within ${vm_timeout}s" >&2

# 7. The results table, from the RESULT lines the guest printed on its console.
tr -d '\r' <"$console" >"$out/console.txt"
results=$(grep '^RESULT|' "$out/console.txt" || true)
[ -n "$results" ] || die "no results from the guest (qemu exit $status): see $console"
echo
grep '^INFO|' "$out/console.txt" | cut -d'|' -f2- | sed 's/|/: /' || true
echo
printf '%-34s %-5s %s\n' check result detail
printf '%-34s %-5s %s\n' ----- ------ ------
echo "$results" | while IFS='|' read -r _ name verdict detail; do
    printf '%-34s %-5s %s\n' "$name" "$verdict" "$detail"
done
passed=$(echo "$results" | grep -c '|PASS|' || true)
failed=$(echo "$results" | grep -c '|FAIL|' || true)
echo
echo "$passed passed, $failed failed (guest ${elapsed}s, $accel)"
grep -q '^DONE$' "$out/console.txt" || { echo "cgroup-v2-qemu: the checks did not finish: see $console" >&2; exit 2; }
[ "$failed" = 0 ]
