# Sentinel — build, test and demo. Every target installs what it needs first (idempotently),
# so `make demo` and `make test` work on a fresh Debian 12 machine with only Swift on it.

SWIFT       ?= swift
CONFIG      ?= debug
BIN          = .build/$(CONFIG)/sentinel
APT_PACKAGES = libseccomp-dev libcap-dev libjson-c-dev libcurl4-openssl-dev libsqlite3-dev zlib1g-dev \
               pkg-config curl python3 python3-venv bubblewrap hyperfine time chromium
VENV         = .venv
PIP_PACKAGES = jsonschema packaging cvss pyyaml
TOOLS_DIR   ?= /opt/sentinel-tools/venv

.PHONY: all deps apt-deps pip-deps tools build release test demo bench clean

all: build

deps: apt-deps pip-deps tools

# Install only the Debian packages that are absent; `apt-get update` only when one is.
apt-deps:
	@missing=""; for p in $(APT_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
	fi

# Python tools the tests use (schema validation) live in a project-local venv.
pip-deps:
	@[ -x $(VENV)/bin/python ] || python3 -m venv $(VENV)
	@for p in $(PIP_PACKAGES); do \
	  $(VENV)/bin/python -c "import importlib.metadata as m, sys; m.version(sys.argv[1])" $$p 2>/dev/null \
	    || $(VENV)/bin/pip install -q $$p; \
	done

# Bandit and Semgrep in a venv the sandbox profiles bind read-only (Debian's python3, so the
# interpreter resolves inside the sandbox).
tools: apt-deps
	@scripts/install-tools.sh $(TOOLS_DIR)

build: apt-deps
	$(SWIFT) build -c $(CONFIG)

test: deps
	$(SWIFT) build --build-tests
	PATH="$(abspath $(VENV))/bin:$$PATH" SENTINEL_VENV=$(abspath $(VENV)) $(SWIFT) test --skip-build

demo: deps build
	$(BIN) doctor
	$(BIN) sandbox run --profile minimal -- /bin/sh -c 'echo "hello from $$(hostname), uid $$(id -u)"; ls /'
	SENTINEL_HOME=$(abspath .sentinel) $(BIN) db import examples/osv
	@# The example project is vulnerable on purpose: exit status 1 (findings) is the expected result.
	SENTINEL_HOME=$(abspath .sentinel) $(BIN) scan examples; status=$$?; [ $$status -eq 1 ] || exit $$status

# The installed binary: Swift runtime linked statically (faster start, no runtime needed).
release: apt-deps
	$(SWIFT) build -c release --scratch-path .build-release-static -Xswiftc -static-stdlib --product sentinel
	@echo ".build-release-static/release/sentinel"

bench: deps
	bench/launch-overhead.sh

clean:
	rm -rf .build $(VENV)
