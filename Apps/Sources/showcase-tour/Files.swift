import DragDrop
import Foundation
import DriverProtocol
import WindowDriver

#if canImport(Glibc)
    import Glibc
#endif

extension Tour {
    /// The Files pane's folders on disk (`<data dir>/Files`).
    var filesRoot: URL {
        URL(fileURLWithPath: databasePath).deletingLastPathComponent().appendingPathComponent("Files")
    }

    /// The visible regular files of a folder on disk, as a set.
    func filesOnDisk(_ folder: String) -> Set<String> {
        let url = filesRoot.appendingPathComponent(folder)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        return Set(
            names.filter { name in
                var isDirectory: ObjCBool = false
                return !name.hasPrefix(".")
                    && FileManager.default.fileExists(
                        atPath: url.appendingPathComponent(name).path, isDirectory: &isDirectory)
                    && !isDirectory.boolValue
            })
    }

    func checkDisk(_ shown: [String: [String]]) throws {
        for (folder, names) in shown where folder != "Drop Box" {
            try check(
                filesOnDisk(folder) == Set(names),
                "the disk's '\(folder)' has \(filesOnDisk(folder).sorted()), the window shows \(names)")
        }
    }

    /// Whether `path` (relative to the Files root) is a folder on disk.
    func folderOnDisk(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(
            atPath: filesRoot.appendingPathComponent(path).path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// T1, T3, T6: the folder tree. Documents/Trips dragged onto Pictures moves there on disk;
    /// Documents/Projects held over 2026, inside it, is refused with the reason; undo moves Trips
    /// back.
    func folderTree() throws -> String {
        let start = try require(app.state?.line.folders, "the folder tree")
        try check(folderOnDisk("Documents/Trips") && folderOnDisk("Documents/Projects/2026"), "the seeded folders")
        var layout = try app.settledLayout(pane: "files")
        let trips = try layout.row("Documents/Trips", in: "Folders")
        let pictures = try layout.row("Pictures", in: "Folders")
        let picturesRow = "folder:Pictures"
        var mark = app.lineCount
        try pointer.drag(from: (trips.x + 60, trips.midY), to: (pictures.maxX - 24, pictures.midY), release: false)
        try app.waitFor(FeedbackLine.self, "Pictures as the folder Trips goes into", after: mark) {
            $0.event == "outlineDrop" && $0.place == "on" && $0.row == picturesRow
        }
        usleep(300_000)
        try screenshot("08-files-folder-tree")
        var release = app.lineCount
        try pointer.release()
        let moved = try app.waitFor(StateLine.self, "Trips inside Pictures", after: release) {
            $0.pane == "files" && $0.folders?.contains("  Trips") == true
                && $0.folders?.firstIndex(of: "  Trips")
                    == ($0.folders?.firstIndex(of: "Pictures")).map { $0 + 1 }
        }
        try check(
            folderOnDisk("Pictures/Trips") && !folderOnDisk("Documents/Trips"),
            "Trips did not move to Pictures on disk: \(moved.folders ?? [])")
        try settleAfterDrag(mark, pane: "files")

        // T3: Projects cannot go inside 2026, which is inside it.
        layout = try app.settledLayout(pane: "files")
        let projects = try layout.row("Documents/Projects", in: "Folders")
        let year = try layout.row("Documents/Projects/2026", in: "Folders")
        mark = app.lineCount
        try pointer.drag(from: (projects.x + 60, projects.midY), to: (year.maxX - 24, year.midY), release: false)
        let reason = said("'Projects' cannot go inside '2026', which is inside it.") {
            OutlineRefusal.intoDescendant(item: "Projects", descendant: "2026").description
        }
        try app.waitFor(FeedbackLine.self, "Projects refused inside 2026", after: mark) {
            $0.event == "proposal" && $0.operation == "forbidden" && $0.reason == reason
        }
        try pointer.release()
        try settleAfterDrag(mark, pane: "files", flewBack: true)
        try check(folderOnDisk("Documents/Projects/2026"), "the refused drop changed the disk")

        // T6: undo moves Trips back into Documents.
        release = app.lineCount
        try pointer.key("ctrl+z")
        try app.waitFor(StateLine.self, "Trips back in Documents", after: release) {
            $0.pane == "files" && $0.folders == start
        }
        try check(
            folderOnDisk("Documents/Trips") && !folderOnDisk("Pictures/Trips"), "undo did not move Trips back on disk")
        return "moved the folder 'Trips' from 'Documents' into 'Pictures' in the folder tree (on disk) and back by "
            + "undo; 'Projects' was refused inside '2026' (\(reason))"
    }

    func bytes(_ folder: String, _ name: String) -> Data? {
        FileManager.default.contents(atPath: filesRoot.appendingPathComponent(folder).appendingPathComponent(name).path)
    }

    /// Waits for the confirmation sheet (the host says so on its `gtk` lines).
    func waitForConfirmation(after mark: Int) throws {
        try app.waitFor(GtkLine.self, "the confirmation sheet", after: mark) {
            $0.message.hasPrefix("confirmation shown")
        }
        usleep(300_000)  // let GTK map the sheet and focus Cancel
    }

    /// 8. Files: real folders. Dragging to another folder copies (S2), Shift moves, both checked
    /// on disk; Ctrl+Z undoes the copy; the write-only Drop Box asks first: Cancel leaves
    /// everything as it was, the confirm button copies the file in.
    func files(_ info: SituationInfo) throws -> Verdict {
        var layout = try open("files")
        let original = try require(app.state, "the files state").lists
        try checkDisk(original)
        let documents = try require(original["Documents"], "Documents")
        let pictures = try require(original["Pictures"], "Pictures")
        try check(documents.count >= 3, "Documents is too short: \(documents)")
        let picturesID = try layout.target("Pictures")

        // Drag a document onto Pictures and hold (the key moment), then drop: a copy.
        let copied = documents[0]
        var mark = app.lineCount
        let target = try layout.list("Pictures")
        try pointer.drag(
            from: try layout.row(copied, in: "Documents").center, to: (target.midX, target.maxY - 40), release: false)
        try app.waitFor(FeedbackLine.self, "the highlight on Pictures", after: mark) {
            $0.event == "highlightOn" && $0.target == picturesID
        }
        usleep(300_000)
        try screenshot(String(format: "%02d-%@", info.number, info.slug))
        let release = app.lineCount
        try pointer.release()
        var withCopy = original
        withCopy["Pictures"] = pictures + [copied]
        try app.waitForState("a copy of '\(copied)' in Pictures", after: release) {
            Set($0.lists["Pictures"] ?? []) == Set(pictures + [copied]) && $0.lists["Documents"] == documents
        }
        let committed = events(from: mark, named: "committed")
        try check(committed.count == 1, "one drop expected, saw \(committed.count)")
        try check(
            committed[0].operation == "copy", "S2: the drop was a \(committed[0].operation ?? "?")")
        try check(
            events(from: mark, named: "preview").contains { $0.badge == "copy" },
            "S3: no copy badge over another folder")
        try check(filesOnDisk("Pictures").contains(copied), "'\(copied)' is not in Pictures on disk")
        try check(filesOnDisk("Documents").contains(copied), "'\(copied)' left Documents on disk")
        try check(bytes("Pictures", copied) == bytes("Documents", copied), "the copy's bytes differ")
        try app.waitFor(StateLine.self, "no 'Copying…' rows left", after: release) { line in
            guard line.pane == "files", let copying = line.copying else { return false }
            return copying.values.allSatisfy(\.isEmpty)
        }
        try settleAfterDrag(mark, pane: "files")

        // U1: Ctrl+Z takes the copy away, on disk too.
        mark = app.lineCount
        try pointer.key("ctrl+z")
        try app.waitForState("the undone copy", after: mark) { Set($0.lists["Pictures"] ?? []) == Set(pictures) }
        try check(!filesOnDisk("Pictures").contains(copied), "the undone copy is still on disk")

        // Shift moves: one rename.
        layout = try app.settledLayout(pane: "files")
        let moved = documents[1]
        mark = app.lineCount
        try pointer.drag(
            from: try layout.row(moved, in: "Documents").center, to: (target.midX, target.maxY - 40),
            holding: ["shift"])
        try app.waitForState("'\(moved)' moved to Pictures", after: mark) {
            ($0.lists["Pictures"] ?? []).contains(moved) && !($0.lists["Documents"] ?? []).contains(moved)
        }
        let movedDrop = events(from: mark, named: "committed")
        try check(
            movedDrop.first?.operation == "move",
            "S2: Shift gave a \(movedDrop.first?.operation ?? "?")")
        try check(
            filesOnDisk("Pictures").contains(moved) && !filesOnDisk("Documents").contains(moved),
            "'\(moved)' was not moved on disk")
        try settleAfterDrag(mark, pane: "files")
        let afterMove = try require(app.state, "the files state").lists
        try checkDisk(afterMove)

        // U2: the write-only Drop Box asks first. Cancel (Escape) changes nothing.
        layout = try app.settledLayout(pane: "files")
        let handed = try require(afterMove["Documents"]?.first, "a document")
        let dropBox = try layout.list("Drop Box")
        let before = filesOnDisk("Drop Box")
        mark = app.lineCount
        try pointer.drag(from: try layout.row(handed, in: "Documents").center, to: (dropBox.midX, dropBox.maxY - 40))
        try waitForConfirmation(after: mark)
        try pointer.key("Escape")
        let declined = try app.waitFor(FeedbackLine.self, "the declined drop's outcome", after: mark) {
            $0.event == "outcome"
        }
        try check(
            !["completed", "placeholder"].contains(declined.outcome ?? ""), "the declined drop completed")
        usleep(300_000)
        try check(filesOnDisk("Drop Box") == before, "Cancel changed the Drop Box: \(filesOnDisk("Drop Box").sorted())")
        try check(app.state?.lists == afterMove, "Cancel changed the folders")
        try checkDisk(afterMove)

        // Again, and confirm (Tab from the focused Cancel to the confirm button, Return).
        layout = try app.settledLayout(pane: "files")
        let undoBefore = app.state?.undo ?? ""
        mark = app.lineCount
        try pointer.drag(from: try layout.row(handed, in: "Documents").center, to: (dropBox.midX, dropBox.maxY - 40))
        try waitForConfirmation(after: mark)
        try pointer.key("Tab")
        usleep(100_000)
        try pointer.key("Return")
        let accepted = try app.waitFor(FeedbackLine.self, "the confirmed drop's outcome", after: mark, timeout: 10) {
            $0.event == "outcome"
        }
        try check(
            ["completed", "placeholder"].contains(accepted.outcome ?? ""),
            "the confirmed drop did not complete: \(accepted)")
        let deadline = Date().addingTimeInterval(5)
        while !filesOnDisk("Drop Box").contains(handed), Date() < deadline { usleep(100_000) }
        try check(filesOnDisk("Drop Box").contains(handed), "'\(handed)' is not in the Drop Box on disk")
        try check(bytes("Drop Box", handed) == bytes("Documents", handed), "the Drop Box copy's bytes differ")
        try checkDisk(try require(app.state, "the files state").lists)
        try check(
            app.state?.undo == undoBefore,
            "U2: the irreversible drop into the Drop Box became an undo step ('\(app.state?.undo ?? "")')")

        let folders = try folderTree()

        return .ok(
            folders
                + "; copied '\(copied)' to 'Pictures' (copy badge; same bytes on disk) and undid it; Shift-moved '\(moved)' "
                + "(renamed on disk); the Drop Box asked first: Cancel left it unchanged, confirming put '\(handed)' "
                + "there, with no undo step; the disk matched the window at every step")
    }
}
