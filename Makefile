# DragDrop: the two commands are `make run` and `make test`.
# Both install what is missing (system packages through apt-get), then build.

SWIFT ?= $(shell command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)
# System packages the build and tests need: GTK 4 headers for the GTK backend, Xvfb and
# xdotool to drive real windows in tests, shared-mime-info for type conformance.
APT_PACKAGES ?= pkg-config libgtk-4-dev shared-mime-info xvfb xauth xdotool x11-utils imagemagick gtk-4-examples dbus-x11
SCENARIOS := $(wildcard Examples/scenarios/*.json)

.PHONY: all run test build deps bench format clean

all: build

deps:
	@test -x "$(SWIFT)" || { echo "error: the Swift toolchain was not found (looked for 'swift' on PATH and /opt/swift/usr/bin/swift)"; exit 1; }
	@missing=""; for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		echo "Installing:$$missing"; \
		SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing; \
	fi

build: deps
	$(SWIFT) build

# Until the showcase exists, `make run` replays every example scenario, prints its timeline
# and audits it against the HIG rules.
run: build
	@for f in $(SCENARIOS); do \
		echo "== $$f"; \
		"$$($(SWIFT) build --show-bin-path)/dragdrop" replay "$$f" || exit $$?; \
	done
	@"$$($(SWIFT) build --show-bin-path)/dragdrop" audit $(SCENARIOS)

test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build
	@"$$($(SWIFT) build --show-bin-path)/dragdrop" audit $(SCENARIOS)

# Benchmarks: their own package (Benchmarks/, release build), never part of `make test`.
# Prints one Markdown table on standard output (every figure beside a baseline measured in the
# same run; builds and progress go to standard error) and keeps it in Benchmarks/.build/results.md. The GTK baseline needs gtk4 and Xvfb (installed by deps);
# without them its rows say n/a. BENCH_FLAGS=--quick runs a short version for trying it out.
BENCH_FLAGS ?=
bench: deps
	@echo "Building the benchmarks (release)..." >&2
	@cd Benchmarks && $(SWIFT) build -c release --product dragdrop-bench >&2
	@cd Benchmarks && $(SWIFT) build -c release --product gtk-pick-bench >&2 \
		|| echo "The GTK baseline did not build: its rows will say n/a." >&2
	@cd Benchmarks && "$$($(SWIFT) build -c release --show-bin-path)/dragdrop-bench" --output .build/results.md $(BENCH_FLAGS)

format:
	$(SWIFT) format --in-place --recursive Sources Tests Package.swift

clean:
	rm -rf .build Benchmarks/.build
