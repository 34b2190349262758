import DriverProtocol
import Foundation
import Testing
import WindowDriver

/// Typed values on plain widgets (issue 25, `--scene values`): `host.draggable(_:name:value:)` and
/// `host.dropDestination(_:for:name:action:)` make any GtkWidget give or take an app's
/// `Transferable` values, as SwiftUI's modifiers do, with no identifiers or MIME types in app
/// code; driven with a real pointer.
@Suite(
    "GTK: typed values on any widget", .serialized,
    .enabled(
        if: Tools.missing == nil, "Xvfb is not installed (apt-get install xvfb, or `make deps`): GTK tests skipped.")
)
struct ValueWidgetTests {
    private func withValues(_ body: (_ app: FixtureApp, _ pointer: Pointer) async throws -> Void) async throws {
        let display = try XDisplay.startPrivate()
        defer { display.stop() }
        let app = try await FixtureApp.launch(
            on: display, size: (480, 400), arguments: ["--scene", "values"], environment: ["GTK_A11Y": "none"])
        defer { app.stop() }
        try await app.waitFor(ReadyLine.self, "the values scene laid out")
        try await body(app, Pointer(display: display))
    }

    @Test(
        "S2, S4, F4: a chore dragged from a value list onto a label that takes chores arrives as a Chore (the action gets it and the point in the label), highlighted while over it; the label asks for moves, so the list lets it go after the drop"
    )
    func choreDroppedOnALabel() async throws {
        try await withValues { app, pointer in
            let layout = try await app.settledSceneLayout()
            let milk = try layout.frame("chores/Milk")
            let basket = try layout.frame("basket")
            let mark = app.lineCount
            try pointer.drag(from: milk.center, to: (basket.x + 20, basket.y + 30), steps: 14)
            try await app.waitFor(GtkLine.self, "the basket took Milk as a chore", after: mark) {
                $0.message.hasPrefix("basket took Milk at ") && $0.message.hasSuffix(" move")
            }
            let took = app.messages(from: mark).first { $0.hasPrefix("basket took") } ?? ""
            // The point is in the label's own coordinates: about (20, 30), not window coordinates.
            let at = took.split(separator: " ")[4].split(separator: ",").compactMap { Int($0) }
            #expect(at.count == 2 && abs(at[0] - 20) <= 3 && abs(at[1] - 30) <= 3, "\(took)")
            // The action ran first (the basket has Milk), then the list let Milk go.
            try await app.waitForState("Milk left the list for the basket", after: mark) { lists, _ in
                lists["basket"] == ["Milk"] && lists["chores"] == ["Eggs"]
            }
            let targeted = app.messages(from: mark).filter { $0.hasPrefix("basket targeted") }
            #expect(targeted.first == "basket targeted true" && targeted.last == "basket targeted false", "\(targeted)")
            #expect(app.events(from: mark).contains { $0.event == "highlightOn" })
        }
    }

    @Test(
        "A6: a label whose action declines the chores refuses the drop with the reason; the list keeps everything, the basket stays empty"
    )
    func declinedDropChangesNothing() async throws {
        try await withValues { app, pointer in
            let layout = try await app.settledSceneLayout()
            let eggs = try layout.frame("chores/Eggs")
            let basket = try layout.frame("basket")
            try pointer.click(at: (app.origin.x + basket.midX, app.origin.y + basket.midY))
            var mark = app.lineCount
            try pointer.key("ctrl+b")
            try await app.waitFor(GtkLine.self, "the basket declines", after: mark) { $0.message == "basket declines" }
            mark = app.lineCount
            try pointer.drag(from: eggs.center, to: basket.center, steps: 14)
            try await app.waitForDragEnd(after: mark)
            let failed = try await app.waitFor(FeedbackLine.self, "the drop refused", after: mark) {
                $0.event == "placeholderFailed"
            }
            #expect(failed.reason == "Basket did not take what was dropped.", "\(failed)")
            #expect(failed.failure == "forbidden")
            #expect(!app.events(from: mark).contains { $0.event == "committed" })
            #expect(!app.messages(from: mark).contains { $0.hasPrefix("basket took") })
            #expect(app.lists["chores"] == ["Milk", "Eggs"])
            #expect(app.lists["basket"] == [])
        }
    }

    @Test(
        "P1, S2: a label made draggable gives a new chore: dropped in the list it arrives as a chore (a copy: the label still gives it), dropped on the basket too; a chore dropped on a label that takes text arrives as its title"
    )
    func draggableLabelAndTextDestination() async throws {
        try await withValues { app, pointer in
            var layout = try await app.settledSceneLayout()
            let tea = try layout.frame("tea")
            let eggs = try layout.frame("chores/Eggs")
            var mark = app.lineCount
            try pointer.drag(from: tea.center, to: (eggs.midX, eggs.maxY + 12), steps: 16)
            let state = try await app.waitForState("Tea in the list", after: mark) { lists, _ in
                lists["chores"] == ["Milk", "Eggs", "Tea"]
            }
            #expect(state["basket"] == [])
            try await app.settleAfterDrag(from: mark)

            mark = app.lineCount
            let basket = try layout.frame("basket")
            try pointer.drag(from: tea.center, to: basket.center, steps: 14)
            try await app.waitFor(GtkLine.self, "the basket took Tea", after: mark) {
                $0.message.hasPrefix("basket took Tea at ") && $0.message.hasSuffix(" copy")
            }
            try await app.settleAfterDrag(from: mark)

            layout = try await app.settledSceneLayout()
            let milk = try layout.frame("chores/Milk")
            let note = try layout.frame("note")
            mark = app.lineCount
            try pointer.drag(from: milk.center, to: note.center, steps: 14)
            try await app.waitFor(GtkLine.self, "the note took Milk's title", after: mark) {
                $0.message == "note took 'Milk'"
            }
            try await app.waitForDragEnd(after: mark)
            #expect(app.lists["chores"] == ["Milk", "Eggs", "Tea"], "text is a copy: the list keeps Milk")
        }
    }
}
