# DragDrop: the two commands are `make run` and `make test`.
# `make tour` plays the showcase's situations with real pointer events and saves screenshots.
# Both install what is missing (system packages through apt-get), then build.
# Two packages: the libraries at the root (DragDrop, DragDropTesting, DragDropGTK, their tests,
# the GTK fixture, Examples/FirstApp's app) and the apps in Apps/ (the showcase and its model on
# GRDB, the tour, the `dragdrop` tool on swift-argument-parser, their tests), which depends on the
# root by path. Each has its own .build/, so the libraries compile once in each.

SWIFT ?= $(shell command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)
# System packages the build and tests need: SQLite headers for GRDB (the showcase model), GTK 4
# headers for the GTK backend, ICU's for its word selection (Japanese words, L4), Xvfb and
# xdotool to drive real windows in tests, shared-mime-info
# for type conformance, gtk4-demo and xclip as other apps the tests drag to and paste from; the
# interop tests' other apps (Qt 5's examples, gtk3-demo) and a screen reader's view for them and
# the accessibility tests (dbus-run-session, the AT-SPI bus, pyatspi for the system Python);
# chromium as a real browser to drag photos, links, text and files to and from (BrowserTests,
# showcase-tour --browser), libcurl4 for Foundation's URLSession (downloading dropped web
# addresses); weston, the Wayland compositor the Wayland runs nest in Xvfb; the desktop's
# everyday apps at the other end of a drag (InteropFileManagersTests, InteropOfficeTests,
# BrowserTests, FirefoxTests): Thunar, Nautilus, GNOME Text Editor, Engrampa (an archive manager that
# saves through XDS), LibreOffice Writer with its GTK 3 plug-in, Chromium and Firefox; the file
# transfer portal (xdg-desktop-portal's xdg-document-portal, on FUSE) and bubblewrap, to run a
# sandboxed app it serves; gettext's msgfmt, which the language tests compare our catalog
# compiler with (SandboxedAppTests, LocalizationTests; GTK 4 apps with a session bus, as in the
# screen-reader tests, start the portals themselves, which changes nothing they are tested on);
# IBus with its Hangul engine and GTK 4's IBus module, a real input method composing Korean
# while text is dropped (KoreanInputMethodTests).
APT_PACKAGES ?= pkg-config libsqlite3-dev libgtk-4-dev libicu-dev shared-mime-info xvfb xauth xdotool x11-utils imagemagick gtk-4-examples dbus-x11 xclip \
	qtbase5-examples gtk-3-examples dbus-daemon at-spi2-core python3-pyatspi chromium libcurl4 weston \
	thunar nautilus gnome-text-editor engrampa libreoffice-writer libreoffice-gtk3 firefox-esr \
	xdg-desktop-portal bubblewrap fuse3 gettext fonts-noto-cjk orca openbox ibus ibus-gtk4 ibus-hangul
SCENARIOS := $(wildcard Examples/scenarios/*.json Examples/scenarios/regressions/*.json)

.PHONY: all run tour replay test test-gtk test-wayland build deps docs bench soak fuzz format clean

all: build

deps:
	@test -x "$(SWIFT)" || { echo "error: the Swift toolchain was not found (looked for 'swift' on PATH and /opt/swift/usr/bin/swift)"; exit 1; }
	@missing=""; for p in $(APT_PACKAGES); do dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		echo "Installing:$$missing"; \
		SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing; \
	fi

APPS := $(SWIFT) build --package-path Apps
APPS_TEST := $(SWIFT) test --package-path Apps
# The test bundles, run without `swift test`: two `swift test` runs of one package wait for each
# other (SwiftPM locks its .build folder), so the GTK suites that run side by side in `make test`
# run the bundles `swift build --build-tests` made, with Swift Testing's own options.
ROOT_BUNDLE = NO_COLOR=1 "$$($(SWIFT) build --show-bin-path)/DragDropPackageTests.xctest" --testing-library swift-testing
APPS_BUNDLE = NO_COLOR=1 "$$($(APPS) --show-bin-path)/DragDropAppsPackageTests.xctest" --testing-library swift-testing

build: deps
	$(SWIFT) build
	$(APPS)

# The apps' executables (showcase, showcase-tour, dragdrop).
BIN = $$($(APPS) --show-bin-path)
TOUR_FLAGS ?=

# With a display, `make run` opens the showcase app (data in ~/.local/share/DragDropShowcase) and,
# in the background, its Web Page window (`showcase --role page`, situation 3), ended with it.
# Without one, it plays the tour under a private Xvfb and prints the screenshots' paths.
run: build
	@if [ -n "$$DISPLAY" ]; then \
		echo "Opening the showcase and its Web Page window (situation 3) on $$DISPLAY (make tour plays every situation by itself)"; \
		"$(BIN)/showcase" --role page & page=$$!; \
		"$(BIN)/showcase"; status=$$?; kill $$page 2>/dev/null; exit $$status; \
	else \
		echo "No DISPLAY: playing the showcase tour under a private Xvfb"; \
		"$(BIN)/showcase-tour" --out tour $(TOUR_FLAGS); \
	fi

# The tour: launches `showcase --tour` on a fresh data directory (on $$DISPLAY if set, else a
# private Xvfb; TOUR_FLAGS=--private-display forces Xvfb, TOUR_FLAGS=--wayland runs the showcase
# on weston nested in a private Xvfb), plays each implemented situation
# with xdotool, checks the app's state and its SQLite store, writes tour/NN-name.png, and
# prints one verdict line per situation. Fails if a played situation fails.
tour: build
	@"$(BIN)/showcase-tour" --out tour $(TOUR_FLAGS)

# Replays every example scenario through the engine, prints its timeline and audits it against
# the HIG rules (what `make run` did before the showcase existed).
replay: build
	@for f in $(SCENARIOS); do \
		echo "== $$f"; \
		"$(BIN)/dragdrop" replay "$$f" || exit $$?; \
	done
	@"$(BIN)/dragdrop" audit $(SCENARIOS)

# One `swift test` per package runs its tests (the root's: engine and GTK; Apps/: the model, the
# tool and the showcase). The GTK tests start their
# own Xvfb on a free display and drive the fixture app (built here, with every product) with
# xdotool, so no DISPLAY is needed; without Xvfb they skip with a message.
# Engine, transfer, model and scenario tests run in parallel; the GTK tests (each starts its
# own Xvfb and a real GTK app, and some check what is on screen within a fraction of a second)
# then run one at a time, so two cores are never shared by a dozen windows.
GTK_TESTS := DragDropGTKTests|ShowcaseTests
# Then a representative set of them again on Wayland (DRAGDROP_DISPLAY_BACKEND=wayland: weston
# with its desktop shell, nested in Xvfb, driven by xdotool on the Xvfb): drags in one window,
# between two windows and two processes (ours and gtk4-demo), the keyboard right after a drop,
# outlines, placeholders, spring loading, autoscroll, confirmation, undo, screen readers, text views and
# fields (text in every script too, L4; a drop during a dead key's composition is X11 only), the HIG check of the controls, and the twelve situations of the tour. See docs/wayland.md for what runs on X11 only and why.
WAYLAND_TESTS := ShowcaseRemindersTests|ListDragTests|OutlineViewTests|ValueWidgetTests|KeyboardAfterDragTests|TwoWindowsTests|OtherAppsTests|GridPlaceholderTests|VisualFeedbackTests/(placeholdersWithProgress|springLoadedButton|autoscrollFollowsThePointer|confirmationSheet)|ShowcaseFilesTests|ShowcaseKeyboardTests/keyboardDragMovesAReminder|ScreenReaderTests|TextWidgetTests|ScriptTextTests|ScriptWordsTests|ControlsHIGCheckTests|ShowcaseControlsTests|ShowcaseTourTests|DragExportTests|HostileAppTests/(dragThatLeavesTheWindow|webImageIntoFiles)|InteropFileManagersTests|InteropOfficeTests|InteropTextEditorTests|FirefoxTests|SandboxedAppTests|BrowserTests/(photoFromChromiumIntoMessage|linkAndStyledTextFromChromiumIntoNotes|photoFromChromiumWithItsServerGoneIntoFiles|filesTextDrawingAndPhotoIntoChromium)

# Each filter runs in both packages (a package without a matching test runs none).
# It also checks that Examples/FirstApp (the DocC guide's app, built above as the FirstApp
# product and driven by FirstAppTests) is a valid package on its own, and builds the docs.
# Tools/test-steps.sh runs every step even when one fails (a test run needs its package's build),
# keeps each step's output in .build/test-logs/ and ends with one summary: each step's verdict,
# tests, suites and seconds, and every failing test by name. It fails if any step failed.
# The GTK suites run in two lanes side by side, each test on private displays: they mostly
# wait for windows and pointers. The lanes are balanced by time (fresh run of 2026-11-29: the
# showcase on X11 852 s; the library on Wayland 237 s, the showcase on Wayland 474 s and the
# library on X11 388 s), so the longest lane is about 1,100 s, not 1,240.
# The tests expect the library's English sentences whatever language the machine speaks
# (LANGUAGE outranks LANG; the language tests choose their languages themselves).
test test-gtk test-wayland: export LANGUAGE := en
test: deps
	@Tools/test-steps.sh \
		build '$(SWIFT) build --build-tests' \
		build-apps '$(APPS) --build-tests' \
		first-app '$(SWIFT) package --package-path Examples/FirstApp describe >/dev/null' \
		docs '$(MAKE) --no-print-directory docs' \
		engine:needs=build '$(SWIFT) test --skip-build --skip "$(GTK_TESTS)"' \
		model:needs=build-apps '$(APPS_TEST) --skip-build --skip "$(GTK_TESTS)"' \
		showcase-x11:needs=build-apps:lane=first '$(APPS_BUNDLE) --filter "$(GTK_TESTS)" --no-parallel' \
		gtk-wayland:needs=build:lane=second 'DRAGDROP_DISPLAY_BACKEND=wayland $(ROOT_BUNDLE) --filter "$(WAYLAND_TESTS)" --no-parallel' \
		showcase-wayland:needs=build-apps:lane=second 'DRAGDROP_DISPLAY_BACKEND=wayland $(APPS_BUNDLE) --filter "$(WAYLAND_TESTS)" --no-parallel' \
		gtk-x11:needs=build:lane=second '$(ROOT_BUNDLE) --filter "$(GTK_TESTS)" --no-parallel' \
		audit:needs=build-apps '"$(BIN)/dragdrop" audit $(SCENARIOS)'

# The DocC catalogs of DragDrop and DragDropGTK (Sources/*/*.docc) built with the toolchain's
# docc, warnings as errors: symbol graphs from the debug build (`swift package dump-symbol-graph`,
# about 10 s once built), then one `docc convert` per module into .build/docs/MODULE.doccarchive.
# Part of `make test`.
DOCC ?= $(shell command -v docc 2>/dev/null || echo $(dir $(SWIFT))docc)
DOC_MODULES := DragDrop DragDropGTK
docs: deps
	@mkdir -p .build/docs && $(SWIFT) package dump-symbol-graph >.build/docs/symbol-graphs.log 2>&1 || { cat .build/docs/symbol-graphs.log; exit 1; }
	@graphs="$$($(SWIFT) build --show-bin-path)/../symbolgraph"; \
	for m in $(DOC_MODULES); do \
		rm -rf .build/docs/$$m-graphs && mkdir -p .build/docs/$$m-graphs && \
		cp "$$graphs/$$m.symbols.json" "$$graphs"/$$m@*.symbols.json .build/docs/$$m-graphs/ 2>/dev/null; \
		"$(DOCC)" convert Sources/$$m/$$m.docc --additional-symbol-graph-dir .build/docs/$$m-graphs \
			--fallback-display-name $$m --fallback-bundle-identifier org.dragdrop.$$m \
			--output-path .build/docs/$$m.doccarchive --warnings-as-errors >.build/docs/$$m.log 2>&1 \
			|| { cat .build/docs/$$m.log; echo "error: the $$m documentation has warnings (above)."; exit 1; }; \
		echo "Documentation: .build/docs/$$m.doccarchive (no warnings)"; \
	done

# Only the GTK tests (real windows under Xvfb): the backend's and the showcase app's, then the
# Wayland set.
test-gtk: deps
	$(SWIFT) build --build-tests
	$(APPS) --build-tests
	$(SWIFT) test --skip-build --filter '$(GTK_TESTS)' --no-parallel
	$(APPS_TEST) --skip-build --filter '$(GTK_TESTS)' --no-parallel
	DRAGDROP_DISPLAY_BACKEND=wayland $(SWIFT) test --skip-build --filter '$(WAYLAND_TESTS)' --no-parallel
	DRAGDROP_DISPLAY_BACKEND=wayland $(APPS_TEST) --skip-build --filter '$(WAYLAND_TESTS)' --no-parallel

# Only the Wayland set.
test-wayland: deps
	$(SWIFT) build --build-tests
	$(APPS) --build-tests
	DRAGDROP_DISPLAY_BACKEND=wayland $(SWIFT) test --skip-build --filter '$(WAYLAND_TESTS)' --no-parallel
	DRAGDROP_DISPLAY_BACKEND=wayland $(APPS_TEST) --skip-build --filter '$(WAYLAND_TESTS)' --no-parallel

# Benchmarks: their own package (Benchmarks/, release build), never part of `make test`.
# Prints one Markdown table on standard output (every figure beside a baseline measured in the
# same run; builds and progress go to standard error) and keeps it in Benchmarks/.build/results.md. The GTK baseline needs gtk4 and Xvfb (installed by deps);
# without them its rows say n/a. BENCH_FLAGS=--quick runs a short version for trying it out.
# The Qt lookup baseline (Benchmarks/qt-pick-bench, C++ on QGraphicsScene) needs Qt 6's headers
# and g++; the latency rows' other toolkits' apps come from gtk-4-examples (gtk4-demo's dnd demo)
# and qtbase5-examples (Qt 5's draggableicons): BENCH_APT_PACKAGES, installed here only (not by
# deps, so `make test` stays lean). Without them their rows say n/a.
BENCH_FLAGS ?=
BENCH_APT_PACKAGES ?= g++ qt6-base-dev gtk-4-examples qtbase5-examples
bench: deps
	@missing=""; for p in $(BENCH_APT_PACKAGES); do dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		echo "Installing for the benchmarks:$$missing" >&2; \
		SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
		{ $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing; } >&2 \
			|| echo "Could not install$$missing: the Qt rows and the other apps' latency rows may say n/a." >&2; \
	fi
	@echo "Building the benchmarks (release)..." >&2
	@cd Benchmarks && $(SWIFT) build -c release --product dragdrop-bench >&2
	@cd Benchmarks && $(SWIFT) build -c release --product gtk-pick-bench >&2 \
		|| echo "The GTK baseline did not build: its rows will say n/a." >&2
	@cd Benchmarks && $(SWIFT) build -c release --product gtk-list-bench >&2 \
		|| echo "The list benchmark did not build: its rows will say n/a." >&2
	@# A debug build of the list benchmark too, for the latency rows' debug build beside release.
	@cd Benchmarks && $(SWIFT) build --product gtk-list-bench >&2 \
		|| echo "The list benchmark's debug build did not build: its latency rows will say n/a." >&2
	@cd Benchmarks && bin="$$($(SWIFT) build -c release --show-bin-path)" && rm -f "$$bin/qt-pick-bench" && \
		{ g++ -O2 -std=c++17 -fPIC qt-pick-bench/qt-pick-bench.cpp $$(pkg-config --cflags --libs Qt6Widgets) -o "$$bin/qt-pick-bench" >&2 \
		|| echo "The Qt baseline did not build: its rows will say n/a." >&2; }
	@cd Benchmarks && "$$($(SWIFT) build -c release --show-bin-path)/dragdrop-bench" --output .build/results.md $(BENCH_FLAGS)

# The engine's random tester at length (issue 10): 100,000 random drag sessions, each checked by
# the timeline auditor and the session oracle (docs/scenarios.md, "The random tester"), in a
# release build on every core. Prints "sessions: N, failures: F, time: T s"; a failing session is
# shrunk to a minimal scenario file, printed and written to .build/soak/. Not part of `make test`
# (which plays 2,400 seeded sessions). `make soak SOAK_SESSIONS=1000 SOAK_FLAGS="--seed 7"` tries it out.
SOAK_SESSIONS ?= 100000
SOAK_FLAGS ?=
soak: deps
	@$(APPS) -c release --product dragdrop >&2
	@"$$($(APPS) -c release --show-bin-path)/dragdrop" soak --sessions $(SOAK_SESSIONS) --out .build/soak --progress $(SOAK_FLAGS)

# Fuzzing with libFuzzer (Linux): its own package (Fuzz/), built with -sanitize=fuzzer,address,
# never part of `make test`. Runs each target FUZZ_SECONDS (default 60; the long run is
# FUZZ_SECONDS=600) from its seed corpus in Fuzz/corpus/, one after another, after a scale check
# at 1 MiB; prints runs, crashes, hangs and time per target and fails on any crash or hang.
# FUZZ_TARGETS picks targets; see Fuzz/README.md.
FUZZ_SECONDS ?= 60
fuzz: deps
	@FUZZ_SECONDS=$(FUZZ_SECONDS) SWIFT="$(SWIFT)" Fuzz/run.sh

format:
	$(SWIFT) format --in-place --recursive Sources Tests Package.swift Apps/Sources Apps/Tests Apps/Package.swift

clean:
	rm -rf .build Apps/.build Examples/FirstApp/.build Benchmarks/.build Fuzz/.build Fuzz/.work
