import Foundation
import DriverProtocol
import WindowDriver
import ShowcaseModel
import Testing

/// Situation 8's drop from another app: a second showcase process, with its own data, is the
/// other app; its Files rows offer `text/uri-list` over XDND.
@Suite(
    "Showcase: files from another app", .serialized,
    .enabled(
        if: Tools.xvfb != nil && Tools.xdotool != nil,
        "Xvfb or xdotool is not installed (run `make deps`): showcase tests skipped.")
)
struct ShowcaseFilesTests: ShowcaseTesting {
    @Test(
        "S1, S2, A6, U1: a file dragged from another app (a second showcase) onto Pictures is copied in, same bytes, the other app's file untouched, as a copy; Ctrl+Z removes it from the disk"
    )
    func fileFromAnotherAppIsCopiedIn() throws {
        try withDataDirectory { here in
            try withDataDirectory { there in
                let display = try XDisplay.startPrivate()
                defer { display.stop() }
                let executable = try Self.showcaseExecutable()
                let app = try ShowcaseProcess.launch(
                    executable: executable, dataDirectory: here, display: display, pane: "files", size: (640, 720),
                    at: (0, 0))
                defer { app.stop() }
                let other = try ShowcaseProcess.launch(
                    executable: executable, dataDirectory: there, display: display, pane: "files", size: (640, 720),
                    at: (640, 0), extraArguments: ["--title", "Other Files"], windowName: "^Other Files$")
                defer { other.stop() }
                let keys = Pointer(display: display)
                let layout = try app.settledLayout(pane: "files")
                let otherLayout = try other.settledLayout(pane: "files")
                let original = try #require(app.state?.lists)
                let name = "Budget 2026.csv"
                let pictures = try #require(original["Pictures"])
                #expect(!pictures.contains(name))
                let source = URL(fileURLWithPath: there).appendingPathComponent("Files/Documents/\(name)")
                let sourceBytes = try Data(contentsOf: source)
                let copy = URL(fileURLWithPath: here).appendingPathComponent("Files/Pictures/\(name)")

                let target = try layout.list("Pictures")
                let mark = app.lineCount
                try keys.drag(
                    from: try otherLayout.row(name, in: "Documents").center, to: (target.midX, target.maxY - 40))
                try app.waitForState("the file copied into Pictures", after: mark, timeout: 15) {
                    Set($0.lists["Pictures"] ?? []) == Set(pictures + [name]) && $0.undo == "Undo Copy File"
                }
                let committed = app.events(from: mark).filter { $0.event == "committed" }
                #expect(
                    committed.count == 1 && committed.first?.operation == "copy", "S2: another app copies"
                )
                #expect(try Data(contentsOf: copy) == sourceBytes, "the same bytes arrived")
                #expect(try Data(contentsOf: source) == sourceBytes, "the other app's file is untouched")
                #expect(other.state?.lists["Documents"]?.contains(name) == true)

                // The drag began in the other app's window, which kept the keyboard: give it back
                // to this one (a click on its title bar, with a window manager).
                _ = try app.settledLayout(pane: "files")
                try app.focusWindow()
                let undo = app.lineCount
                try keys.key("ctrl+z")
                try app.waitForState("the copy undone", after: undo) { $0.lists["Pictures"] == pictures }
                #expect(!FileManager.default.fileExists(atPath: copy.path), "undo removed the copy from the disk")
            }
        }
    }
}
