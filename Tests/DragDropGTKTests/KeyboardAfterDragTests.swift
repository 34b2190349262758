import DragDropGTK
import Foundation
import DriverProtocol
import WindowDriver
import Testing

/// The keyboard after a pointer drag (K12, C4, U1), on the display backend the run uses
/// (`DRAGDROP_DISPLAY_BACKEND`). weston takes the keyboard away from every app when a drag
/// starts and gives it to nobody when the drag ends; the host gives it back to the window
/// (`KeyboardAfterDrag`). On X11 the keyboard never leaves.
@Suite(
    "GTK: the keyboard after a drag", .serialized,
    .enabled(
        if: Tools.missing == nil, "Xvfb is not installed (apt-get install xvfb, or `make deps`): GTK tests skipped.")
)
struct KeyboardAfterDragTests {
    static let original = ["groceries": ["Milk", "Eggs", "Bread", "Apples"], "work": ["Report", "Slides"]]

    @Test(
        "K12, U1: right after a pointer drop, with no click, the window has the keyboard: Ctrl+Z undoes the drop and Ctrl+Shift+Z redoes it"
    )
    func keysRightAfterADrop() async throws {
        let display = try XDisplay.startPrivate()
        defer { display.stop() }
        let app = try await FixtureApp.launch(on: display, arguments: ["--a11y"])
        defer { app.stop() }
        let pointer = Pointer(display: display)
        let layout = try await app.settledLayout()
        let milk = try layout.row("Milk", in: "groceries")
        let work = try layout.list("work")
        var mark = app.lineCount
        try pointer.drag(from: milk.center, to: (work.midX, work.maxY - 20))
        try await app.waitForState("Milk in Work", after: mark) { lists, _ in lists["work"]?.last == "Milk" }
        try await app.waitForDragEnd(after: mark)
        if display.backend == .wayland {
            // weston kept the keyboard: the host took it back by itself, with no click.
            let back = try await app.waitFor(GtkLine.self, "the keyboard back in the window", after: mark) {
                $0.message.hasPrefix("keyboard: back in the window after the drag")
            }
            #expect(back.message == "keyboard: back in the window after the drag: true")
        } else {
            #expect(!app.messages(from: mark).contains { $0.hasPrefix("keyboard:") }, "X11 keeps the keyboard")
        }

        // A person's next key, a moment after letting go (no wait for the rows to settle).
        mark = app.lineCount
        try pointer.key("ctrl+z")
        try await app.waitForState("the drop undone", after: mark) { lists, _ in lists == Self.original }

        // And the next: Ctrl+Shift+Z moves it again.
        mark = app.lineCount
        try pointer.key("ctrl+shift+z")
        try await app.waitForState("the drop redone", after: mark) { lists, _ in lists["work"]?.last == "Milk" }
    }
}
