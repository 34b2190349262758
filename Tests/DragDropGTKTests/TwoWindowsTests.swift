import Foundation
import DriverProtocol
import WindowDriver
import Testing

/// Two windows of one app (`--scene two-windows`): one process, one host, one engine resolving
/// across both windows through their virtual origins.
@Suite(
    "GTK: dragging between two windows of one app", .serialized,
    .enabled(
        if: Tools.missing == nil, "Xvfb is not installed (apt-get install xvfb, or `make deps`): GTK tests skipped.")
)
struct TwoWindowsTests {
    /// The two-window scene on a private display, window A at (40, 40), window B at (700, 40)
    /// (`originB`: where B's content is).
    private func withTwoWindows(
        _ body: (_ app: FixtureApp, _ pointer: Pointer, _ originB: ScreenPoint) async throws -> Void
    ) async throws {
        let display = try XDisplay.startPrivate()
        defer { display.stop() }
        let app = try await FixtureApp.launch(
            on: display, size: (420, 360), at: (40, 40), arguments: ["--scene", "two-windows"],
            windowName: "DragDrop fixture A")
        defer { app.stop() }
        let origin = try display.place(windowNamed: "DragDrop fixture B", at: (700, 40)).content
        try await body(app, Pointer(display: display), (origin.x, origin.y))
    }

    @Test(
        "S1, S2, U1: a drag between two windows of one app copies (default policy: another container copies), and Ctrl+Z undoes it"
    )
    func dragBetweenWindowsCopies() async throws {
        try await withTwoWindows { app, pointer, originB in
            #expect(app.lists == ["a": ["Milk", "Eggs"], "b": ["Report"]])

            // The layout's frames are window-relative; `settledLayout` puts them all at window A's
            // origin, so list B's are shifted to window B's.
            let layout = try await app.settledLayout()
            let milk = try layout.row("Milk", in: "a")
            let reportInA = try layout.row("Report", in: "b")
            let report = ScreenRect(
                x: reportInA.x - app.origin.x + originB.x, y: reportInA.y - app.origin.y + originB.y,
                width: reportInA.width, height: reportInA.height)
            #expect(milk.maxY < 400 && report.x > 700, "windows placed: Milk \(milk), Report \(report)")

            let mark = app.lineCount
            try pointer.drag(from: (milk.midX, milk.midY), to: (report.midX, report.maxY + 30), steps: 16)
            try await app.waitForState("a copy of Milk in Notes B", after: mark) { lists, _ in
                lists["b"] == ["Report", "Milk"]
            }
            #expect(app.lists["a"] == ["Milk", "Eggs"], "S2: the source keeps its row (a copy)")
            let events = app.events(from: mark)
            let committed = try #require(events.first { $0.event == "committed" })
            #expect(committed.destination == "b")
            #expect(committed.operation == "copy")
            #expect(!events.contains { $0.event == "sourceRemoved" })

            // U1: Ctrl+Z in window B (where the pointer is, so it has the keyboard focus).
            try await app.waitForDragEnd(after: mark)
            _ = try await app.settledLayout()
            let beforeUndo = app.lineCount
            try pointer.key("ctrl+z")
            try await app.waitForState("the undone copy", after: beforeUndo) { lists, _ in
                lists == ["a": ["Milk", "Eggs"], "b": ["Report"]]
            }
        }
    }

    @Test(
        "S1: closing a window (Ctrl+W, gtk_window_destroy) ends everything registered in it: its list, held by nothing but its window, is released, its targets leave the engine, and drags in the other window go on"
    )
    func closingAWindowEndsItsRegistrations() async throws {
        try await withTwoWindows { app, pointer, originB in
            let layout = try await app.settledLayout()
            #expect(app.lists == ["a": ["Milk", "Eggs"], "b": ["Report"]], "both lists alive, held only by the host")

            // Window B gets the keyboard with a click on its empty part, then Ctrl+W closes it.
            try pointer.click(at: (originB.x + 300, originB.y + 300))
            let mark = app.lineCount
            try pointer.key("ctrl+w")
            let closed = try await app.waitFor(GtkLine.self, "window B closed", after: mark) { $0.message.hasPrefix("closed ") }
            // The host registers each window, its list and the list's rows: A's four are left.
            #expect(closed.message == "closed windowB; list b released; registered 4")
            #expect(app.lines(GtkLine.self, from: mark).contains { $0.message == "window removed windowB" })

            // Window A's drags go on: Milk moves below Eggs.
            let milk = try layout.row("Milk", in: "a")
            let eggs = try layout.row("Eggs", in: "a")
            let before = app.lineCount
            try pointer.drag(from: (milk.midX, milk.midY), to: (eggs.midX, eggs.maxY + 20), steps: 12)
            try await app.waitForState("Milk below Eggs", after: before) { lists, _ in lists["a"] == ["Eggs", "Milk"] }
            #expect(app.lists == ["a": ["Eggs", "Milk"]])
        }
    }
}
