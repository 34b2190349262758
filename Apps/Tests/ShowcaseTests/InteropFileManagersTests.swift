import Foundation
import DriverProtocol
import WindowDriver
import ShowcaseModel
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Files dragged from the showcase's Files pane into a file manager nobody here wrote (Thunar
/// 4.18, GTK 3, over X11 drag and drop), with the real pointer. Thunar moves whatever it is
/// offered a move for when both folders are on one file system, so what the drag offers is what
/// happens to the person's file: a copy unless they hold Shift (S2), and then the Files pane and
/// the status line must say what Thunar really did (S4). Both folders are in the test's data
/// directory: one file system.
@Suite(
    "Interop: file managers", .serialized,
    .enabled(if: PeerSession.missing == nil, "\(PeerSession.missing ?? ""): interop tests skipped.")
)
struct InteropFileManagersTests: InteropTesting {
    /// Thunar showing `folder` in a window of its own.
    static func thunar(_ folder: String) -> PeerProgram {
        PeerProgram(
            path: Tools.find("thunar") ?? "/usr/bin/thunar", arguments: [folder],
            windowName: "\(URL(fileURLWithPath: folder).lastPathComponent) - Thunar", accessibleName: "thunar",
            toolkit: "GTK 3")
    }

    static var thunarInstalled: Bool { thunar("/").isInstalled }

    /// How the showcase names Thunar: X11 says which app a window belongs to; on Wayland
    /// nothing does, so it is "another app".
    static var thunarName: String { DisplayBackend.current == .wayland ? "another app" : "Thunar" }

    /// The file dragged: "Packing list.md" from Documents, its bytes, where it lands in Thunar's
    /// folder, and where the drag starts and ends on the screen.
    struct FileTrip {
        let name: String
        let source: URL
        let bytes: Data
        let arrived: URL
        let start: ScreenPoint
        let end: ScreenPoint
    }

    /// Runs `body` with the showcase on its Files pane and Thunar showing an empty folder beside
    /// it, on the same file system.
    private func withThunar(_ body: (_ app: ShowcaseProcess, _ pointer: Pointer, _ trip: FileTrip) throws -> Void)
        throws
    {
        try withPeers(pane: "files") { session, app, pointer, data in
            let folder = URL(fileURLWithPath: data).appendingPathComponent("Elsewhere")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let thunar = try session.launch(Self.thunar(folder.path), at: Self.peerOrigin)
            let layout = try app.settledLayout(pane: "files")
            let name = "Packing list.md"
            let source = URL(fileURLWithPath: data).appendingPathComponent("Files/Documents/\(name)")
            // Thunar's folder view, below its toolbar and location bar.
            let end = (thunar.window.x + thunar.window.width * 0.6, thunar.window.y + thunar.window.height * 0.6)
            let trip = FileTrip(
                name: name, source: source, bytes: try Data(contentsOf: source), arrived: folder.appendingPathComponent(name),
                start: try layout.row(name, in: "Documents").center, end: end)
            try body(app, pointer, trip)
        }
    }

    /// The status line that ends the hand-off: what the person is told the other app did.
    private func handOffStatus(_ app: ShowcaseProcess, after mark: Int) throws -> String {
        try app.waitFor(StatusLine.self, "the hand-off's status line", after: mark, timeout: 15) {
            $0.text.hasPrefix("Copied '") || $0.text.hasPrefix("Moved '") || $0.text.hasPrefix("Not dropped")
        }.text
    }

    @Test(
        "S2, S4: a file dragged from Files into a Thunar folder on the same disk is copied: it stays in its folder, Thunar's folder gets the same bytes, and the status says copied",
        .enabled(if: thunarInstalled, "Thunar is not installed (apt-get install thunar).")
    )
    func fileIntoThunarIsCopied() throws {
        try withThunar { app, pointer, trip in
            let mark = app.lineCount
            try pointer.drag(from: trip.start, to: trip.end, steps: 14, pause: 0.5)
            #expect(try handOffStatus(app, after: mark) == "Copied '\(trip.name)' to \(Self.thunarName).")
            try waitUntil("the copy in Thunar's folder", timeout: 10) { (try? Data(contentsOf: trip.arrived)) == trip.bytes }
            #expect(try Data(contentsOf: trip.source) == trip.bytes, "S2: the file is still in its folder, unchanged")
            let outcome = try #require(app.events(from: mark).last { $0.event == "outcome" })
            #expect(outcome.outcome == "handedOff" && outcome.operation == "copy")
            #expect(outcome.app == (DisplayBackend.current == .wayland ? nil : "Thunar"))
            #expect(!app.events(from: mark).contains { $0.event == "sourceRemoved" })
            #expect(app.state?.lists["Documents"]?.contains(trip.name) == true, "the row stays")
        }
    }

    @Test(
        "S2, S4, U1: with Shift held a file dragged into Thunar is moved: it leaves its folder and its row, the status says moved, and Undo says it cannot be undone",
        .enabled(if: thunarInstalled, "Thunar is not installed (apt-get install thunar).")
    )
    func fileIntoThunarWithShiftIsMoved() throws {
        try withThunar { app, pointer, trip in
            let mark = app.lineCount
            // Shift pressed on the way, as a person does, and held over Thunar while the
            // pointer moves on (X11 tells the other app at the next motion).
            let (start, end) = (trip.start, trip.end)
            let halfway = (start.x + (end.x - start.x) / 2, start.y + (end.y - start.y) / 2)
            if DisplayBackend.current == .wayland {
                // Wayland: a drag states what it offers as it starts (docs/wayland.md), so Shift
                // is held from the first move on.
                try pointer.drag(from: start, to: end, steps: 14, holding: ["shift"], pause: 0.5)
            } else {
                try pointer.lift(at: start)
                try pointer.move(from: (start.x + 4, start.y + 4), to: halfway, steps: 6)
                try pointer.keyDown("shift")
                try pointer.move(from: halfway, to: end, steps: 8)
                try pointer.move(from: end, to: (end.x + 6, end.y + 4), steps: 3)
                usleep(400_000)
                try pointer.release()
                try pointer.keyUp("shift")
            }
            #expect(
                try handOffStatus(app, after: mark) == "Moved '\(trip.name)' to \(Self.thunarName).", "\(app.messages(from: mark))")
            try waitUntil("the file in Thunar's folder", timeout: 10) { (try? Data(contentsOf: trip.arrived)) == trip.bytes }
            #expect(!FileManager.default.fileExists(atPath: trip.source.path), "the file left its folder")
            try app.waitForState("the row gone", after: mark) { $0.lists["Documents"]?.contains(trip.name) == false }
            let state = try app.waitForState("the history saying it cannot be undone", after: mark) { !$0.undo.isEmpty }
            #expect(state.undo == "Can't Undo Move File to \(Self.thunarName)", "U1: the history says so: \(state.undo)")
            let events = app.events(from: mark)
            #expect(events.contains { $0.event == "sourceRemoved" })
            #expect(events.last { $0.event == "outcome" }?.operation == "move")
        }
    }

    /// Polls `condition` every 100 ms until it holds; fails after `timeout` seconds.
    private func waitUntil(_ what: String, timeout: Double, _ condition: () throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while try !condition() {
            guard Date() < deadline else { throw DriverError("Timed out after \(timeout) s waiting for \(what).") }
            usleep(100_000)
        }
    }
}
