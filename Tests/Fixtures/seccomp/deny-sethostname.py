#!/usr/bin/env python3
"""Runs a program under a seccomp filter that answers sethostname(2) with EPERM, as podman's and
Docker's default profiles do for a container without CAP_SYS_ADMIN (OuterSeccompCLITests).

    deny-sethostname.py PROGRAM [ARG...]

libseccomp through ctypes: the filter is loaded into this process and kept across execv, so
PROGRAM and everything it starts run under it. Exit 2 when libseccomp cannot be loaded."""

import ctypes
import errno
import os
import sys

SCMP_ACT_ALLOW = 0x7FFF0000
SCMP_ACT_ERRNO_BASE = 0x00050000


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: deny-sethostname.py PROGRAM [ARG...]")
    try:
        seccomp = ctypes.CDLL("libseccomp.so.2", use_errno=True)
    except OSError as error:
        print(f"deny-sethostname.py: {error}", file=sys.stderr)
        sys.exit(2)
    seccomp.seccomp_init.restype = ctypes.c_void_p
    seccomp.seccomp_init.argtypes = [ctypes.c_uint32]
    seccomp.seccomp_syscall_resolve_name.argtypes = [ctypes.c_char_p]
    seccomp.seccomp_rule_add.argtypes = [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_int, ctypes.c_uint]
    seccomp.seccomp_load.argtypes = [ctypes.c_void_p]
    context = seccomp.seccomp_init(SCMP_ACT_ALLOW)
    number = seccomp.seccomp_syscall_resolve_name(b"sethostname")
    if not context or number < 0:
        sys.exit("deny-sethostname.py: libseccomp refused the filter")
    if seccomp.seccomp_rule_add(context, SCMP_ACT_ERRNO_BASE | errno.EPERM, number, 0) != 0:
        sys.exit("deny-sethostname.py: seccomp_rule_add failed")
    if seccomp.seccomp_load(context) != 0:
        sys.exit("deny-sethostname.py: seccomp_load failed")
    os.execv(sys.argv[1], sys.argv[1:])


main()
