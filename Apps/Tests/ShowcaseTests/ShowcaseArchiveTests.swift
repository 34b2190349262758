import DriverProtocol
import Foundation
import ShowcaseModel
import Testing
import WindowDriver

/// The Files pane's Archive (`--big-data on`): a real folder of 100,000 files, made on first run
/// off the main loop, listed by the virtualized `DragCollectionView`. Real pointer drags into and
/// out of it, with autoscroll; the folders are read back from the disk afterwards.
extension ShowcaseBigDataTests {
    /// The regular, visible files of `folder` under the data directory's `Files`.
    func filesOnDisk(_ data: String, _ folder: String) throws -> Set<String> {
        Set(
            try FileManager.default.contentsOfDirectory(atPath: "\(data)/Files/\(folder)").filter {
                !$0.hasPrefix(".")
            })
    }

    /// Waits until the Archive is made and listed (first run: its files are written then).
    func waitForArchive(_ app: ShowcaseProcess) throws {
        let start = Date()
        try app.waitForState("the Archive's 100,000 files listed", after: 0, timeout: 180) {
            $0.line.counts?["Archive"] == FilesArchive.fileCount
        }
        print("files: the Archive was listed \(String(format: "%.1f", Date().timeIntervalSince(start))) s after the window settled")
    }

    @Test(
        "A1, F8, S2, U1: a file dragged from Documents to the bottom edge of the Archive (100,000 real files) autoscrolls it deep into the folder and, let go there, is copied in: on disk the Archive holds 100,001 files with the same bytes, Documents keeps its file; Ctrl+Z removes the copy from the disk"
    )
    func fileIntoTheArchiveWithAutoscroll() throws {
        try withBigShowcase(pane: "files") { app, pointer, data in
            try waitForArchive(app)
            let name = "Budget 2026.csv"
            let archiveBefore = try filesOnDisk(data, "Archive")
            #expect(archiveBefore.count == FilesArchive.fileCount)
            let documents = try filesOnDisk(data, "Documents")
            let sourceBytes = try Data(contentsOf: URL(fileURLWithPath: "\(data)/Files/Documents/\(name)"))
            let layout = try app.settledLayout(pane: "files")
            let archive = try layout.list("Archive")
            let file = try layout.row(name, in: "Documents")

            let mark = app.lineCount
            try pointer.lift(at: file.center)
            try app.waitFor(FeedbackLine.self, "the lift", after: mark) { $0.event == "lifted" }
            let edge = (archive.midX, archive.maxY - 6)
            try pointer.move(from: file.center, to: edge, steps: 8)
            try app.waitFor(FeedbackLine.self, "autoscroll", after: mark) { $0.event == "autoscrollStarted" }
            try app.waitFor(FeedbackLine.self, "insertion past 200 files", after: mark, timeout: 20) {
                $0.event == "insertion" && ($0.index ?? 0) > 200
            }
            let spot = (archive.midX, archive.midY)
            try pointer.move(from: edge, to: spot, steps: 4)
            try app.waitFor(FeedbackLine.self, "autoscroll stopped", after: mark) { $0.event == "autoscrollStopped" }
            let release = app.lineCount
            try pointer.release()
            let dropped = try app.waitFor(FeedbackLine.self, "the drop", after: release) { $0.event == "dropped" }
            #expect((dropped.index ?? 0) > 100, "autoscroll carried the file past the first screens")
            #expect(dropped.operation == "copy", "S2: between folders a file is copied")
            try app.waitFor(FeedbackLine.self, "the commit", after: release, timeout: 20) { $0.event == "committed" }
            try app.waitForDragEnd(after: release)
            try app.waitForState("the copy listed", after: release, timeout: 20) {
                $0.line.counts?["Archive"] == FilesArchive.fileCount + 1 && $0.undo == "Undo Copy File"
            }
            try app.waitFor(LoopLine.self, "the main loop's report after the drop", after: release, timeout: 3)
            print(
                "files: longest main-loop iteration while autoscrolling the Archive \(longestStall(app, after: mark, before: release)) ms, with the drop \(longestStall(app, after: release)) ms"
            )

            // The disk: the file landed with its bytes, nothing else in the Archive changed, and
            // Documents still has it.
            #expect(try filesOnDisk(data, "Archive") == archiveBefore.union([name]), "the file landed, nothing lost")
            #expect(try Data(contentsOf: URL(fileURLWithPath: "\(data)/Files/Archive/\(name)")) == sourceBytes)
            #expect(try filesOnDisk(data, "Documents") == documents, "a copy: Documents keeps its file")

            _ = try app.settledLayout(pane: "files")  // the drag is over: keys reach the window
            let undo = app.lineCount
            try pointer.key("ctrl+z")
            try app.waitForState("the copy undone", after: undo, timeout: 20) {
                $0.line.counts?["Archive"] == FilesArchive.fileCount && $0.undo == ""
            }
            #expect(try filesOnDisk(data, "Archive") == archiveBefore, "U1: undo took the copy off the disk")
        }
    }

    @Test(
        "S2, S4, U1: the Archive's last file (End scrolls 100,000 rows there) dragged with Shift onto Pictures is moved: on disk Pictures has it with its bytes, the Archive one fewer and nothing else gone; Ctrl+Z puts it back in the Archive"
    )
    func fileOutOfTheArchive() throws {
        try withBigShowcase(pane: "files") { app, pointer, data in
            try waitForArchive(app)
            let last = FilesArchive.fileName(FilesArchive.fileCount)
            let archiveBefore = try filesOnDisk(data, "Archive")
            let picturesBefore = try filesOnDisk(data, "Pictures")
            let bytes = try Data(contentsOf: URL(fileURLWithPath: "\(data)/Files/Archive/\(last)"))
            let layout = try app.settledLayout(pane: "files")
            let pictures = try layout.list("Pictures")
            var mark = app.lineCount
            try pointer.click(at: try layout.row(FilesArchive.fileName(1), in: "Archive").center)
            try app.waitForState("the first file selected", after: mark) {
                $0.selected["Archive"] == [FilesArchive.fileName(1)]
            }
            mark = app.lineCount
            try pointer.key("End")
            try app.waitFor("the last file on screen", after: mark, timeout: 10) { _ in
                (app.latestLayout?.rows["Archive"] ?? []).contains { $0.title == last }
            }
            let file = try app.settledLayout(pane: "files").row(last, in: "Archive")

            mark = app.lineCount
            try pointer.lift(at: file.center)
            try app.waitFor(FeedbackLine.self, "the lift", after: mark) { $0.event == "lifted" }
            try pointer.keyDown("shift")
            try pointer.move(from: file.center, to: (pictures.midX, pictures.midY), steps: 8)
            try app.waitFor(FeedbackLine.self, "a move over Pictures", after: mark) {
                $0.event == "proposal" && $0.destination == layout.targets["Pictures"] && $0.operation == "move"
            }
            let release = app.lineCount
            try pointer.release()
            try pointer.keyUp("shift")
            try app.waitFor(FeedbackLine.self, "the commit", after: release) { $0.event == "committed" }
            try app.waitForDragEnd(after: release)
            try app.waitForState("the move listed", after: release, timeout: 20) {
                $0.line.counts?["Archive"] == FilesArchive.fileCount - 1 && $0.undo == "Undo Move File"
            }
            #expect(try filesOnDisk(data, "Pictures") == picturesBefore.union([last]))
            #expect(try Data(contentsOf: URL(fileURLWithPath: "\(data)/Files/Pictures/\(last)")) == bytes)
            #expect(try filesOnDisk(data, "Archive") == archiveBefore.subtracting([last]), "only that file left")

            _ = try app.settledLayout(pane: "files")  // the drag is over: keys reach the window
            let undo = app.lineCount
            try pointer.key("ctrl+z")
            try app.waitForState("the move undone", after: undo, timeout: 20) {
                $0.line.counts?["Archive"] == FilesArchive.fileCount && $0.undo == ""
            }
            #expect(try filesOnDisk(data, "Archive") == archiveBefore, "U1: the file is back in the Archive")
            #expect(try filesOnDisk(data, "Pictures") == picturesBefore)
        }
    }
}
