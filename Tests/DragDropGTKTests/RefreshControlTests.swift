import DragDropGTK
import Foundation
import DriverProtocol
import WindowDriver
import Testing

/// The refresh control of a list (`--scene refresh`), driven with real pointer events and wheel
/// steps.
@Suite(
    "GTK: refresh control", .serialized,
    .enabled(
        if: Tools.missing == nil, "Xvfb is not installed (apt-get install xvfb, or `make deps`): GTK tests skipped.")
)
struct RefreshControlTests {
    static func withRefresh(
        _ arguments: [String] = [], _ body: (FixtureApp, Pointer, SceneLayout) async throws -> Void
    ) async throws {
        let display = try XDisplay.startPrivate()
        defer { display.stop() }
        let app = try await FixtureApp.launch(
            on: display, size: (700, 520), arguments: ["--scene", "refresh"] + arguments)
        defer { app.stop() }
        let layout = try await app.settledSceneLayout()
        try await body(app, Pointer(display: display), layout)
    }

    static func began(_ app: FixtureApp, from mark: Int) -> [String] {
        app.lines(RefreshLine.self, from: mark).filter { $0.event == "began" }
            .compactMap { $0.trigger }
    }

    @Test(
        "K8: hidden until pulled past the top: a short pull springs back, a long one refreshes with progress, and a pull never starts a content drag; wheel steps past the top and F5 refresh too"
    )
    func pullAndScroll() async throws {
        try await Self.withRefresh { app, pointer, layout in
            #expect((try? layout.frame("indicator")) == nil, "no refresh control shown before a pull")
            let list = try layout.frame("inbox/list")
            let empty = (list.midX, list.maxY - 40)  // below the messages

            var mark = app.lineCount
            try pointer.drag(from: empty, to: (empty.0, empty.1 + 30), steps: 4)
            try await app.waitFor(PullLine.self, "the short pull springing back", after: mark) {
                $0.distance == 0
            }
            let shortest = app.lines(PullLine.self, from: mark).map(\.distance).max() ?? 0
            #expect(shortest > 0 && shortest < RefreshControl.threshold, "it showed a little: \(shortest)")
            #expect(Self.began(app, from: mark).isEmpty, "a short pull does not refresh")

            mark = app.lineCount
            try pointer.drag(from: empty, to: (empty.0, empty.1 + 120), steps: 8)
            try await app.waitFor(RefreshLine.self, "a refresh by pulling", after: mark) {
                $0.event == "began" && $0.trigger == "pull"
            }
            let shown = try await app.settledSceneLayout(quiet: 0.15)
            #expect((try? shown.frame("indicator"))?.height ?? 0 >= 40, "A5: the control shows while it refreshes")
            try await app.waitFor(RefreshLine.self, "the refresh ending", after: mark) {
                $0.event == "ended"
            }
            try await app.waitFor(PullLine.self, "the control hiding", after: mark) { $0.distance == 0 }
            #expect(!app.eventNames(from: 0).contains("lifted"), "no pull started a content drag")

            // Wheel steps up while at the top: the first only reaches it, the next ones pull.
            try await Task.sleep(for: .milliseconds(300))
            mark = app.lineCount
            for _ in 0..<4 { try pointer.click(at: (list.midX, list.y + 60), button: 4) }
            try await app.waitFor(RefreshLine.self, "a refresh by scrolling", after: mark) {
                $0.event == "began" && $0.trigger == "scroll"
            }
            try await app.waitFor(RefreshLine.self, "its end", after: mark) { $0.event == "ended" }

            // K12: F5 in the list refreshes from the keyboard.
            try pointer.click(at: try layout.frame("inbox/Message 2").center)
            mark = app.lineCount
            try pointer.key("F5")
            try await app.waitFor(RefreshLine.self, "a refresh by F5", after: mark) {
                $0.event == "began" && $0.trigger == "keyboard"
            }
        }
    }

    @Test("K8: the list refreshes by itself on the app's schedule")
    func schedule() async throws {
        try await Self.withRefresh(["--refresh-every", "1.5"]) { app, _, _ in
            let first = try await app.waitFor(RefreshLine.self, "a scheduled refresh", after: 0) {
                $0.event == "began"
            }
            #expect(first.trigger == "schedule")
            try await app.waitFor(RefreshLine.self, "a second scheduled refresh", after: 0) {
                $0.event == "began" && $0.count == 2
            }
            #expect(Self.began(app, from: 0).allSatisfy { $0 == "schedule" })
        }
    }

    @Test(
        "K8, A1: a content drag never refreshes: not a row dragged down from the top, not autoscroll to the top edge during a drag"
    )
    func dragNeverRefreshes() async throws {
        try await Self.withRefresh(["--messages", "25"]) { app, pointer, layout in
            let inbox = try layout.frame("inbox")
            let first = try layout.frame("inbox/Message 1")
            var mark = app.lineCount
            try pointer.drag(from: first.center, to: (first.midX, first.midY + 160), steps: 8)
            try await app.waitForDragEnd(after: mark)
            #expect(app.eventNames(from: mark).contains("lifted"), "the row was dragged")
            #expect(Self.began(app, from: mark).isEmpty, "a row dragged down is no pull")

            // Scroll down, then drag a row to the top edge and hold: autoscroll reaches the top.
            _ = try await app.settledSceneLayout()
            for _ in 0..<6 { try pointer.click(at: (inbox.midX, inbox.midY), button: 5) }
            try await app.waitFor(ScrollLine.self, "the list scrolled down", after: mark) {
                $0.offset > 100
            }
            try await Task.sleep(for: .milliseconds(400))
            let row = (inbox.midX, inbox.midY)
            mark = app.lineCount
            try pointer.drag(
                from: row, to: (inbox.midX, inbox.y + 6), pause: 0.1,
                then: ["mousemove"] + Pointer.at((inbox.midX, inbox.y + 5)) + ["sleep", "1.5"], release: false)
            try await app.waitFor(ScrollLine.self, "autoscroll to the top", after: mark) {
                $0.offset == 0
            }
            try await Task.sleep(for: .milliseconds(500))
            try pointer.release()
            try await app.waitForDragEnd(after: mark)
            try await Task.sleep(for: .milliseconds(300))
            #expect(app.eventNames(from: mark).contains("autoscrolled"))
            #expect(Self.began(app, from: 0).isEmpty, "no refresh at all")
            #expect(
                !app.lines(PullLine.self).contains { $0.distance > 0 },
                "the control never showed")
        }
    }
}
