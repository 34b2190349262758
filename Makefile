# DragDrop: the two commands are `make run` and `make test`.
# Both install what is missing (system packages through apt-get), then build.

SWIFT ?= $(shell command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)
# System packages the build and tests need: SQLite headers for GRDB (the showcase model), GTK 4
# headers for the GTK backend, Xvfb and xdotool to drive real windows in tests, shared-mime-info
# for type conformance.
APT_PACKAGES ?= pkg-config libsqlite3-dev libgtk-4-dev shared-mime-info xvfb xauth xdotool x11-utils imagemagick gtk-4-examples dbus-x11
SCENARIOS := $(wildcard Examples/scenarios/*.json)

.PHONY: all run test test-gtk build deps bench format clean

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

# One `swift test` runs the engine tests and the GTK tests together. The GTK tests start their
# own Xvfb on a free display and drive the fixture app (built here, with every product) with
# xdotool, so no DISPLAY is needed; without Xvfb they skip with a message.
test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build
	@"$$($(SWIFT) build --show-bin-path)/dragdrop" audit $(SCENARIOS)

# Only the GTK tests (real windows under Xvfb).
test-gtk: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --filter DragDropGTKTests

format:
	$(SWIFT) format --in-place --recursive Sources Tests Package.swift

clean:
	rm -rf .build
