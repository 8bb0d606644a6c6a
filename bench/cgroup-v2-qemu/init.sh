#!/bin/sh
# PID 1 of the cgroup v2 guest (bench/cgroup-v2-qemu.sh): mounts what the checks need, with
# cgroup2 alone at /sys/fs/cgroup, runs /mnt/checks.sh from the payload disk, powers off.
PATH=/usr/sbin:/usr/bin:/sbin:/bin
export PATH
mountpoint -q /proc || mount -t proc proc /proc
mountpoint -q /sys || mount -t sysfs sysfs /sys
mountpoint -q /dev || mount -t devtmpfs devtmpfs /dev
mountpoint -q /sys/fs/cgroup || mount -t cgroup2 -o nsdelegate cgroup2 /sys/fs/cgroup
mountpoint -q /run || mount -t tmpfs -o mode=755 tmpfs /run
mountpoint -q /tmp || mount -t tmpfs -o mode=1777 tmpfs /tmp
modprobe overlay 2>/dev/null
mount -t ext4 /dev/vdb /mnt && /mnt/checks.sh >/dev/console 2>&1
sync
echo o >/proc/sysrq-trigger
sleep 10
