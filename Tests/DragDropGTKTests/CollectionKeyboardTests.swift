import DragDrop
import DragDropGTK
import DriverProtocol
import Foundation
import Testing
import WindowDriver

/// Keyboard drop points from the model in a virtualized grid (issue 12, C4), under real keys:
/// the folders scrolled out of view are drop points too, reached in order, each scrolled into
/// view and spoken by name, and a drop on one goes into it.
@Suite(
    "GTK: keyboard drop points off screen in a virtualized grid", .serialized,
    .enabled(
        if: Tools.missing == nil, "Xvfb is not installed (apt-get install xvfb, or `make deps`): GTK tests skipped.")
)
struct CollectionKeyboardTests {
    /// Presses `key` and returns the drop point the keyboard focus landed on, and what was
    /// said about it.
    static func step(_ key: String, _ app: FixtureApp, _ pointer: Pointer) async throws -> (
        target: String?, said: String?
    ) {
        let before = app.lineCount
        try pointer.key(key)
        let focus = try await app.waitFor(FeedbackLine.self, "the focus after \(key)", after: before) {
            $0.event == "keyboardFocus" && $0.target != nil
        }
        let said = try await app.waitFor(FeedbackLine.self, "the focus spoken after \(key)", after: before) {
            $0.event == "announcement"
        }
        return (focus.target, said.text)
    }

    @Test(
        "C4: in a grid of 20,000 tiles Tab reaches the folders off screen in order, each scrolled into view and named; Shift+Tab goes back; Return drops into the folder reached"
    )
    func foldersOffScreen() async throws {
        try await CollectionViewTests.withCollections(["--grid", "--count", "20000"]) { app, pointer in
            let layout = try await app.settledSceneLayout()
            let file0 = try layout.frame("archive/File 0")
            #expect((try? layout.frame("archive/Album 1")) == nil, "Album 1 (tile 1005) starts off screen")
            var mark = app.lineCount
            try pointer.click(at: (file0.midX, file0.midY))
            try await CollectionViewTests.waitFor(app, "archive", "File 0 selected", after: mark) {
                $0.selectedHead == ["File 0"]
            }
            mark = app.lineCount
            try pointer.key("ctrl+shift+d")
            let lifted = try await app.waitFor(FeedbackLine.self, "the keyboard pick-up", after: mark) {
                $0.event == "lifted"
            }
            #expect(lifted.items == ["a0"])
            // The archive, the inbox and the 20 albums, 19 of them off screen.
            let picked = try await app.waitFor(FeedbackLine.self, "the pick-up announced", after: mark) {
                $0.event == "announcement"
            }
            #expect(picked.text == "Picked up 'File 0'. 22 drop points; press Tab to choose one.")
            let archive = try layout.frame("archive")
            var steps: [String?] = []
            var said: [String?] = []
            var outlines: [Int] = []
            for key in ["Tab", "Tab", "Tab", "Tab", "shift+Tab"] {
                let step = try await Self.step(key, app, pointer)
                steps.append(step.target)
                said.append(step.said)
                try await Task.sleep(for: .milliseconds(300))
                outlines.append(try Screenshot.capture(app.display).count(KeyboardStyles.focusOutline, in: archive))
            }
            // One outline at a time: a folder scrolled away leaves none on the tile widget GTK
            // recycles for another item (Album 0's outline, on screen, is the measure).
            for (index, count) in outlines.enumerated().dropFirst(2) {
                #expect(
                    Double(count) > Double(outlines[1]) * 0.6 && Double(count) < Double(outlines[1]) * 1.4,
                    "step \(index): \(count) outline pixels, one outline has \(outlines[1])")
            }
            // The archive, Album 0 on screen, Albums 1 and 2 (tiles 1005 and 2005) off screen,
            // then back to Album 1.
            #expect(steps == ["archive", "a5", "a1005", "a2005", "a1005"])
            #expect(said[2] == "Over Album 1, will move.")
            #expect(said[3] == "Over Album 2, will move.")
            #expect(said[4] == "Over Album 1, will move.")
            // The grid scrolled to show it: 1005 tiles in 4 columns is about 251 rows down.
            let shown = try await CollectionViewTests.waitFor(app, "archive", "Album 1 scrolled into view", after: mark)
            { $0.offset > 2_000 }
            #expect(shown.count == 20_000)
            // What a person sees: the focus outline on the folder now in view, in the grid.
            var outline = 0
            for _ in 0..<20 where outline < 100 {
                outline = try Screenshot.capture(app.display).count(KeyboardStyles.focusOutline, in: archive)
                if outline < 100 { try await Task.sleep(for: .milliseconds(100)) }
            }
            #expect(outline >= 100, "the keyboard focus outline shows on Album 1 in the grid (\(outline) pixels)")
            let before = app.lineCount
            try pointer.key("Return")
            let dropped = try await CollectionViewTests.waitFor(app, "archive", "File 0 in Album 1", after: before) {
                $0.folders["Album 1"] == 1 && $0.count == 19_999
            }
            #expect(dropped.folders["Album 2"] == 0)
            #expect(dropped.head.first == "File 1")
            let committed = try await app.waitFor(FeedbackLine.self, "the commit", after: before) {
                $0.event == "committed"
            }
            #expect(committed.destination == "a1005")
        }
    }
}
