import Foundation
import DriverProtocol
import WindowDriver
import ShowcaseModel
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Content that is not a file yet becoming one where it is dropped, both ways, with the real
/// pointer over X11 (docs/interop.md, "File promises").
///
/// In: an entry of an archive open in Engrampa (MATE's archive manager, GTK 3) exists nowhere on
/// disk. Engrampa offers only X Direct Save (`XdndDirectSave0`, and a private type), so the Files
/// folder gives it the address of a private folder at the drop, Engrampa extracts the entry there
/// once its drag has ended, and the pane copies it in like any file from another app.
///
/// Out: a contact (a vCard in the store) dropped into a Thunar folder becomes "Name.vcf" there,
/// written only at the drop.
@Suite(
    "Interop: file promises", .serialized,
    .enabled(if: PeerSession.missing == nil, "\(PeerSession.missing ?? ""): interop tests skipped."),
    .enabled(if: DisplayBackend.current == .x11, "X Direct Save is an X11 protocol.")
)
struct InteropFilePromisesTests: InteropTesting {
    static var engrampa: String? { Tools.find("engrampa") }

    @Test(
        "S1, S2, P5: two archive entries dragged from Engrampa into a Files folder arrive with their bytes through X Direct Save, as a copy in one undo step, the same-named one beside the folder's own, and the private folder they were saved into is gone",
        .enabled(if: engrampa != nil, "Engrampa is not installed (apt-get install engrampa).")
    )
    func archiveEntriesFromEngrampaIntoFiles() throws {
        try withPeers(pane: "files") { session, app, pointer, data in
            // An archive of two files that are nowhere else on disk; Pictures already has a
            // "Sketch.svg" of its own.
            let folder = session.runtime.appendingPathComponent("archive")
            let inside = folder.appendingPathComponent("inside")
            try FileManager.default.createDirectory(at: inside, withIntermediateDirectories: true)
            let entries = [
                "Pancakes.txt": Data("Pancakes: flour, milk, eggs. 팬케이크 パンケーキ блины\n".utf8),
                "Sketch.svg": Data(#"<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>"#.utf8),
            ]
            for (name, bytes) in entries { try bytes.write(to: inside.appendingPathComponent(name)) }
            let archive = folder.appendingPathComponent("Recipes.tar.gz")
            let tar = try ChildProcess("/usr/bin/tar", ["-czf", archive.path, "-C", inside.path] + entries.keys.sorted())
            #expect(tar.wait(timeout: 10))
            try FileManager.default.removeItem(at: inside)
            let pictures = URL(fileURLWithPath: data).appendingPathComponent("Files/Pictures")
            let ownSketch = try Data(contentsOf: pictures.appendingPathComponent("Sketch.svg"))

            let engrampa = try session.launch(
                PeerProgram(
                    path: try #require(Self.engrampa), arguments: [archive.path], windowName: "Recipes\\.tar\\.gz ?",
                    accessibleName: "engrampa", toolkit: "GTK 3"),
                at: Self.peerOrigin)
            let cells = try engrampa.waitFor("the archive's entries", timeout: 20) { nodes in
                entries.keys.allSatisfy { name in nodes.contains { $0.role == "table cell" && $0.name == name && $0.frame != nil } }
            }
            let first = try #require(cells.first { $0.role == "table cell" && $0.name == "Pancakes.txt" }?.frame)
            let layout = try app.settledLayout(pane: "files")
            let before = try #require(app.state?.lists["Pictures"])
            let target = try layout.list("Pictures")
            // Both selected (Engrampa's list drags its selection), then dragged by the first.
            try pointer.click(at: (first.x + 30, first.midY))
            try engrampa.focus(session.display)
            try pointer.key("ctrl+a")
            usleep(600_000)
            let mark = app.lineCount
            try pointer.drag(from: (first.x + 30, first.midY), to: (target.midX, target.maxY - 40), steps: 14, pause: 0.5)

            let state = try app.waitForState("the entries in Pictures", after: mark, timeout: 30) {
                $0.lists["Pictures"]?.contains("Pancakes.txt") == true && $0.undo == "Undo Copy 2 Files"
            }
            #expect(
                Set(state.lists["Pictures"] ?? []) == Set(before + ["Pancakes.txt", "Sketch 2.svg"]),
                "both entries arrived, the same-named one beside the folder's own: \(state.lists["Pictures"] ?? [])")
            #expect(try Data(contentsOf: pictures.appendingPathComponent("Pancakes.txt")) == entries["Pancakes.txt"])
            #expect(try Data(contentsOf: pictures.appendingPathComponent("Sketch 2.svg")) == entries["Sketch.svg"])
            #expect(try Data(contentsOf: pictures.appendingPathComponent("Sketch.svg")) == ownSketch, "nothing replaced")
            let status = try waitForDropStatus(app, after: mark, timeout: 10)
            #expect(status == "Copied 2 files to Pictures.", "S4: what arrived, not the drag's name: \(status)")
            #expect(try committedEvent(in: app, from: mark).operation == "copy", "S2: another app's content is copied")
            // The private folder Engrampa extracted into is removed once the files are copied in.
            let exports = URL(fileURLWithPath: data).appendingPathComponent("Drag exports")
            let left = (try? FileManager.default.contentsOfDirectory(atPath: exports.path)) ?? []
            #expect(!left.contains { $0.hasPrefix("saved-") }, "no saved folder left: \(left)")
            // Nothing was written beside the archive.
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["Recipes.tar.gz"])
        }
    }

    @Test(
        "S1, S2, P5: a contact dragged into a Thunar folder becomes a vCard file named after the person there, written at the drop; the contact stays",
        .enabled(if: InteropFileManagersTests.thunarInstalled, "Thunar is not installed (apt-get install thunar).")
    )
    func contactIntoThunarBecomesAVCardFile() throws {
        try withPeers(pane: "contacts-mail") { session, app, pointer, data in
            let folder = URL(fileURLWithPath: data).appendingPathComponent("Elsewhere")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let thunar = try session.launch(InteropFileManagersTests.thunar(folder.path), at: Self.peerOrigin)
            let layout = try app.settledLayout(pane: "contacts-mail")
            let name = "Ana Sousa"
            let before = try #require(app.state?.lists["Contacts"])
            let mark = app.lineCount
            try pointer.drag(
                from: try layout.row(name, in: "Contacts").center,
                to: (thunar.window.x + thunar.window.width * 0.6, thunar.window.y + thunar.window.height * 0.6),
                steps: 14, pause: 0.5)
            let status = try app.waitFor(StatusLine.self, "the hand-off's status line", after: mark, timeout: 15) {
                $0.text.hasPrefix("Copied '") || $0.text.hasPrefix("Not dropped")
            }.text
            #expect(status == "Copied '\(name)' to Thunar.", "\(status)")
            let file = folder.appendingPathComponent("\(name).vcf")
            let deadline = Date().addingTimeInterval(10)
            while !FileManager.default.fileExists(atPath: file.path), Date() < deadline { usleep(100_000) }
            let card = try String(contentsOf: file, encoding: .utf8)
            #expect(card.hasPrefix("BEGIN:VCARD\r\n") && card.contains("FN:\(name)\r\n") && card.hasSuffix("END:VCARD\r\n"))
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["\(name).vcf"], "one file")
            #expect(app.state?.lists["Contacts"] == before, "S2: the contact stays")
        }
    }
}
