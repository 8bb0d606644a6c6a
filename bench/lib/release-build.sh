# Sourced by bench scripts: builds products the way `make release` does (Makefile): the Swift
# runtime linked statically and no `$ORIGIN` runpath, into the release scratch directory.
#   release_build sentinel-cli sentinel ...
RELEASE_SCRATCH=.build-release-static
release_build() {
  local product
  for product in "$@"; do
    swift build -c release --scratch-path "$RELEASE_SCRATCH" -Xswiftc -static-stdlib --disable-local-rpath \
      --product "$product" >/dev/null
  done
}
