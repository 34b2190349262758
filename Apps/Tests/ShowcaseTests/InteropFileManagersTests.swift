import Foundation
import DriverProtocol
import WindowDriver
import ShowcaseModel
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Files dragged between the showcase's Files pane and file managers nobody here wrote (Thunar
/// 4.18, GTK 3, and Nautilus 43, GTK 4, over X11 drag and drop), with the real pointer. A file
/// manager moves whatever it is offered a move for when both folders are on one file system, so
/// what the drag offers is what happens to the person's file: a copy unless they hold Shift
/// (S2), and then the Files pane and the status line must say what the other app really did
/// (S4). Both folders are in the test's data directory: one file system. Files dragged the other
/// way arrive as copies with the same bytes, a taken name numbered ("name 2.txt").
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

    /// Nautilus (GNOME Files, GTK 4) showing `folder` in a window named after the folder. It
    /// starts Tracker, GVfs and dconf through the session's bus (in the display's own home).
    static func nautilus(_ folder: String) -> PeerProgram {
        PeerProgram(
            path: Tools.find("nautilus") ?? "/usr/bin/nautilus", arguments: ["--new-window", folder],
            windowName: URL(fileURLWithPath: folder).lastPathComponent, accessibleName: "org.gnome.Nautilus",
            toolkit: "GTK 4", windowRelativeExtents: true)
    }

    static var nautilusInstalled: Bool { nautilus("/").isInstalled }

    /// How a person knows Nautilus: "Files" on the GNOME desktop (its desktop file's name); on
    /// Wayland nothing says which app took a drop.
    static var nautilusName: String { DisplayBackend.current == .wayland ? "another app" : "Files" }

    /// The file dragged: "Packing list.md" from Documents, its bytes, where it lands in the other
    /// app's folder, and where the drag starts and ends on the screen.
    struct FileTrip {
        let name: String
        let source: URL
        let bytes: Data
        let arrived: URL
        let start: ScreenPoint
        let end: ScreenPoint
    }

    /// Runs `body` with the showcase on its Files pane and a file manager (`program` for a
    /// folder) showing an empty folder beside it, on the same file system.
    private func withFileManager(
        _ program: (String) -> PeerProgram,
        _ body: (_ app: ShowcaseProcess, _ pointer: Pointer, _ trip: FileTrip) throws -> Void
    ) throws {
        try withPeers(pane: "files") { session, app, pointer, data in
            let folder = URL(fileURLWithPath: data).appendingPathComponent("Elsewhere")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let manager = try session.launch(program(folder.path), at: Self.peerOrigin)
            let layout = try app.settledLayout(pane: "files")
            let name = "Packing list.md"
            let source = URL(fileURLWithPath: data).appendingPathComponent("Files/Documents/\(name)")
            // The folder view, below the toolbar and location bar.
            let end = (manager.window.x + manager.window.width * 0.6, manager.window.y + manager.window.height * 0.6)
            let trip = FileTrip(
                name: name, source: source, bytes: try Data(contentsOf: source),
                arrived: folder.appendingPathComponent(name),
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
        try expectCopied(into: Self.thunar, named: "Thunar", said: Self.thunarName)
    }

    @Test(
        "S2, S4, U1: with Shift held a file dragged into Thunar is moved: it leaves its folder and its row, the status says moved, and Undo says it cannot be undone",
        .enabled(if: thunarInstalled, "Thunar is not installed (apt-get install thunar).")
    )
    func fileIntoThunarWithShiftIsMoved() throws {
        try expectMovedWithShift(into: Self.thunar, said: Self.thunarName)
    }

    @Test(
        "S2, S4: a file dragged from Files into a Nautilus (GTK 4) folder on the same disk is copied: it stays in its folder, Nautilus's folder gets the same bytes, and the status says copied, naming Nautilus as the desktop does (Files)",
        .enabled(if: nautilusInstalled, "Nautilus is not installed (apt-get install nautilus).")
    )
    func fileIntoNautilusIsCopied() throws {
        // Named as the desktop names it ("Files"), not by its application ID (org.gnome.Nautilus).
        try expectCopied(into: Self.nautilus, named: "Files", said: Self.nautilusName)
    }

    @Test(
        "S4, A6, U1: with Shift held a file dragged into Nautilus is offered as a move; Nautilus 43 copies it and says it moved it: nothing is lost, the row comes back, the person is told the file stayed and the history no longer holds a move",
        .enabled(if: nautilusInstalled, "Nautilus is not installed (apt-get install nautilus).")
    )
    func fileIntoNautilusWithShiftStaysWhenNautilusCopies() throws {
        try withFileManager(Self.nautilus) { app, pointer, trip in
            let undoBefore = try #require(app.state?.undo)
            let mark = app.lineCount
            try dragWithShift(pointer, trip)
            try waitUntil("the copy in Nautilus's folder", timeout: 10) {
                (try? Data(contentsOf: trip.arrived)) == trip.bytes
            }
            if DisplayBackend.current == .x11 {
                // Nautilus finishes the drop as the move it was offered (XdndFinished, delete=true)
                // but copies: the Files pane sees the file still there after its grace period.
                let told = try app.waitFor(StatusLine.self, "the person told the file stayed", after: mark, timeout: 15)
                {
                    $0.text.hasSuffix("left '\(trip.name)' in Documents.")
                }
                #expect(told.text == "'\(Self.nautilusName)' left '\(trip.name)' in Documents.")
                try app.waitForState("the row back", after: mark) { $0.lists["Documents"]?.contains(trip.name) == true }
                // U1: the history no longer claims a move it cannot undo; it is as before the drag.
                try waitUntil("the move taken out of the history (now '\(app.state?.undo ?? "")')", timeout: 5) {
                    app.state?.undo == undoBefore
                }
                #expect(
                    app.lines(StateLine.self, from: mark).contains { $0.undo?.hasPrefix("Can't Undo Move") == true },
                    "the move was in the history while Nautilus said it moved the file")
            } else {
                // On Wayland the compositor reports the action Nautilus chose: a copy, said at once.
                #expect(try handOffStatus(app, after: mark) == "Copied '\(trip.name)' to \(Self.nautilusName).")
                #expect(app.state?.lists["Documents"]?.contains(trip.name) == true, "the row stays")
            }
            #expect(try Data(contentsOf: trip.source) == trip.bytes, "A6: the file is still in its folder, unchanged")
        }
    }

    /// Drags "Packing list.md" into the file manager's folder without a key held: the other app
    /// copies it, and the showcase says so, naming the app as a person knows it (`said`, unless
    /// nil; X11 names it `app`, its WM_CLASS).
    private func expectCopied(into program: (String) -> PeerProgram, named app: String, said name: String?) throws {
        try withFileManager(program) { showcase, pointer, trip in
            let mark = showcase.lineCount
            try pointer.drag(from: trip.start, to: trip.end, steps: 14, pause: 0.5)
            let status = try handOffStatus(showcase, after: mark)
            if let name {
                #expect(status == "Copied '\(trip.name)' to \(name).")
            } else {
                #expect(status.hasPrefix("Copied '\(trip.name)' to ") && endsWithOneFullStop(status), "\(status)")
            }
            try waitUntil("the copy in the other app's folder", timeout: 10) {
                (try? Data(contentsOf: trip.arrived)) == trip.bytes
            }
            #expect(try Data(contentsOf: trip.source) == trip.bytes, "S2: the file is still in its folder, unchanged")
            let outcome = try #require(showcase.events(from: mark).last { $0.event == "outcome" })
            #expect(outcome.outcome == "handedOff" && outcome.operation == "copy")
            #expect(outcome.app == (DisplayBackend.current == .wayland ? nil : app))
            #expect(!showcase.events(from: mark).contains { $0.event == "sourceRemoved" })
            #expect(showcase.state?.lists["Documents"]?.contains(trip.name) == true, "the row stays")
        }
    }

    /// Drags the trip's file to its end with Shift pressed on the way, as a person does, and held
    /// over the other app while the pointer moves on (X11 tells the other app at the next motion).
    private func dragWithShift(_ pointer: Pointer, _ trip: FileTrip) throws {
        let (start, end) = (trip.start, trip.end)
        let halfway = (start.x + (end.x - start.x) / 2, start.y + (end.y - start.y) / 2)
        if DisplayBackend.current == .wayland {
            // Wayland: a drag states what it offers as it starts (docs/wayland.md), so Shift is
            // held from the first move on.
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
    }

    /// Drags "Packing list.md" into the file manager's folder with Shift pressed on the way: the
    /// other app moves it, and the row, the status and the history say so.
    private func expectMovedWithShift(into program: (String) -> PeerProgram, said name: String) throws {
        try withFileManager(program) { app, pointer, trip in
            let mark = app.lineCount
            try dragWithShift(pointer, trip)
            let status = try handOffStatus(app, after: mark)
            #expect(status == "Moved '\(trip.name)' to \(name).", "\(app.messages(from: mark))")
            try waitUntil("the file in the other app's folder", timeout: 10) {
                (try? Data(contentsOf: trip.arrived)) == trip.bytes
            }
            #expect(!FileManager.default.fileExists(atPath: trip.source.path), "the file left its folder")
            try app.waitForState("the row gone", after: mark) { $0.lists["Documents"]?.contains(trip.name) == false }
            let state = try app.waitForState("the history saying it cannot be undone", after: mark) { !$0.undo.isEmpty }
            #expect(state.undo == "Can't Undo Move File to \(name)", "U1: the history says so: \(state.undo)")
            let events = app.events(from: mark)
            #expect(events.contains { $0.event == "sourceRemoved" })
            #expect(events.last { $0.event == "outcome" }?.operation == "move")
        }
    }

    // MARK: Into Files

    /// Runs `body` with the showcase on its Files pane and a file manager (`program` for a
    /// folder) beside it showing a folder of its own, outside the showcase's Files, holding
    /// `files`. `prepare` runs before the file manager starts (its settings).
    private func withFolder(
        in program: (String) -> PeerProgram, holding files: KeyValuePairs<String, String>,
        prepare: (PeerSession) throws -> Void = { _ in },
        _ body: (_ app: ShowcaseProcess, _ pointer: Pointer, _ manager: Peer, _ folder: URL, _ data: URL) throws -> Void
    ) throws {
        try withPeers(pane: "files") { session, app, pointer, data in
            let folder = URL(fileURLWithPath: data).appendingPathComponent("Elsewhere")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for (name, text) in files { try Data(text.utf8).write(to: folder.appendingPathComponent(name)) }
            try prepare(session)
            let manager = try session.launch(program(folder.path), at: Self.peerOrigin)
            try body(app, pointer, manager, folder, URL(fileURLWithPath: data).appendingPathComponent("Files"))
        }
    }

    /// Thunar in its list view, whose rows assistive technology reads with their places (its
    /// icon view shows none): the setting is in xfconf, which the session's bus starts in the
    /// display's own home.
    private func thunarListView(_ session: PeerSession) throws {
        let home = try #require(session.display.home, "a private display has a home of its own")
        let channel = home.appendingPathComponent(".config/xfce4/xfconf/xfce-perchannel-xml")
        try FileManager.default.createDirectory(at: channel, withIntermediateDirectories: true)
        try """
        <?xml version="1.0" encoding="UTF-8"?>
        <channel name="thunar" version="1.0">
          <property name="last-view" type="string" value="ThunarDetailsView"/>
        </channel>
        """.write(to: channel.appendingPathComponent("thunar.xml"), atomically: true, encoding: .utf8)
    }

    /// Where the file manager shows the file `name`: Thunar's name cell in its list, Nautilus's
    /// grid cell.
    private func place(of name: String, in manager: Peer) throws -> ScreenRect {
        try #require(try manager.find("the file \(name)") { $0.role == "table cell" && $0.name == name }.frame)
    }

    /// Where a drop lands in the Files pane's folder `folder`: below its rows.
    private func dropPoint(in folder: String, _ app: ShowcaseProcess) throws -> ScreenPoint {
        let list = try app.settledLayout(pane: "files").list(folder)
        return (list.midX, list.maxY - 40)
    }

    /// What a drop from a file manager into Files did: the status said, the pane's state after.
    struct CopyIn {
        let status: String
        let state: ShowcaseState
    }

    /// Selects `names` in the file manager's folder holding `files` (a click, then Ctrl+click;
    /// nothing for one file: the press of the drag selects it), drags them onto the Files pane's
    /// folder `target`, and expects them to arrive there as copies named `arriving` (in order),
    /// with the same bytes, the file manager's files staying, nothing else copied and the files
    /// already in the folder untouched.
    private func copyIn(
        from program: (String) -> PeerProgram, holding files: KeyValuePairs<String, String>, selecting names: [String],
        onto target: String, arriving: [String], prepare: (PeerSession) throws -> Void = { _ in },
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> CopyIn {
        var result: CopyIn?
        try withFolder(in: program, holding: files, prepare: prepare) { app, pointer, manager, elsewhere, library in
            let places = try names.map { try place(of: $0, in: manager) }
            if places.count > 1 {
                // The file manager takes the keyboard on a click, as a window manager gives it
                // (weston does).
                if pointer.display.backend == .x11 { try manager.focus(pointer.display) }
                try pointer.click(at: (places[0].x + 30, places[0].midY))
                for place in places.dropFirst() {
                    usleep(600_000)  // separate clicks, not a double click
                    try pointer.click(at: (place.x + 30, place.midY), holding: ["ctrl"])
                }
                usleep(600_000)  // past the double-click time: the press below starts a drag and opens nothing
            }
            let before = try #require(app.state?.lists[target], sourceLocation: sourceLocation)
            let folder = library.appendingPathComponent(target)
            let there = try regularFiles(in: folder).map { ($0, try Data(contentsOf: $0)) }
            let last = try #require(places.last, sourceLocation: sourceLocation)
            let mark = app.lineCount
            try pointer.drag(from: (last.x + 30, last.midY), to: try dropPoint(in: target, app), steps: 14, pause: 0.5)
            let state = try app.waitForState("\(arriving) in \(target)", after: mark, timeout: 15) {
                Set($0.lists[target] ?? []).isSuperset(of: arriving)
            }
            #expect(
                Set(state.lists[target] ?? []) == Set(before + arriving), "only the selected files arrive",
                sourceLocation: sourceLocation)
            let status = try waitForDropStatus(app, after: mark, timeout: 15)
            #expect(
                try committedEvent(in: app, from: mark).operation == "copy", "S2: another app's files are copied",
                sourceLocation: sourceLocation)
            for (file, bytes) in there {
                #expect(
                    FileManager.default.contents(atPath: file.path) == bytes,
                    "'\(file.lastPathComponent)' is untouched",
                    sourceLocation: sourceLocation)
            }
            for (name, original) in zip(arriving, names) {
                let bytes = try #require(
                    FileManager.default.contents(atPath: elsewhere.appendingPathComponent(original).path),
                    "S2: the other app's '\(original)' stays in its folder", sourceLocation: sourceLocation)
                #expect(
                    FileManager.default.contents(atPath: folder.appendingPathComponent(name).path) == bytes,
                    "'\(name)' holds the bytes of the other app's '\(original)'", sourceLocation: sourceLocation)
            }
            result = CopyIn(status: status, state: state)
        }
        return try #require(result, sourceLocation: sourceLocation)
    }

    static let tripPlan: KeyValuePairs = ["Trip plan.txt": "Lisbon, 3–7 May: tram 28 to Belém.\n"]
    static let receipts: KeyValuePairs = [
        "Receipt March.txt": "Bakery 4.20\nTram 1.80\n", "Receipt April.txt": "Market 12.75\n",
        "Tickets.csv": "day,seat\nFriday,14C\n",
    ]
    /// Named like the seed's "Meeting notes.txt" in Documents, with other bytes.
    static let otherMeetingNotes: KeyValuePairs = ["Meeting notes.txt": "Wednesday: the launch moves to May.\n"]

    @Test(
        "S1, S2, S4: a file dragged from a Thunar folder onto Documents is copied in with the same bytes, Thunar's file stays, one undo step",
        .enabled(if: thunarInstalled, "Thunar is not installed (apt-get install thunar).")
    )
    func fileFromThunarIntoFiles() throws {
        let copied = try copyIn(
            from: Self.thunar, holding: Self.tripPlan, selecting: ["Trip plan.txt"], onto: "Documents",
            arriving: ["Trip plan.txt"], prepare: thunarListView)
        #expect(copied.status == "Copied 'Trip plan.txt' to Documents.", "S4: what arrived, not 'Files from Thunar'")
        #expect(copied.state.undo == "Undo Copy File")
    }

    @Test(
        "S1, S2, S4, U1: two of three files selected in Thunar with Ctrl+click and dragged onto Pictures are both copied in with their bytes, the third not; said and undone as 2 files",
        .enabled(if: thunarInstalled, "Thunar is not installed (apt-get install thunar).")
    )
    func filesSelectedInThunarIntoFiles() throws {
        let copied = try copyIn(
            from: Self.thunar, holding: Self.receipts, selecting: ["Receipt April.txt", "Tickets.csv"],
            onto: "Pictures",
            arriving: ["Receipt April.txt", "Tickets.csv"], prepare: thunarListView)
        #expect(copied.status == "Copied 2 files to Pictures.")
        #expect(copied.state.undo == "Undo Copy 2 Files")
    }

    @Test(
        "S1, S2: a file from Thunar named like one in Documents arrives as 'Meeting notes 2.txt' with Thunar's bytes; the file already there is untouched",
        .enabled(if: thunarInstalled, "Thunar is not installed (apt-get install thunar).")
    )
    func sameNamedFileFromThunarIsNumbered() throws {
        let copied = try copyIn(
            from: Self.thunar, holding: Self.otherMeetingNotes, selecting: ["Meeting notes.txt"], onto: "Documents",
            arriving: ["Meeting notes 2.txt"], prepare: thunarListView)
        #expect(copied.status == "Copied 'Meeting notes 2.txt' to Documents.", "the person learns the name it got")
        #expect(copied.state.lists["Documents"]?.contains("Meeting notes.txt") == true)
    }

    @Test(
        "S1, S2, S4, T1: a file dragged from a Thunar folder onto a folder of the Files tree (Documents ▸ Projects ▸ 2026) is copied into that folder on disk with the same bytes, Thunar's file stays, the status names it, and Undo takes the copy away",
        .enabled(if: thunarInstalled, "Thunar is not installed (apt-get install thunar).")
    )
    func fileFromThunarOntoATreeFolder() throws {
        try withFolder(in: Self.thunar, holding: Self.tripPlan, prepare: thunarListView) {
            app, pointer, manager, elsewhere, library in
            let file = try place(of: "Trip plan.txt", in: manager)
            let year = try app.settledLayout(pane: "files").row("Documents/Projects/2026", in: "Folders")
            let mark = app.lineCount
            try pointer.drag(from: (file.x + 30, file.midY), to: year.center, steps: 14, pause: 0.5)
            let status = try waitForDropStatus(app, after: mark, timeout: 15)
            #expect(status == "Copied 'Trip plan.txt' to 2026.", "S4: \(app.messages(from: mark))")
            #expect(try committedEvent(in: app, from: mark).operation == "copy", "S2: another app's file is copied")
            let arrived = library.appendingPathComponent("Documents/Projects/2026/Trip plan.txt")
            let original = try #require(
                FileManager.default.contents(atPath: elsewhere.appendingPathComponent("Trip plan.txt").path),
                "S2: Thunar's file stays")
            #expect(FileManager.default.contents(atPath: arrived.path) == original, "the same bytes, in 2026")
            _ = try app.waitForState("the undo step", after: mark) { $0.undo == "Undo Copy File" }
            // The toolbar's Undo (the keyboard is still Thunar's after its drag on Wayland).
            let undoButton = try #require(try app.settledLayout(pane: "files").buttons["Undo"])
            let undone = app.lineCount
            try pointer.click(at: undoButton.center)
            try app.waitForState("the copy undone", after: undone) { $0.undo != "Undo Copy File" }
            #expect(!FileManager.default.fileExists(atPath: arrived.path), "U1: the copy is gone")
            #expect(FileManager.default.fileExists(atPath: elsewhere.appendingPathComponent("Trip plan.txt").path))
        }
    }

    @Test(
        "S1, S2: a file dragged from a Nautilus (GTK 4) folder onto Documents is copied in with the same bytes; Nautilus's file stays",
        .enabled(if: nautilusInstalled, "Nautilus is not installed (apt-get install nautilus).")
    )
    func fileFromNautilusIntoFiles() throws {
        let copied = try copyIn(
            from: Self.nautilus, holding: ["Postcard.txt": "Greetings from Porto — Ana\n"], selecting: ["Postcard.txt"],
            onto: "Documents", arriving: ["Postcard.txt"])
        #expect(copied.status == "Copied 'Postcard.txt' to Documents.")
    }

    @Test(
        "S2, S4, U1: a file dragged from Thunar onto Documents with Shift pressed on the way is moved: it leaves Thunar's folder as it arrives with its bytes, the status says moved, and Undo puts it back in Thunar's folder",
        .enabled(if: thunarInstalled, "Thunar is not installed (apt-get install thunar)."),
        .enabled(
            if: DisplayBackend.current == .x11,
            "Wayland: the compositor does not pass another app's Shift on, so its drags copy (docs/wayland.md).")
    )
    func fileFromThunarWithShiftIsMovedIn() throws {
        try dragFromThunarWithShift(onto: "Documents") { app, pointer, trip, library, mark in
            let (name, original, bytes) = (trip.name, trip.source, trip.bytes)
            let state = try app.waitForState("'\(name)' in Documents", after: mark, timeout: 15) {
                $0.lists["Documents"]?.contains(name) == true
            }
            let status = try waitForDropStatus(app, after: mark, timeout: 15)
            #expect(status == "Moved '\(name)' to Documents.", "S4: \(app.messages(from: mark))")
            #expect(try committedEvent(in: app, from: mark).operation == "move", "S2: Shift asked for a move")
            #expect(!FileManager.default.fileExists(atPath: original.path), "S4: it left Thunar's folder")
            let arrived = library.appendingPathComponent("Documents/\(name)")
            #expect(FileManager.default.contents(atPath: arrived.path) == bytes, "the same bytes")
            let undoState = try app.waitForState("the undo step", after: mark) { $0.undo.hasPrefix("Undo Move") }
            #expect(undoState.undo == "Undo Move File")
            #expect(state.lists["Documents"]?.filter { $0 == name }.count == 1)

            _ = try app.settledLayout(pane: "files")
            try pointer.display.xdotool(["search", "--name", "^DragDrop Showcase$", "windowfocus", "--sync"])
            let undo = app.lineCount
            try pointer.key("ctrl+z")
            try app.waitForState("the move undone", after: undo) { $0.lists["Documents"]?.contains(name) == false }
            #expect(FileManager.default.contents(atPath: original.path) == bytes, "U1: back in Thunar's folder")
            #expect(!FileManager.default.fileExists(atPath: arrived.path))
        }
    }

    @Test(
        "S2, F4: a file dragged from Thunar with Shift held over the write-only Drop Box, which copies what other apps drop, is refused there with the reason and never highlighted (GDK 4.8 gives the drop only Thunar's move); nothing moves or arrives",
        .enabled(if: thunarInstalled, "Thunar is not installed (apt-get install thunar)."),
        .enabled(
            if: DisplayBackend.current == .x11,
            "Wayland: the compositor does not pass another app's Shift on, so its drags copy (docs/wayland.md).")
    )
    func fileFromThunarWithShiftIsRefusedWhereOnlyCopiesGo() throws {
        try dragFromThunarWithShift(onto: "Drop Box") { app, pointer, trip, library, mark in
            let (original, bytes) = (trip.source, trip.bytes)
            let box = library.appendingPathComponent("Drop Box")
            let reason = "'Thunar' allows only a move, and Drop Box copies what other apps drop."
            let refusal = try app.waitFor(
                FeedbackLine.self, "the Drop Box refusing Thunar's move", after: mark, timeout: 15
            ) {
                $0.event == "proposal" && $0.operation == "forbidden"
            }
            #expect(refusal.reason == reason)
            let events = app.events(from: mark)
            #expect(
                !events.contains { $0.event == "highlightOn" && $0.target == refusal.destination },
                "F4: \(events.map(\.event))")
            #expect(
                events.contains { $0.event == "announcement" && $0.text?.contains(reason) == true },
                "the reason is said")
            try app.waitFor(GtkLine.self, "Thunar's drag leaving", after: mark, timeout: 15) {
                $0.message.hasPrefix("external drag-leave") || $0.message.hasPrefix("external drop")
            }
            usleep(500_000)
            #expect(!app.messages(from: mark).contains { $0.hasPrefix("external drop") }, "no drop happened")
            #expect(
                FileManager.default.contents(atPath: original.path) == bytes, "S2: the file stays in Thunar's folder")
            let inBox = (try? FileManager.default.contentsOfDirectory(atPath: box.path)) ?? []
            #expect(!inBox.contains(trip.name), "nothing arrived: \(inBox)")
        }
    }

    /// Drags "Trip plan.txt" from Thunar's folder (list view) onto the Files folder `folder`
    /// with Shift pressed on the way (Thunar then offers only a move), then runs `body` with the
    /// trip and the line count from before the drag.
    private func dragFromThunarWithShift(
        onto folder: String,
        _ body: (_ app: ShowcaseProcess, _ pointer: Pointer, _ trip: FileTrip, _ library: URL, _ mark: Int) throws ->
            Void
    ) throws {
        let name = "Trip plan.txt"
        try withFolder(in: Self.thunar, holding: Self.tripPlan, prepare: thunarListView) {
            app, pointer, manager, elsewhere, library in
            let original = elsewhere.appendingPathComponent(name)
            let place = try place(of: name, in: manager)
            let trip = FileTrip(
                name: name, source: original, bytes: try Data(contentsOf: original), arrived: original,
                start: (place.x + 30, place.midY), end: try dropPoint(in: folder, app))
            let mark = app.lineCount
            try dragWithShift(pointer, trip)
            try body(app, pointer, trip, library, mark)
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
