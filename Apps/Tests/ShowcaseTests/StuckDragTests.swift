import Foundation
import DriverProtocol
import WindowDriver
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A drag of ours dropped on another app that never finishes it: the other app hangs at the
/// drop, is killed while it reads, or just stops. GTK keeps such a drag (its image on the
/// screen, no new drag possible) until the other app says it finished; the host gives it up in
/// bounded time (OtherAppDrags+Finish.swift). The other app is `dragdrop-hostile-source` as a
/// destination (`{"cmd":"target"}`), a second process on the same display.
@Suite(
    "Showcase: a drop another app never finishes", .serialized,
    .enabled(
        if: Tools.xvfb != nil && Tools.xdotool != nil,
        "Xvfb or xdotool is not installed (run `make deps`): showcase tests skipped.")
)
struct StuckDragTests: ShowcaseTesting {
    /// The showcase on Reminders and the hostile app, as a destination behaving as `behaviour`,
    /// beside it.
    private func withHangingTarget(
        _ behaviour: String,
        _ body: (_ app: ShowcaseProcess, _ target: HostileSource, _ pointer: Pointer, _ layout: ShowcaseLayout) throws -> Void
    ) throws {
        try withDataDirectory { data in
            let display = try XDisplay.startPrivate()
            defer { display.stop() }
            let app = try ShowcaseProcess.launch(
                executable: try Self.showcaseExecutable(), dataDirectory: data, display: display, pane: "reminders",
                size: (1000, 620))
            defer { app.stop() }
            let target = try HostileSource.launch(
                executable: try Self.showcaseExecutable(named: "dragdrop-hostile-source"), display: display,
                appName: "hung-app")
            defer { target.stop() }
            let mark = target.lineCount
            try target.send(line: #"{"cmd": "target", "behaviour": "\#(behaviour)"}"#)
            try target.waitFor("the target's behaviour", after: mark) { $0.kind == "target" }
            let layout = try app.settledLayout(pane: "reminders")
            try body(app, target, Pointer(display: display), layout)
            expectNoGLibProblems(app)
        }
    }

    /// Drags the first grocery onto the other app and waits until it took the drop.
    private func dropFirstGrocery(
        _ app: ShowcaseProcess, _ target: HostileSource, _ pointer: Pointer, _ layout: ShowcaseLayout
    ) throws -> (title: String, mark: Int) {
        let groceries = try #require(app.state?.lists["Groceries"])
        let title = try #require(groceries.first)
        let mark = app.lineCount
        let targetMark = target.lineCount
        try pointer.drag(from: try layout.row(title, in: "Groceries").center, to: target.handle, steps: 12, pause: 0.4)
        try target.waitFor("the drop in the other app", after: targetMark) {
            $0.kind == "gtk" && ($0.json.contains("drop behaviour="))
        }
        return (title, mark)
    }

    /// Waits for the drag to be given up within `timeout` seconds: it failed (the image flies
    /// back, F7) saying `reason` (A6), nothing changed, and the next drag starts and lands.
    private func expectGivenUp(
        _ app: ShowcaseProcess, _ pointer: Pointer, _ groceries: [String], after mark: Int, timeout: Double,
        saying reason: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let outcome = try app.waitFor(FeedbackLine.self, "the drag given up", after: mark, timeout: timeout) {
            $0.event == "outcome"
        }
        #expect(outcome.outcome == "returnToSource", sourceLocation: sourceLocation)
        let said = try app.waitFor(StatusLine.self, "the reason", after: mark) { $0.text.hasPrefix("Not dropped") }.text
        #expect(said == "Not dropped: \(reason)", sourceLocation: sourceLocation)
        try nextDragWorks(app, pointer, groceries, sourceLocation: sourceLocation)
    }

    /// After a drag was given up: the list is as it was, and the next drag starts and lands.
    private func nextDragWorks(
        _ app: ShowcaseProcess, _ pointer: Pointer, _ groceries: [String], sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        #expect(app.state?.lists["Groceries"] == groceries, "F7: nothing changed here", sourceLocation: sourceLocation)
        let layout = try app.settledLayout(pane: "reminders")
        let mark = app.lineCount
        let moving = groceries[1]
        try pointer.drag(from: try layout.row(moving, in: "Groceries").center, to: try layout.list("Home").center)
        try app.waitForState("the next drag landed", after: mark, timeout: 10) {
            $0.lists["Home"]?.contains(moving) == true
        }
    }

    @Test(
        "F7, A6: another app that hangs at our drop and is killed: the drag ends at once, says the app quit, changes nothing, and the next drag starts and lands"
    )
    func killedDestination() throws {
        try withHangingTarget("hang") { app, target, pointer, layout in
            let groceries = try #require(app.state?.lists["Groceries"])
            let (_, mark) = try dropFirstGrocery(app, target, pointer, layout)
            usleep(500_000)
            #expect(!app.events(from: mark).contains { $0.event == "outcome" }, "still waiting for the other app")
            target.process.send(SIGKILL)
            try expectGivenUp(
                app, pointer, groceries, after: mark, timeout: 4,
                saying: "'hung-app' quit before it finished taking the drop.")
        }
    }

    @Test(
        "F7, A6: another app that stopped answering at our drop: Escape in our window gives the drag up at once, saying so; the next drag starts"
    )
    func escapeGivesUp() throws {
        try withHangingTarget("hang") { app, target, pointer, layout in
            let groceries = try #require(app.state?.lists["Groceries"])
            let (_, mark) = try dropFirstGrocery(app, target, pointer, layout)
            target.process.send(SIGSTOP)
            defer { target.process.send(SIGCONT) }
            try app.focusWindow()
            try pointer.key("Escape")
            try expectGivenUp(
                app, pointer, groceries, after: mark, timeout: 3, saying: "cancelled while 'hung-app' was still taking it.")
        }
    }

    @Test(
        "F7, A6: another app that read a little of our drop and went silent: after 10 seconds without a request the drag is given up, saying so"
    )
    func silentDestination() throws {
        try withHangingTarget("read-hang") { app, target, pointer, layout in
            let groceries = try #require(app.state?.lists["Groceries"])
            let (_, mark) = try dropFirstGrocery(app, target, pointer, layout)
            try expectGivenUp(
                app, pointer, groceries, after: mark, timeout: 16,
                saying: "'hung-app' did not finish taking the drop for 10 seconds.")
        }
    }
}
