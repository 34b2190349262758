import Foundation
import DriverProtocol
import WindowDriver
import Testing

/// What a person using a screen reader hears while dragging (C4): the showcase runs with its
/// accessibility on, in one private D-Bus session with `Tools/screen-reader-listener.py`, which
/// listens on the accessibility bus (AT-SPI) and keeps what a screen reader speaks: the name
/// and description of a widget taking the focus, and changes of the focused widget's name or
/// description (Orca's rules). GTK 4.8 has no announcement call; the host speaks each sentence
/// as the focused widget's description.
@Suite(
    "Showcase: screen readers", .serialized,
    .enabled(
        if: Tools.xvfb != nil && Tools.xdotool != nil,
        "Xvfb or xdotool is not installed (run `make deps`): showcase tests skipped."),
    .enabled(if: ScreenReader.missing == nil, "\(ScreenReader.missing ?? ""): screen-reader tests skipped.")
)
struct ShowcaseScreenReaderTests: ShowcaseTesting {
    /// What every drag source describes itself with (`GtkDragHost.sourceAccessibleDescription`).
    static let sourceDescription =
        "Press Control+Shift+D to pick up, Tab to choose a drop point, Return to drop, Escape to cancel."

    /// The showcase on `pane` with a screen reader listening.
    func withScreenReader(
        pane: String, filePath: String = #filePath,
        _ body: (_ app: ShowcaseProcess, _ input: Pointer, _ reader: ScreenReader) throws -> Void
    ) throws {
        var root = URL(fileURLWithPath: filePath)
        // file, ShowcaseTests/, Tests/, Apps/: the listener is in the repository's Tools/.
        for _ in 0..<4 { root.deleteLastPathComponent() }
        let reader = try ScreenReader(packageRoot: root)
        try withDataDirectory { data in
            let display = try XDisplay.startPrivate()
            defer { display.stop() }
            let app = try ShowcaseProcess.launch(
                executable: try Self.showcaseExecutable(), dataDirectory: data, display: display, pane: pane,
                screenReader: reader)
            defer { app.stop() }
            _ = try app.settledLayout(pane: pane)
            try body(app, Pointer(display: display), reader)
        }
    }

    /// The engine's announcements printed at or after `mark`, in order.
    func announcements(_ app: ShowcaseProcess, from mark: Int) -> [String] {
        app.events(from: mark).filter { $0.event == "announcement" }.compactMap { $0.text }
    }

    /// Checks that the screen reader heard exactly `announced`, in order: of the sentences it
    /// heard, those the app announced are these, none missing, none twice.
    func expectHeard(_ announced: [String], by reader: ScreenReader, sourceLocation: SourceLocation = #_sourceLocation)
    {
        let sentences = Set(announced)
        let heard = reader.heard.filter(sentences.contains)
        #expect(
            heard == announced,
            "heard (announcements only) vs announced; everything the listener saw:\n\(reader.lines.map(\.description).joined(separator: "\n"))",
            sourceLocation: sourceLocation)
    }

    @Test(
        "C4: a keyboard drag in Reminders is heard on the accessibility bus: the pick-up, each drop point, the drop and the undo, in order, each once; the row gets its own description back once the focus leaves it"
    )
    func keyboardDragIsHeard() throws {
        try withScreenReader(pane: "reminders") { app, keys, reader in
            let milk = "Oat milk"
            try press("Tab", untilFocusOn: milk, app, keys)
            let start = app.lineCount
            let sentences = [
                "Picked up '\(milk)'. 3 drop points; press Tab to choose one.", "Over Groceries, will move.",
                "Over Work, will move.",
            ]
            try press("ctrl+shift+d", expecting: sentences[0], app, keys)
            try press("Tab", expecting: sentences[1], app, keys)
            try press("Tab", expecting: sentences[2], app, keys)
            var mark = app.lineCount
            try keys.key("Return")
            try app.waitForState("'\(milk)' in Work", after: mark) { $0.lists["Work"]?.last == milk }
            try waitForStatus("Moved '\(milk)' to Work.", after: mark, app)
            try reader.waitUntilHeard("Moved '\(milk)' to Work.")

            _ = try app.settledLayout(pane: "reminders")
            mark = app.lineCount
            try keys.key("ctrl+z")
            try app.waitForState("the undone move", after: mark) { $0.lists["Groceries"]?.first == milk }
            try reader.waitUntilHeard("Undid Move Reminder.")
            let announced = announcements(app, from: start)
            #expect(announced == sentences + ["Moved '\(milk)' to Work.", "Undid Move Reminder."])
            expectHeard(announced, by: reader)

            // The focused row speaks the sentences; once the focus leaves it and comes back, it
            // describes itself again (no stale "Undid…").
            let holder = try #require(reader.lines.last { $0.kind == "focus" }?.name)
            _ = try app.settledLayout(pane: "reminders")
            try press("Down", untilFocusOnA: "GtkListItemWidget", app, keys, limit: 1)
            let back = reader.lines.count
            try press("Up", untilFocusOn: holder, app, keys, limit: 1)
            // The description is heard after the focus event, a moment later on a busy machine.
            try reader.waitUntil("'\(holder)' focused again and describing itself") { lines in
                lines.dropFirst(back).drop { !($0.kind == "focus" && $0.name == holder) }
                    .contains { $0.kind == "heard" && $0.via == "focus-description" }
            }
            let refocused = reader.lines.dropFirst(back).drop { !($0.kind == "focus" && $0.name == holder) }
            let description = refocused.first { $0.kind == "heard" && $0.via == "focus-description" }?.text
            #expect(description == Self.sourceDescription, "what '\(holder)' says of itself when focused again")
        }
    }

    @Test(
        "C4: a pointer drag in Reminders is heard: the pick-up, the drop points it crossed and the drop, in order, each once"
    )
    func pointerDragIsHeard() throws {
        try withScreenReader(pane: "reminders") { app, pointer, reader in
            let layout = try app.settledLayout(pane: "reminders")
            let milk = "Oat milk"
            let work = try #require(layout.rows["Work"]?.first?.frame)
            let start = app.lineCount
            try pointer.drag(from: try layout.row(milk, in: "Groceries").center, to: (work.midX, work.y + 6))
            try app.waitForState("'\(milk)' in Work", after: start) { $0.lists["Work"]?.first == milk }
            try reader.waitUntilHeard("Moved '\(milk)' to Work.")
            let announced = announcements(app, from: start)
            #expect(announced.first == "Picked up '\(milk)'.")
            #expect(announced.last == "Moved '\(milk)' to Work.")
            #expect(announced.dropLast().last == "Over Work, will move.")
            expectHeard(announced, by: reader)
        }
    }
}
