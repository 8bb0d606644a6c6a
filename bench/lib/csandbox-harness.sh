# Sourced by bench scripts that drive the launcher's C code (Sources/CSandbox) from a C harness.
# Needs gcc and libseccomp-dev.

# csandbox_harness OUTPUT CSANDBOX_DIR HARNESS.c
#   Builds HARNESS.c against CSANDBOX_DIR's headers and seccomp sources (this tree's, or an older
#   commit's copy; bench/seccomp-overhead.sh leaves an older OCI loader out).
csandbox_harness() {
  gcc -O2 -Wall -D_GNU_SOURCE -I "$2/include" -I "$2" "$3" "$2"/seccomp*.c -o "$1" -lseccomp
}
