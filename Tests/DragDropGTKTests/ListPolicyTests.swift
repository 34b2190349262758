import DragDropGTK
import DriverProtocol
import Foundation
import Testing
import WindowDriver

/// How a `DragListView` chooses what a drag between lists does (S2): the guidelines' default
/// (another container copies) unless the app sets `operationPolicy`, before or after
/// registering the list. Real windows on a private Xvfb, real pointer events.
@Suite(
    "GTK: a list's operation policy", .serialized,
    .enabled(
        if: Tools.missing == nil, "Xvfb is not installed (apt-get install xvfb, or `make deps`): GTK tests skipped.")
)
struct ListPolicyTests {
    /// Runs `body` with a fresh display and a fixture launched with `--list-policy policy`.
    func withFixture(policy: String, _ body: (FixtureApp, Pointer) async throws -> Void) async throws {
        let display = try XDisplay.startPrivate()
        defer { display.stop() }
        let app = try await FixtureApp.launch(on: display, arguments: ["--list-policy", policy])
        defer { app.stop() }
        try await body(app, Pointer(display: display))
    }

    /// Drags Milk below Slides (from Groceries to Work) and returns the events from the drag on,
    /// once the Work list shows `expectedWork`.
    func dragMilkToWork(
        _ app: FixtureApp, _ pointer: Pointer, expecting expectedWork: [String]
    ) async throws -> [FeedbackLine] {
        let layout = try await app.settledLayout()
        let milk = try layout.row("Milk", in: "groceries")
        let slides = try layout.row("Slides", in: "work")
        let mark = app.lineCount
        try pointer.drag(from: (milk.midX, milk.midY), to: (slides.midX, slides.maxY + 30))
        try await app.waitForState("Milk in Work", after: mark) { lists, _ in lists["work"] == expectedWork }
        return app.events(from: mark)
    }

    @Test("S2, S3: by default a row dragged to another list is copied there, with a copy badge, and stays in its list")
    func defaultCopiesBetweenLists() async throws {
        try await withFixture(policy: "automatic") { app, pointer in
            let events = try await dragMilkToWork(app, pointer, expecting: ["Report", "Slides", "Milk"])
            #expect(app.lists["groceries"] == ["Milk", "Eggs", "Bread", "Apples"])
            let committed = try #require(events.first { $0.event == "committed" })
            #expect(committed.destination == "work")
            #expect(committed.operation == "copy")
            #expect(events.contains { $0.event == "preview" && $0.badge == "copy" })
            #expect(!events.contains { $0.event == "sourceRemoved" })
        }
    }

    @Test("S2, S4: a list set to prefer move after it registered moves rows from another list, with no badge")
    func policySetAfterRegistrationMoves() async throws {
        try await withFixture(policy: "move-after-register") { app, pointer in
            let events = try await dragMilkToWork(app, pointer, expecting: ["Report", "Slides", "Milk"])
            try await app.waitForState("Milk gone from Groceries", after: 0) { lists, _ in
                lists["groceries"] == ["Eggs", "Bread", "Apples"]
            }
            let committed = try #require(events.first { $0.event == "committed" })
            #expect(committed.operation == "move")
            #expect(!events.contains { $0.event == "preview" && $0.badge == "copy" })
            let names = events.map(\.event)
            let commitIndex = try #require(names.firstIndex(of: "committed"))
            let removedIndex = try #require(names.firstIndex(of: "sourceRemoved"))
            #expect(commitIndex < removedIndex)
        }
    }
}
