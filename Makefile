# Sentinel — build, test, demo and install. Every target installs what it needs first (idempotently),
# so `make demo` and `make test` work on a fresh Debian 12 machine with only Swift on it.
# `make demo` and `make install` use the release binary (what users run); `make test` the debug build.

SWIFT       ?= swift
CONFIG      ?= debug
BIN          = .build/$(CONFIG)/sentinel
RELEASE_DIR  = .build-release-static
RELEASE_BIN  = $(RELEASE_DIR)/release/sentinel
RELEASE_CLI  = $(RELEASE_DIR)/release/sentinel-cli
PREFIX      ?= /usr/local
DESTDIR     ?=
# Debian packages, by what needs them (`make demo` installs BUILD+DEMO, `make test` BUILD+TEST,
# `make bench` BUILD+BENCH): only the missing ones, `apt-get update` only when one is.
# BUILD: `swift build` and `make release` (the C libraries' headers and pkg-config files).
BUILD_PACKAGES = libseccomp-dev libcurl4-openssl-dev libsqlite3-dev zlib1g-dev libssl-dev libjemalloc-dev \
                 libpq-dev pkg-config git python3
# PACKAGE: `make dist` and `make deb` (objcopy strips; dpkg-shlibdeps computes the .deb's Depends);
# IMAGE: `make image` (a debootstrap root imported as the base, podman build with runc).
PACKAGE_PACKAGES = binutils dpkg-dev
IMAGE_PACKAGES   = debootstrap podman buildah runc
# DEMO: git for the heal/proposal repository, pytest for the logic-bug repair, venv/pip/gcc/python3-dev
# for `make tools` (Bandit, Semgrep, Wapiti).
DEMO_PACKAGES  = python3-venv python3-pip python3-pytest gcc python3-dev
# TEST: what the suites run or serve: HTML reports in Chromium, Flask (and psycopg2) for the applications
# `scan --prove` is tested against, PostgreSQL for the fleet queue, debootstrap for the clean Debian roots and
# podman/buildah/runc for the image (PACKAGE, IMAGE), dpkg-dev for the .deb, bubblewrap and hyperfine
# for the sandbox comparisons, /usr/bin/time, curl.
TEST_PACKAGES  = $(DEMO_PACKAGES) $(PACKAGE_PACKAGES) $(IMAGE_PACKAGES) python3-yaml python3-jinja2 python3-requests python3-flask python3-psycopg2 curl \
                 bubblewrap hyperfine time chromium postgresql-15
# BENCH: the bench/ scripts (hyperfine, /usr/bin/time, bwrap as a baseline, curl, PostgreSQL for the fleet).
BENCH_PACKAGES = $(DEMO_PACKAGES) hyperfine time bubblewrap curl postgresql-15
VENV         = .venv
# Pinned, like the scanners in scripts/install-tools.sh: a new release of one cannot change a test.
PIP_PACKAGES = jsonschema==4.26.0 packaging==26.4 cvss==3.6 pyyaml==6.0.4 pyte==0.8.2
# Taken for its programs alone (no Python side, so without its dependencies): pgserver's wheel ships
# PostgreSQL 16 with pgvector built, which the vector-memory test runs (Debian 12 packages no pgvector,
# PGDG's packages are not reachable here; PostgresServer.pgvectorBinaries finds it in the venv).
PIP_PROGRAM_PACKAGES = pgserver==0.1.4
# The bench scripts' own venv: the fleet's peer in bench/fleet-peer.py (procrastinate, a PostgreSQL job
# queue), tree-sitter for bench/js-parse-parity.py, Semgrep for bench/sast-js.py (the version of
# js-vuln-dev's stored results and of scripts/install-tools.sh).
BENCH_VENV        = .venv-bench
BENCH_PIP_PACKAGES = procrastinate==3.10.0 psycopg[binary]==3.3.9 \
                     tree-sitter==0.26.1 tree-sitter-javascript==0.25.0 tree-sitter-typescript==0.23.2 \
                     semgrep==1.185.0
TOOLS_DIR   ?= /opt/sentinel-tools/venv
DISTDIR     ?= dist

.PHONY: rules-index all deps apt-deps demo-apt-deps test-apt-deps bench-apt-deps pip-deps tools build release install uninstall dist deb \
        image check-install check test test-unit demo bench bench-pip-deps clean

all: build

deps: test-apt-deps pip-deps tools

# pip_install(VENV, PACKAGES, FLAGS): pip-install into VENV each pinned `name==version` (extras
# allowed: `psycopg[binary]==3.3.9`) whose installed version differs, with FLAGS (`--no-deps`).
define pip_install
@for p in $(2); do \
  $(1)/bin/python -c "import importlib.metadata as m, sys; n, v = sys.argv[1].split('=='); sys.exit(m.version(n.split('[')[0]) != v)" "$$p" 2>/dev/null \
    || $(1)/bin/pip install -q $(3) "$$p"; \
done
endef

# apt_install(PACKAGES): install only the Debian packages that are absent; `apt-get update` only when one is.
define apt_install
@missing=""; for p in $(1); do \
  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
done; \
if [ -n "$$missing" ]; then \
  echo "installing:$$missing"; \
  SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
fi
endef

apt-deps:
	$(call apt_install,$(BUILD_PACKAGES))
demo-apt-deps:
	$(call apt_install,$(BUILD_PACKAGES) $(DEMO_PACKAGES))
test-apt-deps:
	$(call apt_install,$(BUILD_PACKAGES) $(TEST_PACKAGES))
bench-apt-deps:
	$(call apt_install,$(BUILD_PACKAGES) $(BENCH_PACKAGES))

# Python tools the tests use (schema validation) live in a project-local venv.
pip-deps:
	@[ -x $(VENV)/bin/python ] || python3 -m venv $(VENV)
	$(call pip_install,$(VENV),$(PIP_PACKAGES),)
	$(call pip_install,$(VENV),$(PIP_PROGRAM_PACKAGES),--no-deps)

bench-pip-deps:
	@[ -x $(BENCH_VENV)/bin/python ] || python3 -m venv $(BENCH_VENV)
	$(call pip_install,$(BENCH_VENV),$(BENCH_PIP_PACKAGES),)

# Bandit and Semgrep in a venv the sandbox profiles bind read-only (Debian's python3, so the
# interpreter resolves inside the sandbox); Wapiti in its own venv beside it (gcc and
# python3-dev build the C extension one of its dependencies ships only as source).
tools: demo-apt-deps
	@scripts/install-tools.sh $(TOOLS_DIR)

build: apt-deps
	$(SWIFT) build -c $(CONFIG)

# One `swift test` per test target (scripts/run-tests.sh), each timed.
# The tarball and the .deb first: DistributionCLITests installs the one, DebPackageCLITests and
# ContainerImageCLITests (which builds the image with scripts/container.sh) the other.
test: test-apt-deps pip-deps tools dist deb
	$(SWIFT) build --build-tests
	PATH="$(abspath $(VENV))/bin:$$PATH" SENTINEL_VENV=$(abspath $(VENV)) SWIFT=$(SWIFT) scripts/run-tests.sh

# The fast tier, for the edit-build-test loop: every test that starts no sandbox, no binary and no
# server (those are marked `.integration`, or need `TestHost.canSandbox`/`PostgresServer`, and skip;
# the CLI and escape suites run whole binaries and sandboxes and are left out).
# A few minutes on this project's 2-core machines; `make test` runs everything, as CI does.
test-unit: apt-deps pip-deps
	$(SWIFT) build --build-tests
	SENTINEL_TEST_TIER=unit SKIP='CLITests|EscapeTests' PATH="$(abspath $(VENV))/bin:$$PATH" \
	  SENTINEL_VENV=$(abspath $(VENV)) SWIFT=$(SWIFT) scripts/run-tests.sh

# The release binary, as installed: the debug build is ~8x slower on real projects.
DEMO := .build/demo
demo: demo-apt-deps tools release
	@# The demo's own state and scratch files, under .build (ignored by git), never ./.sentinel.
	mkdir -p $(DEMO)
	$(RELEASE_BIN) doctor
	$(RELEASE_BIN) sandbox run --profile minimal -- /bin/sh -c 'echo "hello from $$(hostname), uid $$(id -u)"; ls /'
	SENTINEL_HOME=$(abspath $(DEMO)) $(RELEASE_BIN) db import examples/osv
	@# The example project is vulnerable on purpose: exit status 1 (findings) is the expected result.
	@# Its advisories were last modified in 2024: without --allow-stale-db the scan fails (exit 3).
	SENTINEL_HOME=$(abspath $(DEMO)) $(RELEASE_BIN) scan examples --allow-stale-db; status=$$?; [ $$status -eq 1 ] || exit $$status
	@# Scan -> heal -> proposal -> approval, on a git copy of the example project (its own state, so
	@# every run starts afresh): the disabled TLS check gets its rule's fix, verified in the sandbox,
	@# proposed for review (the copy is untouched), then approved into a commit on a new branch.
	rm -rf $(DEMO)/demo-repo $(DEMO)/demo-autonomy && mkdir -p $(DEMO)/demo-repo
	cp examples/app.py examples/settings.py examples/requirements.txt examples/README.md $(DEMO)/demo-repo/
	git -C $(DEMO)/demo-repo init -q -b main && git -C $(DEMO)/demo-repo add -A && \
	  git -C $(DEMO)/demo-repo -c user.name=demo -c user.email=demo@localhost commit -qm "example project"
	SENTINEL_HOME=$(abspath $(DEMO)/demo-autonomy) $(RELEASE_BIN) scan $(DEMO)/demo-repo --format sarif \
	  --output $(DEMO)/demo.sarif --fail-on none --allow-missing-db
	SENTINEL_HOME=$(abspath $(DEMO)/demo-autonomy) $(RELEASE_BIN) heal --signal $(DEMO)/demo.sarif \
	  --finding python.requests-verify-false --repo $(DEMO)/demo-repo --verify "python3 -m py_compile app.py settings.py" \
	  --level proposer --out $(DEMO)/demo-heal-finding
	SENTINEL_HOME=$(abspath $(DEMO)/demo-autonomy) $(RELEASE_BIN) proposals list
	id=$$(SENTINEL_HOME=$(abspath $(DEMO)/demo-autonomy) $(RELEASE_BIN) proposals list | cut -d' ' -f1) && \
	  SENTINEL_HOME=$(abspath $(DEMO)/demo-autonomy) $(RELEASE_BIN) proposals show $$id | sed -n '1,/^## How to revert/p' && \
	  SENTINEL_HOME=$(abspath $(DEMO)/demo-autonomy) $(RELEASE_BIN) proposals approve $$id
	git -C $(DEMO)/demo-repo log --oneline --all
	SENTINEL_HOME=$(abspath $(DEMO)/demo-autonomy) $(RELEASE_BIN) audit verify
	@# ...and a one-line logic bug is repaired from pytest's output (fault localisation + repair templates).
	cd Tests/Fixtures/heal/logic-binary-search && PYTHONDONTWRITEBYTECODE=1 /usr/bin/python3 -m pytest -q -p no:cacheprovider \
	  > $(abspath $(DEMO))/demo-pytest.txt; [ $$? -eq 1 ]
	SENTINEL_HOME=$(abspath $(DEMO)) $(RELEASE_BIN) heal --signal $(DEMO)/demo-pytest.txt \
	  --repo Tests/Fixtures/heal/logic-binary-search --verify "python3 -m pytest -q" --out $(DEMO)/demo-heal-logic
	cat $(DEMO)/demo-heal-logic/patch.diff

# The installed binaries: Swift runtime linked statically (faster start, no runtime needed).
# `sentinel` is the lean launcher; `sentinel-cli` the full command line it hands the rest to.
# No `$$ORIGIN` runpath: neither binary has a shared library of its own, and the loader searched the
# binary's directory and its 12 hwcaps subdirectories (24 failed calls) before finding libm.
release: apt-deps
	$(SWIFT) build -c release --scratch-path $(RELEASE_DIR) -Xswiftc -static-stdlib --disable-local-rpath --product sentinel-cli
	$(SWIFT) build -c release --scratch-path $(RELEASE_DIR) -Xswiftc -static-stdlib --disable-local-rpath --product sentinel
	@# The rules as this build reads them (rules/compiled-BUILDID.pack, git-ignored), as an install
	@# compiles .pyc files: scans take the rules' documents and pattern trees from it (RulePack).
	$(RELEASE_CLI) rules compile rules || echo "warning: no rule pack written; scans read the rules' YAML (slower, not different)"
	@echo "$(RELEASE_BIN) (runs sandbox run itself, every other command through $(RELEASE_CLI))"

# $(DESTDIR)$(PREFIX)/bin/sentinel, $(DESTDIR)$(PREFIX)/libexec/sentinel/sentinel-cli and
# $(DESTDIR)$(PREFIX)/share/sentinel/{rules,profiles}. The binaries look for their data in
# <prefix>/share/sentinel first, so the tree may be moved as a whole.
# The data directories are replaced, not merged: a rule removed upstream does not linger.
install: release
	install -d "$(DESTDIR)$(PREFIX)/bin" "$(DESTDIR)$(PREFIX)/libexec/sentinel" "$(DESTDIR)$(PREFIX)/share/sentinel"
	install -m 0755 $(RELEASE_BIN) "$(DESTDIR)$(PREFIX)/bin/sentinel"
	install -m 0755 $(RELEASE_CLI) "$(DESTDIR)$(PREFIX)/libexec/sentinel/sentinel-cli"
	rm -rf "$(DESTDIR)$(PREFIX)/share/sentinel/rules" "$(DESTDIR)$(PREFIX)/share/sentinel/profiles"
	cp -R rules profiles "$(DESTDIR)$(PREFIX)/share/sentinel/"
	@# Only the installed build's rule pack: other builds' (kept beside the rules here) are of no use.
	rm -f "$(DESTDIR)$(PREFIX)/share/sentinel/rules/"compiled-*.pack
	$(RELEASE_CLI) rules compile "$(DESTDIR)$(PREFIX)/share/sentinel/rules" \
	  || echo "warning: no rule pack written; scans read the rules' YAML (slower, not different)"
	chmod -R u=rwX,go=rX "$(DESTDIR)$(PREFIX)/share/sentinel"
	@echo "installed $(DESTDIR)$(PREFIX)/bin/sentinel, $(DESTDIR)$(PREFIX)/libexec/sentinel/sentinel-cli and $(DESTDIR)$(PREFIX)/share/sentinel/{rules,profiles}"

# $(DISTDIR)/sentinel-VERSION-linux-ARCH.tar.gz (+ .sha256, + .debug): `make install` into a staging
# tree, stripped, with completions, --help texts and checksums; unpacks with `tar -x` anywhere
# (layout in scripts/dist.sh and README's Install section).
dist: release
	$(call apt_install,$(PACKAGE_PACKAGES))
	scripts/dist.sh $(RELEASE_BIN) $(DISTDIR)

# $(DISTDIR)/sentinel_VERSION_ARCH.deb: the same `make install` (PREFIX=/usr) staged, stripped, with
# completions, --help texts, a Debian copyright file and Depends from what the binaries link
# (dpkg-shlibdeps); `apt-get install ./dist/sentinel_*.deb` installs it (layout in scripts/deb.sh).
deb: release
	$(call apt_install,$(PACKAGE_PACKAGES))
	scripts/deb.sh $(RELEASE_BIN) $(DISTDIR)

# localhost/sentinel:VERSION with podman, no registry needed: the Containerfile installs the .deb
# into a base image imported from a debootstrap root (scripts/container.sh). DISTDIR must be dist/,
# the Containerfile's build context.
image: deb
	$(call apt_install,$(IMAGE_PACKAGES))
	scripts/container.sh $(DISTDIR)/sentinel_$$($(RELEASE_BIN) --version)_$$(dpkg --print-architecture).deb

uninstall:
	rm -f "$(DESTDIR)$(PREFIX)/bin/sentinel" "$(DESTDIR)$(PREFIX)/libexec/sentinel/sentinel-cli"
	rmdir "$(DESTDIR)$(PREFIX)/libexec/sentinel" 2>/dev/null || true
	rm -rf "$(DESTDIR)$(PREFIX)/share/sentinel"

# A real `make install` into a temporary DESTDIR, moved elsewhere and run from there.
check-install:
	scripts/check-install.sh

# Architecture (imports follow DESIGN §1's layer table) and style; .ci/run calls it after the tests.
# rules/index.json, the compiled-rule index a scan uses to leave unread the rules its tree cannot
# match: regenerate it after editing a rule (RuleIndexTests fails while it is stale).
rules-index: build
	.build/$(CONFIG)/sentinel-cli rules index rules

check:
	python3 scripts/check-architecture.py
	$(SWIFT) format lint --strict --recursive Sources Tests bench/Sources Package.swift
	@echo "style: swift format lint --strict clean (/// on every public symbol)"

bench: bench-apt-deps pip-deps tools
	bench/launch-overhead.sh

clean:
	rm -rf .build $(RELEASE_DIR) $(VENV) dist
