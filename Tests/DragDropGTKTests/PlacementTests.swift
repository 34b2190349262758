import DriverProtocol
import Foundation
import Testing
import WindowDriver

/// The widget tree is the target tree (issue 25): widgets created without an identifier take part
/// in drags once placed in a window, under the nearest registered widget above them, and leave
/// when taken out (`--scene placement`, where the scene registers nothing itself).
@Suite(
    "GTK: widgets register where they are placed", .serialized,
    .enabled(
        if: Tools.missing == nil, "Xvfb is not installed (apt-get install xvfb, or `make deps`): GTK tests skipped.")
)
struct PlacementTests {
    /// The placement scene on a private display at (40, 40).
    private func withPlacementScene(_ body: (_ app: FixtureApp, _ pointer: Pointer) async throws -> Void)
        async throws
    {
        let display = try XDisplay.startPrivate()
        defer { display.stop() }
        let app = try await FixtureApp.launch(
            on: display, size: (520, 360), at: (40, 40), arguments: ["--scene", "placement"],
            windowName: "DragDrop fixture")
        defer { app.stop() }
        try await body(app, Pointer(display: display))
    }

    @Test(
        "S1: lists placed in a window register under the widget above them (a list in a scroll view under the scroll view, parents first), take a drop; taken out of the window they are unregistered, and put back they take drops again"
    )
    func placedListsTakePartInDrags() async throws {
        try await withPlacementScene { app, pointer in
            func parents(_ expected: String, after mark: Int) async throws {
                try await app.waitFor("parents \(expected)", after: mark) { line in
                    line.decode(GtkLine.self)?.message == "parents \(expected)"
                }
            }
            try await parents("a=scroller b=window scroller=window label=window", after: 0)

            var layout = try await app.settledLayout()
            let milk = try layout.row("Milk", in: "a")
            let report = try layout.row("Report", in: "b")
            var mark = app.lineCount
            try pointer.drag(from: (milk.midX, milk.midY), to: (report.midX, report.maxY + 20), steps: 14)
            try await app.waitForState("a copy of Milk in Notes B", after: mark) { lists, _ in
                lists["b"] == ["Report", "Milk"]
            }
            try await app.waitForDragEnd(after: mark)

            // Ctrl+M takes list b out of the window: its targets leave the engine.
            try pointer.click(at: (app.origin.x + 260, app.origin.y + 345))
            mark = app.lineCount
            try pointer.key("ctrl+m")
            try await parents("a=scroller b=none scroller=window label=window", after: mark)
            #expect(app.messages(from: mark).contains { $0.hasPrefix("unplaced Notes B#") })

            // Put back, it registers again and takes a drop.
            mark = app.lineCount
            try pointer.key("ctrl+m")
            try await parents("a=scroller b=window scroller=window label=window", after: mark)
            #expect(app.messages(from: mark).contains { $0.hasPrefix("placed Notes B#") && $0.hasSuffix(" in window") })
            layout = try await app.settledLayout()
            let eggs = try layout.row("Eggs", in: "a")
            let milkInB = try layout.row("Milk", in: "b")
            mark = app.lineCount
            try pointer.drag(from: (eggs.midX, eggs.midY), to: (milkInB.midX, milkInB.maxY + 20), steps: 14)
            try await app.waitForState("a copy of Eggs in Notes B, put back", after: mark) { lists, _ in
                lists["b"] == ["Report", "Milk", "Eggs"]
            }
            #expect(app.lists["a"] == ["Milk", "Eggs"])
        }
    }

    @Test(
        "S1: a widget attached with host.attach(_:as:delegate:) takes drops while its registration lives; let go of (Ctrl+T), it is unregistered and a drop there changes nothing"
    )
    func attachedRegistrationEndsWhenReleased() async throws {
        try await withPlacementScene { app, pointer in
            try await app.waitFor("the label registered") {
                $0.decode(GtkLine.self)?.message.hasSuffix("label=window") ?? false
            }
            let layout = try await app.settledLayout()
            let label = try layout.list("label")
            let milk = try layout.row("Milk", in: "a")
            var mark = app.lineCount
            try pointer.drag(from: (milk.midX, milk.midY), to: (label.midX, label.midY), steps: 14)
            try await app.waitFor("the label took Milk", after: mark) {
                $0.decode(GtkLine.self)?.message == "label took Milk"
            }
            try await app.waitForDragEnd(after: mark)

            mark = app.lineCount
            try pointer.key("ctrl+t")
            try await app.waitFor("the label unregistered", after: mark) {
                $0.decode(GtkLine.self)?.message.hasSuffix("label=none") ?? false
            }
            mark = app.lineCount
            try pointer.drag(from: (milk.midX, milk.midY), to: (label.midX, label.midY), steps: 14)
            try await app.waitForDragEnd(after: mark)
            #expect(
                !app.messages(from: mark).contains { $0.hasPrefix("label took") }, "no drop on a released registration")
            #expect(app.events(from: mark).contains { $0.event == "outcome" }, "the drag ended")
            #expect(app.lists == ["a": ["Milk", "Eggs"], "b": ["Report"]])
        }
    }
}
