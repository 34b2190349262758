import DragDropGTK
import Foundation
import DriverProtocol
import WindowDriver
import Testing

/// The host's announcer on the accessibility bus (C4), in the fixture's `--a11y` scene: GTK's
/// AT-SPI backend on, `Tools/screen-reader-listener.py` beside the app in one private D-Bus
/// session, keeping what a screen reader speaks (see ShowcaseScreenReaderTests for whole drags
/// in the showcase).
@Suite(
    "GTK: screen readers", .serialized,
    .enabled(
        if: Tools.missing == nil, "Xvfb is not installed (apt-get install xvfb, or `make deps`): GTK tests skipped."),
    .enabled(if: ScreenReader.missing == nil, "\(ScreenReader.missing ?? ""): screen-reader tests skipped.")
)
struct ScreenReaderTests {
    func withFixture(filePath: String = #filePath, _ body: (FixtureApp, Pointer, ScreenReader) async throws -> Void)
        async throws
    {
        var root = URL(fileURLWithPath: filePath)
        for _ in 0..<3 { root.deleteLastPathComponent() }  // file, DragDropGTKTests/, Tests/
        let reader = try ScreenReader(packageRoot: root)
        let display = try XDisplay.startPrivate()
        defer { display.stop() }
        let app = try await FixtureApp.launch(on: display, arguments: ["--a11y"], screenReader: reader)
        defer { app.stop() }
        try await body(app, Pointer(display: display), reader)
    }

    @Test(
        "C4: a sentence said twice in a row is heard twice (a screen reader skips a description equal to the last one); a cancelled keyboard drag is heard to its end"
    )
    func repeatedAndCancelled() async throws {
        try await withFixture { app, pointer, reader in
            // The Edit button has the focus at launch (its name may not be readable yet when the
            // focus event comes): nothing to pick up there, twice.
            try reader.waitUntil("the focus in the window") { lines in lines.contains { $0.kind == "focus" } }
            let nothing = "Nothing to pick up: select an item first."
            for count in 1...2 {
                try pointer.key("ctrl+shift+d")
                try reader.waitUntilHeard(nothing, count: count)
            }

            let layout = try await app.settledLayout()
            let milk = try layout.row("Milk", in: "groceries")
            var mark = app.lineCount
            try pointer.click(at: milk.center)
            try await app.waitForState("Milk selected", after: mark) { _, selected in selected["groceries"] == ["Milk"]
            }
            let sentences = [
                "Picked up 'Milk'. 2 drop points; press Tab to choose one.", "Over Groceries, will move.",
                "Not dropped: The drag was cancelled.",
            ]
            for (key, sentence) in zip(["ctrl+shift+d", "Tab", "Escape"], sentences) {
                mark = app.lineCount
                try pointer.key(key)
                try await app.waitFor(LiveLine.self, "the status '\(sentence)'", after: mark) { $0.text == sentence }
                try reader.waitUntilHeard(sentence)
            }
            let spoken = Set(sentences + [nothing])
            #expect(reader.heard.filter(spoken.contains) == [nothing, nothing] + sentences)
            let speakers = reader.lines.filter { $0.kind == "heard" && spoken.contains($0.text) }
            #expect(
                speakers.allSatisfy { $0.via == "description" },
                "each sentence is a change of the focused widget's description: \(speakers)")
            #expect(
                Set(speakers.prefix(2).map(\.name)).count == 1
                    && speakers.dropFirst(2).allSatisfy { $0.name == "Milk" },
                "the same focused widget says both, then the picked-up row: \(speakers)")
        }
    }
}
