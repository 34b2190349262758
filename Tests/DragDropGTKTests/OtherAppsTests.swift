import Foundation
import DriverProtocol
import WindowDriver
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Drags between processes through X11 drag and drop (XDND), with real pointer events: two
/// fixture processes, and gtk4-demo, a real GTK app we did not write.
@Suite(
    "GTK: drags between apps", .serialized,
    .enabled(
        if: Tools.missing == nil, "Xvfb is not installed (apt-get install xvfb, or `make deps`): GTK tests skipped.")
)
struct OtherAppsTests {
    /// Runs `body` with a fresh display and pointer; stops the display whatever happens.
    func withDisplay(_ body: (XDisplay, Pointer) async throws -> Void) async throws {
        let display = try XDisplay.startPrivate()
        defer { display.stop() }
        try await body(display, Pointer(display: display))
    }

    func center(_ r: ScreenRect) -> (x: Double, y: Double) { (r.midX, r.midY) }

    /// The other app's name as the host learns it: from its window on X11; on Wayland nothing
    /// says which app a surface belongs to, so it stays unnamed ("the other app").
    func otherApp(_ name: String) -> String? { DisplayBackend.current == .x11 ? name : nil }

    func event(_ name: String, in app: FixtureApp, from index: Int) -> FeedbackLine? {
        app.events(from: index).first { $0.event == name }
    }

    @Test(
        "S1, S2, P1, P5: a drag from one process into another arrives through X11 drag and drop as a copy, read only at the drop"
    )
    func twoProcesses() async throws {
        try await withDisplay { display, pointer in
            let a = try await FixtureApp.launchApps("A", on: display, at: (40, 40))
            defer { a.stop() }
            let b = try await FixtureApp.launchApps("B", on: display, at: (600, 40))
            defer { b.stop() }
            let item = try a.appsFrames().item
            let inbox = try b.appsFrames().inbox
            let markA = a.lineCount
            let markB = b.lineCount
            try pointer.drag(from: center(item), to: center(inbox), release: false)
            // Over B: an external session that would copy, with the types A offers to others.
            try await b.waitFor(FeedbackLine.self, "B's external session over its Inbox", after: markB) {
                $0.event == "proposal" && $0.destination == "inbox"
                    && $0.operation == "copy"
            }
            #expect(event("lifted", in: b, from: markB)?.mode == "external")
            // P1, P5: A offered its representations richest first, without its private native
            // form, and produced nothing before the drop.
            #expect(
                a.messages(from: markA).contains("offer [\"text/html\", \"text/plain;charset=utf-8\", \"text/plain\"]"),
                "\(a.messages(from: markA))")
            let entered = b.messages(from: markB).first { $0.hasPrefix("external drag-enter") } ?? ""
            #expect(entered.contains("types=[\"text/html\", \"text/plain;charset=utf-8\"]"), "\(entered)")
            #expect(!a.messages(from: markA).contains { $0.hasPrefix("export start") })
            try pointer.release()

            try await b.waitForAppsState("B's Inbox with A's text", after: markB) {
                $0.received == ["Hello from A"]
            }
            let committed = try #require(event("committed", in: b, from: markB))
            #expect(committed.operation == "copy")
            // A: the other app took it (XdndFinished accepted): handed off, a copy; A unchanged.
            let outcome = try await a.waitFor(FeedbackLine.self, "A's outcome", after: markA) { $0.event == "outcome" }
            #expect(outcome.outcome == "handedOff")
            #expect(outcome.operation == "copy")
            #expect(outcome.app == otherApp("dragdrop-gtk-fixture"))
            #expect(event("sourceRemoved", in: a, from: markA) == nil)
            #expect(a.received.isEmpty)
            // On Wayland B asked for the text a second time, at its end, to learn that A was
            // still there (docs/wayland.md); on X11 once.
            let exports = a.messages(from: markA).filter { $0 == "export done mime=text/plain;charset=utf-8 bytes=12" }
            #expect(exports.count == (DisplayBackend.current == .wayland ? 2 : 1), "\(a.messages(from: markA))")
        }
    }

    @Test("F7, A6: a drop the other app took but then failed ends in the source as a failure naming that app")
    func refusedAfterTransfer() async throws {
        try await withDisplay { display, pointer in
            let a = try await FixtureApp.launchApps("A", on: display, at: (40, 40))
            defer { a.stop() }
            // B's Inbox takes at most 4 bytes: A's 12-byte text fails there after its transfer.
            let b = try await FixtureApp.launchApps("B", on: display, at: (600, 40), extra: ["--inbox-limit", "4"])
            defer { b.stop() }
            let markA = a.lineCount
            let markB = b.lineCount
            try pointer.drag(from: center(try a.appsFrames().item), to: center(try b.appsFrames().inbox))
            let failed = try await b.waitFor(FeedbackLine.self, "B's failed placeholder", after: markB) {
                $0.event == "placeholderFailed"
            }
            #expect((failed.reason)?.contains("more than") == true, "\(failed)")
            #expect(b.received.isEmpty)
            let outcome = try await a.waitFor(FeedbackLine.self, "A's outcome", after: markA) { $0.event == "outcome" }
            #expect(outcome.outcome == "returnToSource")
            if DisplayBackend.current == .x11 {
                #expect(outcome.reason == "'dragdrop-gtk-fixture' did not take 'Hello from A'.")
                #expect(
                    a.messages(from: markA).contains { $0.hasPrefix("drop in another app accepted=false app=dragdrop-gtk-fixture") })
            } else {
                // Wayland: B performed the drop, then cancelled it instead of finishing.
                #expect(outcome.reason == "The other app did not take 'Hello from A'.")
                #expect(a.messages(from: markA).contains("drop performed by another app"))
            }
        }
    }

    @Test(
        "S1: text dragged out of our app into gtk4-demo (a real app we did not write) appears in it",
        .enabled(if: PeerApp.demo != nil, "gtk4-demo is not installed (apt-get install gtk-4-examples).")
    )
    func intoGtk4Demo() async throws {
        try await withDisplay { display, pointer in
            let demo = try PeerApp.launchClipboardDemo(on: display, at: (40, 40))
            defer { demo.stop() }
            let a = try await FixtureApp.launchApps("A", on: display, at: (40, 320))
            defer { a.stop() }
            let item = try a.appsFrames().item
            let dark = (red: UInt8(40), green: UInt8(40), blue: UInt8(40))
            let before = try Screenshot.capture(display).count(dark, in: demo.droppedTextArea, tolerance: 70)
            let mark = a.lineCount
            try pointer.drag(from: center(item), to: demo.dropRow)
            // gtk4-demo read our text and finished the drop as accepted (XdndFinished).
            let outcome = try await a.waitFor(FeedbackLine.self, "A's outcome", after: mark) { $0.event == "outcome" }
            #expect(outcome.outcome == "handedOff")
            #expect(outcome.app == otherApp("gtk4-demo"))
            #expect(a.messages(from: mark).contains("export done mime=text/plain;charset=utf-8 bytes=12"))
            // We cannot read gtk4-demo's state: its drop row must now show text where it was empty.
            var after = 0
            let deadline = Date().addingTimeInterval(5)
            while Date() < deadline {
                after = try Screenshot.capture(display).count(dark, in: demo.droppedTextArea, tolerance: 70)
                if after > 40 { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(before == 0, "the demo's drop row was not empty before the drop")
            #expect(after > 40, "no dropped text appeared in gtk4-demo (\(after) dark pixels)")
        }
    }

    @Test(
        "S1, S2: text dragged from gtk4-demo's entry into our Inbox arrives as a copy",
        .enabled(if: PeerApp.demo != nil, "gtk4-demo is not installed (apt-get install gtk-4-examples).")
    )
    func fromGtk4Demo() async throws {
        try await withDisplay { display, pointer in
            let demo = try PeerApp.launchClipboardDemo(on: display, at: (40, 40))
            defer { demo.stop() }
            let b = try await FixtureApp.launchApps("B", on: display, at: (600, 40))
            defer { b.stop() }
            let inbox = try b.appsFrames().inbox
            // Select the entry's text (triple click), then wait out the double-click time so the
            // press that starts the drag is not taken as another click.
            try pointer.click(at: demo.entry, count: 3)
            try await Task.sleep(for: .milliseconds(800))
            let mark = b.lineCount
            try pointer.drag(from: demo.entry, to: center(inbox))
            try await b.waitForAppsState("B's Inbox with the demo's text", after: mark) {
                $0.received == ["Copy this!"]
            }
            let lifted = try #require(event("lifted", in: b, from: mark))
            #expect(lifted.mode == "external")
            #expect(event("committed", in: b, from: mark)?.operation == "copy")
            #expect(
                b.messages(from: mark).contains {
                    $0.hasPrefix("external drag-enter") && $0.hasSuffix("app=\(otherApp("gtk4-demo") ?? "another app")")
                }
            )
            #expect(b.messages(from: mark).contains("external drop finished accepted=true"))
        }
    }

    /// On X11 the source's window going away says it quit. On Wayland its pipe just ends, as at
    /// the end of the data: B asks for the text once more, and the compositor closing that
    /// second pipe at once, with nothing in it, says the source has gone (docs/wayland.md).
    @Test(
        "A6, S1: the source killed in the middle of a drop leaves a failed drop with a reason and no partial content"
    )
    func sourceKilledMidDrop() async throws {
        try await withDisplay { display, pointer in
            let b = try await FixtureApp.launchApps("B", on: display, at: (600, 40))
            defer { b.stop() }
            // 16 MB of text produced 64 KiB every 40 ms: about 10 s, far longer than the test.
            let source = try await FixtureApp.launchApps(
                "S", on: display, at: (40, 40), extra: ["--slow-text", "16000000"])
            defer { source.stop() }
            let item = try source.appsFrames().item
            let inbox = try b.appsFrames().inbox
            let markB = b.lineCount
            let markS = source.lineCount
            try pointer.drag(from: center(item), to: center(inbox))
            try await b.waitFor(FeedbackLine.self, "B's placeholder", after: markB) { $0.event == "placeholderInserted" }
            try await source.waitFor(GtkLine.self, "the source sending its first bytes", after: markS) {
                $0.message.hasPrefix("export progress")
            }
            source.kill(SIGKILL)
            let killedAt = Date()
            let failed = try await b.waitFor(FeedbackLine.self, "B's failed placeholder", after: markB, timeout: 8) {
                $0.event == "placeholderFailed"
            }
            #expect(Date().timeIntervalSince(killedAt) < 5)
            let reason = failed.reason ?? ""
            #expect(reason.contains("quit"), "\(reason)")
            let state = try #require(b.appsState)
            #expect(state.received == [], "partial content in the destination")
            #expect(state.status.hasPrefix("Drop failed:"), "\(state)")
            #expect(state.pending == 0)
            #expect(b.messages(from: markB).contains { $0.hasPrefix("external drop finished accepted=false") })

            // No hang: B takes the next drop (its own item into its Inbox).
            let again = b.lineCount
            let own = try b.appsFrames().item
            try pointer.drag(from: center(own), to: center(inbox))
            try await b.waitForAppsState("B's Inbox with its own text", after: again) {
                $0.received == ["Hello from B"]
            }
        }
    }

    @Test(
        "A6, S1: a long text from a slow app that keeps running arrives whole, and the app is unharmed by the check that it is still there"
    )
    func slowSourceThatFinishes() async throws {
        try await withDisplay { display, pointer in
            let b = try await FixtureApp.launchApps("B", on: display, at: (600, 40))
            defer { b.stop() }
            // 400,000 bytes produced 64 KiB every 40 ms: 7 chunks, about 0.3 s; more than a pipe holds.
            let source = try await FixtureApp.launchApps(
                "S", on: display, at: (40, 40), extra: ["--slow-text", "400000"])
            defer { source.stop() }
            let markB = b.lineCount
            let markS = source.lineCount
            try pointer.drag(from: center(try source.appsFrames().item), to: center(try b.appsFrames().inbox))
            let state = try await b.waitForAppsState("B's Inbox with S's text", after: markB) {
                !$0.received.isEmpty
            }
            #expect(state.received.first?.hasSuffix("…(400000 bytes)") == true, "\(state)")
            #expect(b.messages(from: markB).contains("external drop finished accepted=true"))
            // On Wayland the second copy, asked for at the end, is read to its end too: S sends
            // all of it and keeps running (it never writes into a closed pipe).
            let done = "export done mime=text/plain;charset=utf-8 bytes=400000"
            let copies = DisplayBackend.current == .wayland ? 2 : 1
            try await source.waitFor("S's \(copies) complete export(s)", after: markS) { _ in
                source.messages(from: markS).filter { $0 == done }.count == copies
            }
            try await Task.sleep(for: .milliseconds(300))
            #expect(source.process.isRunning)
            #expect(
                !source.messages(from: markS).contains { $0.hasPrefix("export failed") },
                "\(source.messages(from: markS))")
        }
    }

    @Test(
        "P5: an item limited to its app still drags into its own Inbox (recognized by GDK's drag, not by a type), and another app sees a drag that offers nothing"
    )
    func privateItemStaysInItsApp() async throws {
        try await withDisplay { display, pointer in
            let a = try await FixtureApp.launchApps("A", on: display, at: (40, 40), extra: ["--private-only"])
            defer { a.stop() }
            let b = try await FixtureApp.launchApps("B", on: display, at: (600, 40), extra: ["--private-only"])
            defer { b.stop() }
            let item = try a.appsFrames().item
            // Into its own Inbox: the private form arrives.
            var markA = a.lineCount
            try pointer.drag(from: center(item), to: center(try a.appsFrames().inbox))
            try await a.waitForAppsState("A's Inbox with its note", after: markA) {
                $0.received == ["Hello from A"]
            }
            #expect(a.messages(from: markA).contains("offer []"), "\(a.messages(from: markA))")
            // Into B: B is offered no type, takes nothing; A's drag ends without a destination.
            markA = a.lineCount
            let markB = b.lineCount
            try pointer.drag(from: center(item), to: center(try b.appsFrames().inbox))
            try await a.waitForDragEnd(after: markA)
            try await Task.sleep(for: .milliseconds(300))
            #expect(!b.messages(from: markB).contains { $0.hasPrefix("external") }, "\(b.messages(from: markB))")
            #expect(event("lifted", in: b, from: markB) == nil)
            #expect(b.received.isEmpty)
            #expect(!a.messages(from: markA).contains { $0.hasPrefix("export start") })
            let outcome = try await a.waitFor(FeedbackLine.self, "A's outcome", after: markA) { $0.event == "outcome" }
            #expect(outcome.outcome != "handedOff")
        }
    }
}
