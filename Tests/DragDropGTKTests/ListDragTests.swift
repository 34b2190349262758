import DragDropGTK
import Foundation
import DriverProtocol
import WindowDriver
import Testing

/// Real GTK windows on a private Xvfb, driven by real pointer events (XTEST through xdotool).
/// Each test starts its own X server and fixture app and stops both at the end.
@Suite(
    "GTK: dragging rows in one window", .serialized,
    .enabled(
        if: Tools.missing == nil, "Xvfb is not installed (apt-get install xvfb, or `make deps`): GTK tests skipped.")
)
struct ListDragTests {
    static let original = ["groceries": ["Milk", "Eggs", "Bread", "Apples"], "work": ["Report", "Slides"]]

    /// Runs `body` with a fresh display and fixture, and stops them whatever happens.
    func withFixture(_ body: (FixtureApp, Pointer) async throws -> Void) async throws {
        let display = try XDisplay.startPrivate()
        defer { display.stop() }
        let app = try await FixtureApp.launch(on: display)
        defer { app.stop() }
        try await body(app, Pointer(display: display))
    }

    func eventNames(_ events: [FeedbackLine]) -> [String] { events.map(\.event) }

    /// The highlights on after each event; fails if two are ever on at once (F5) or one stays
    /// on at the end (F4).
    func checkOneHighlightAtATime(_ events: [FeedbackLine]) {
        var on: Set<String> = []
        for event in events {
            guard let target = event.target else { continue }
            switch event.event {
            case "highlightOn": on.insert(target)
            case "highlightOff": on.remove(target)
            default: continue
            }
            #expect(on.count <= 1, "F5: several highlights at once: \(on)")
        }
        #expect(on.isEmpty, "F4: highlights left on after the drop: \(on)")
    }

    @Test(
        "S1, S2, F6, F8, U1: dragging a row within its list reorders it (a move), and Ctrl+Z / Ctrl+Shift+Z undo and redo it"
    )
    func reorderWithinList() async throws {
        try await withFixture { app, pointer in
            #expect(app.lists == Self.original)
            let layout = try await app.settledLayout()
            let milk = try layout.row("Milk", in: "groceries")
            let bread = try layout.row("Bread", in: "groceries")
            let apples = try layout.row("Apples", in: "groceries")
            let mark = app.lineCount
            // Between Bread and Apples: insertion index 3.
            try pointer.drag(from: (milk.midX, milk.midY), to: (milk.midX, (bread.midY + apples.midY) / 2))
            try await app.waitForState("the reordered list", after: mark) { lists, _ in
                lists["groceries"] == ["Eggs", "Bread", "Milk", "Apples"]
            }
            #expect(app.lists["work"] == ["Report", "Slides"])
            let events = app.events(from: mark)
            let committed = try #require(events.first { $0.event == "committed" })
            #expect(committed.destination == "groceries")
            #expect(committed.operation == "move")
            #expect(committed.index == 3)
            // F6: no highlight over the source container it never left; F8: rows made room.
            #expect(!eventNames(events).contains("highlightOn"))
            #expect(events.contains { $0.event == "insertion" && $0.index == 3 })
            #expect(events.last { $0.event == "outcome" }?.outcome == "completed")

            // Type once GTK's drag has ended and the window settled: on X11 without a window
            // manager, keys pressed within ~100 ms of drag-end were seen to be lost.
            try await app.waitForDragEnd(after: mark)
            _ = try await app.settledLayout()
            let beforeUndo = app.lineCount
            try pointer.key("ctrl+z")
            try await app.waitForState("the undone reorder", after: beforeUndo) { lists, _ in
                lists == Self.original
            }
            let beforeRedo = app.lineCount
            try pointer.key("ctrl+shift+z")
            try await app.waitForState("the redone reorder", after: beforeRedo) { lists, _ in
                lists["groceries"] == ["Eggs", "Bread", "Milk", "Apples"]
            }
        }
    }

    @Test(
        "S1, S2, S4: a row dragged to the other list moves there (lists prefer move, as reminders do); the source loses it only after the commit"
    )
    func moveToOtherList() async throws {
        try await withFixture { app, pointer in
            let layout = try await app.settledLayout()
            let milk = try layout.row("Milk", in: "groceries")
            let slides = try layout.row("Slides", in: "work")
            let mark = app.lineCount
            try pointer.drag(from: (milk.midX, milk.midY), to: (slides.midX, slides.maxY + 30))
            try await app.waitForState("Milk in Work", after: mark) { lists, _ in
                lists["work"] == ["Report", "Slides", "Milk"]
            }
            #expect(app.lists["groceries"] == ["Eggs", "Bread", "Apples"])
            let names = eventNames(app.events(from: mark))
            let committed = try #require(app.events(from: mark).first { $0.event == "committed" })
            #expect(committed.destination == "work")
            #expect(committed.operation == "move")
            let commitIndex = try #require(names.firstIndex(of: "committed"))
            let removedIndex = try #require(names.firstIndex(of: "sourceRemoved"))
            #expect(commitIndex < removedIndex)
            #expect(names.contains("highlightOn"))
            checkOneHighlightAtATime(app.events(from: mark))
        }
    }

    @Test("S2, S3: holding Ctrl while dragging to the other list copies, with a copy badge")
    func ctrlCopiesToOtherList() async throws {
        try await withFixture { app, pointer in
            let layout = try await app.settledLayout()
            let eggs = try layout.row("Eggs", in: "groceries")
            let report = try layout.row("Report", in: "work")
            let mark = app.lineCount
            // On Wayland Ctrl goes down as the drag starts (Pointer.drag, docs/wayland.md).
            try pointer.drag(from: (eggs.midX, eggs.midY), to: (report.midX, report.maxY + 2), holding: ["ctrl"])
            try await app.waitForState("a copy of Eggs in Work", after: mark) { lists, _ in
                lists["work"] == ["Report", "Eggs", "Slides"]
            }
            #expect(app.lists["groceries"] == Self.original["groceries"])
            let events = app.events(from: mark)
            #expect(events.first { $0.event == "committed" }?.operation == "copy")
            #expect(events.contains { $0.event == "preview" && $0.badge == "copy" })
            #expect(!eventNames(events).contains("sourceRemoved"))
        }
    }

    @Test("F1: pressing and moving 2 pixels then releasing does not start a drag (it is a click)")
    func belowThresholdIsAClick() async throws {
        try await withFixture { app, pointer in
            let layout = try await app.settledLayout()
            let eggs = try layout.row("Eggs", in: "groceries")
            let mark = app.lineCount
            try pointer.press(at: (eggs.midX, eggs.midY), movingBy: 2, 0)
            // The click reached GTK: it selected the row...
            try await app.waitForState("Eggs selected by the click", after: mark) { _, selected in
                selected["groceries"] == ["Eggs"]
            }
            try await Task.sleep(for: .milliseconds(300))
            // ...and no drag started, in GTK or in the engine.
            #expect(!app.events(from: mark).contains { $0.event == "lifted" })
            #expect(!app.messages(from: mark).contains { $0.hasPrefix("drag-begin") })
            #expect(app.lists == Self.original)
        }
    }

    @Test("F4, F5, F6: mid-drag, the screen shows the highlight inside the destination list only")
    func highlightOnScreen() async throws {
        try await withFixture { app, pointer in
            let layout = try await app.settledLayout()
            let groceries = try layout.list("groceries")
            let work = try layout.list("work")
            let fill = DragStyles.highlightFill
            let before = try Screenshot.capture(app.display)
            #expect(before.count(fill, in: work) == 0)
            #expect(before.count(fill, in: groceries) == 0)

            let milk = try layout.row("Milk", in: "groceries")
            let mark = app.lineCount
            try pointer.drag(from: (milk.midX, milk.midY), to: (work.midX, work.midY), release: false)
            try await app.waitFor(FeedbackLine.self, "the Work highlight", after: mark) {
                $0.event == "highlightOn" && $0.target == "work"
            }
            try await Task.sleep(for: .milliseconds(250))  // let GTK paint the frame
            let during = try Screenshot.capture(app.display)
            let inWork = during.count(fill, in: work)
            let inGroceries = during.count(fill, in: groceries)
            // Most of Work's 292×364 area shows the fill (the drag image covers a row's worth).
            #expect(inWork > Int(work.width * work.height / 2), "highlight pixels in Work: \(inWork)")
            #expect(inGroceries == 0, "highlight pixels in Groceries: \(inGroceries)")

            let release = app.lineCount
            try pointer.release()
            try await app.waitFor(FeedbackLine.self, "the drop's outcome", after: release) { $0.event == "outcome" }
            try await Task.sleep(for: .milliseconds(250))
            let after = try Screenshot.capture(app.display)
            #expect(after.count(fill, in: work) == 0, "F4: the highlight disappears at the drop")
        }
    }

    @Test("F7: a row released outside every window returns to its source and nothing changes")
    func dropOutsideReturns() async throws {
        try await withFixture { app, pointer in
            let layout = try await app.settledLayout()
            let bread = try layout.row("Bread", in: "groceries")
            let mark = app.lineCount
            try pointer.drag(from: (bread.midX, bread.midY), to: (1000, 700))
            let outcome = try await app.waitFor(FeedbackLine.self, "the outcome", after: mark) { $0.event == "outcome" }
            #expect(outcome.outcome == "returnToSource")
            try await app.waitForDragEnd(after: mark)
            #expect(app.lists == Self.original)
            #expect(!eventNames(app.events(from: mark)).contains("committed"))
        }
    }
}
