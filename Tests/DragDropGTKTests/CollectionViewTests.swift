import DragDrop
import DragDropGTK
import DriverProtocol
import Foundation
import WindowDriver
import Testing

/// The virtualized collection (`DragCollectionView`, `--scene collection`): a 100,000-row
/// archive and a three-row inbox, under real pointer and keyboard input. Only the rows on
/// screen exist as widgets and targets; every test below reaches rows that do not.
@Suite(
    "GTK: virtualized lists and grids over 100,000 items", .serialized,
    .enabled(
        if: Tools.missing == nil, "Xvfb is not installed (apt-get install xvfb, or `make deps`): GTK tests skipped.")
)
struct CollectionViewTests {
    static let size = (760, 520)

    /// Runs `body` with the collection scene launched with `arguments`.
    static func withCollections(
        _ arguments: [String] = [], _ body: (FixtureApp, Pointer) async throws -> Void
    ) async throws {
        let display = try XDisplay.startPrivate()
        defer { display.stop() }
        let app = try await FixtureApp.launch(
            on: display, size: size, arguments: ["--scene", "collection"] + arguments, environment: ["GTK_A11Y": "none"])
        defer { app.stop() }
        try await body(app, Pointer(display: display))
    }

    /// Waits for the collection `id`'s state line after `mark` where `predicate` holds.
    @discardableResult
    static func waitFor(
        _ app: FixtureApp, _ id: String, _ what: String, after mark: Int, timeout: Double = 15,
        where predicate: @escaping (CollectionLine) -> Bool
    ) async throws -> CollectionLine {
        let line = try await app.waitFor(CollectionLine.self, what, after: mark, timeout: timeout) {
            $0.id == id && predicate($0)
        }
        // Every row with a widget shows the data source's item at its index (the view applied
        // the data source's changes, DragCollectionView.applyChanges).
        #expect(line.misplacedRows == 0, "\(id): rows out of step with the data source")
        return line
    }

    @Test(
        "S1, S4, F8: a row of the 100,000-row archive dragged into the inbox lands before the row under the pointer; the archive loses it only after the commit"
    )
    func rowBetweenLists() async throws {
        try await Self.withCollections { app, pointer in
            let layout = try await app.settledSceneLayout()
            let file3 = try layout.frame("archive/File 3")
            let report = try layout.frame("inbox/Report")
            let mark = app.lineCount
            try pointer.drag(from: (file3.midX, file3.midY), to: (report.midX, report.y + 4), pause: 0.3)
            let inbox = try await Self.waitFor(app, "inbox", "File 3 before Report", after: mark) {
                $0.head == ["Lunch", "File 3", "Report", "Slides"]
            }
            #expect(inbox.count == 4)
            let archive = try await Self.waitFor(app, "archive", "File 3 gone", after: mark) { $0.count == 99_999 }
            #expect(archive.head.prefix(4) == ["File 0", "File 1", "File 2", "File 4"])
            try await app.waitFor(FeedbackLine.self, "the end of the drop", after: mark) { $0.event == "outcome" }
            let events = app.events(from: mark)
            let committed = try #require(events.first { $0.event == "committed" })
            #expect(committed.index == 1)
            #expect(committed.operation == "move")
            let names = app.eventNames(from: mark)
            #expect(try #require(names.firstIndex(of: "committed")) < #require(names.firstIndex(of: "sourceRemoved")))
        }
    }

    @Test(
        "A1, F8, U1: held at the archive's bottom edge a drag scrolls it; dropped there, the row lands where the pointer is, rows off screen counted; Ctrl+Z takes it back"
    )
    func autoscrollAndDropFarDown() async throws {
        try await Self.withCollections { app, pointer in
            let layout = try await app.settledSceneLayout()
            let lunch = try layout.frame("inbox/Lunch")
            let archive = try layout.frame("archive")
            let edge = (archive.midX, archive.maxY - 6)
            let mark = app.lineCount
            try pointer.drag(from: (lunch.midX, lunch.midY), to: edge, pause: 2.0, release: false)
            let scrolled = try await Self.waitFor(app, "archive", "the archive scrolled", after: mark) {
                $0.offset > 600
            }
            #expect(app.eventNames(from: mark).contains("autoscrollStarted"))
            // Up into the middle, out of the edge zone: scrolling stops (A1), the drop lands there.
            let middle = (archive.midX, archive.midY + 7)
            try pointer.move(from: edge, to: middle, steps: 4)
            try await Task.sleep(for: .milliseconds(400))
            #expect(app.eventNames(from: mark).contains("autoscrollStopped"))
            let before = app.lineCount
            try pointer.release()
            let dropped = try await Self.waitFor(app, "archive", "Lunch in the archive", after: before) {
                $0.others["Lunch"] != nil
            }
            let index = try #require(dropped.others["Lunch"])
            #expect(dropped.count == 100_001)
            #expect(index > 20, "the drop landed \(index) rows down, past the first screen (offset \(scrolled.offset))")
            let committed = try await app.waitFor(FeedbackLine.self, "the commit", after: before) { $0.event == "committed" }
            #expect(committed.index == index)
            // The new row shows under the place it was dropped.
            try await app.settleAfterDrag(from: mark)
            let after = try await app.settledSceneLayout()
            let row = try after.frame("archive/Lunch")
            #expect(abs(row.midY - middle.1) <= row.height, "Lunch at \(row), dropped at \(middle)")

            try await app.press("ctrl+z", with: pointer, until: CollectionLine.self, "the undone drop") {
                $0.id == "archive" && $0.count == 100_000 && $0.others["Lunch"] == nil
            }
            try await Self.waitFor(app, "inbox", "Lunch back in the inbox", after: before) {
                $0.head == ["Lunch", "Report", "Slides"]
            }
        }
    }

    @Test("M1, M3: Select All and a drag carry all 100,000 rows, those off screen too, flocked with their count")
    func selectAllDragsEverything() async throws {
        try await Self.withCollections { app, pointer in
            let layout = try await app.settledSceneLayout()
            let file0 = try layout.frame("archive/File 0")
            let inbox = try layout.frame("inbox")
            var mark = app.lineCount
            try pointer.click(at: (file0.midX, file0.midY))
            try pointer.key("ctrl+a")
            try await Self.waitFor(app, "archive", "every row selected", after: mark) {
                $0.selectedCount == 100_000
            }
            mark = app.lineCount
            // Lifting 100,000 rows takes a moment in a debug build: the pointer waits for it.
            try pointer.lift(at: (file0.midX, file0.midY))
            try await app.waitFor(FeedbackLine.self, "the lift", after: mark, timeout: 30) { $0.event == "preview" }
            let destination = (inbox.midX, inbox.maxY - 60)
            try pointer.move(from: (file0.midX + 4, file0.midY + 4), to: destination, steps: 8)
            try await app.waitFor(FeedbackLine.self, "over the inbox", after: mark, timeout: 30) {
                $0.event == "proposal" && $0.destination == "inbox"
            }
            try pointer.release()
            let moved = try await Self.waitFor(app, "inbox", "100,000 rows more in the inbox", after: mark, timeout: 30) {
                $0.count == 100_003
            }
            #expect(moved.head.prefix(5) == ["Lunch", "Report", "Slides", "File 0", "File 1"])
            try await Self.waitFor(app, "archive", "the archive emptied", after: mark, timeout: 30) { $0.count == 0 }
            let events = app.events(from: mark)
            let lifted = try #require(events.first { $0.event == "lifted" })
            #expect(lifted.items?.count == 100_000, "M1: every selected row was lifted")
            #expect(
                events.contains {
                    $0.event == "preview" && $0.count == 100_000 && $0.flocked == true
                }, "M3: the flock shows the count")
        }
    }

    @Test(
        "F2, M3: two selected rows of the archive dragged together fly as a card that shows the front row as it looks selected, its text on the selection's colour, not a blank white card"
    )
    func selectedRowsFlyAsTheyLook() async throws {
        try await Self.withCollections { app, pointer in
            let layout = try await app.settledSceneLayout()
            let file1 = try layout.frame("archive/File 1")
            let file2 = try layout.frame("archive/File 2")
            let inbox = try layout.frame("inbox")
            var mark = app.lineCount
            try pointer.click(at: (file1.midX, file1.midY))
            try pointer.click(at: (file2.midX, file2.midY), holding: ["ctrl"])
            try await Self.waitFor(app, "archive", "two rows selected", after: mark) { $0.selectedCount == 2 }
            try await Task.sleep(for: .milliseconds(300))
            // The selection's colour, read off the selected row's right end (no text there).
            let selected = try Screenshot.capture(app.display).pixel(Int(file2.maxX) - 8, Int(file2.midY))
            #expect(Int(selected.red) + Int(selected.green) + Int(selected.blue) < 3 * 230, "a coloured selection: \(selected)")

            mark = app.lineCount
            let grab = (x: file2.x + 30, y: file2.midY)
            try pointer.lift(at: grab)
            let over = (x: inbox.midX - 40, y: inbox.maxY - 80)
            try pointer.move(from: (grab.x + 4, grab.y + 4), to: over)
            try await app.waitFor(FeedbackLine.self, "over the inbox", after: mark) {
                $0.event == "proposal" && $0.destination == "inbox"
            }
            try await Task.sleep(for: .milliseconds(250))
            let shot = try Screenshot.capture(app.display)
            // The front card hangs from the grab point: its top-left corner 30 px left of and
            // half a row above the pointer.
            let front = ScreenRect(x: over.x - 30, y: over.y - file2.height / 2, width: file2.width, height: file2.height)
                .insetBy(4, 4)
            let area = Int(front.width * front.height)
            let selection = shot.count(in: front, where: near(selected, 6))
            #expect(selection > area / 3, "F2: the card shows the selected row (\(selection) of \(area) pixels in its colour)")
            // Its text: pixels that are neither the selection's colour nor near white or black
            // (the anti-aliased edges of the white letters on the colour).
            let text = shot.count(in: front) { p in
                !near(selected, 12)(p) && Int(p.red) + Int(p.green) + Int(p.blue) < 3 * 245
            }
            #expect(text > 20, "F2: the row's text shows on the card (\(text) pixels)")
            try pointer.release()
            try await app.waitFor(FeedbackLine.self, "the end of the drop", after: mark) { $0.event == "outcome" }
        }
    }

    @Test(
        "C4: the archive is one Tab stop; Shift+End selects to its end, Ctrl+Shift+D picks every selected row up, Tab reaches the inbox and Return drops there"
    )
    func keyboardDragOfOffScreenRows() async throws {
        try await Self.withCollections { app, pointer in
            let layout = try await app.settledSceneLayout()
            let file2 = try layout.frame("archive/File 2")
            var mark = app.lineCount
            try pointer.click(at: (file2.midX, file2.midY))
            try pointer.key("shift+End")
            try await Self.waitFor(app, "archive", "rows 2 to the end selected", after: mark) {
                $0.selectedCount == 99_998
            }
            mark = app.lineCount
            try pointer.key("ctrl+shift+d")
            let lifted = try await app.waitFor(FeedbackLine.self, "the keyboard pick-up", after: mark) { $0.event == "lifted" }
            #expect(lifted.items?.count == 99_998)
            #expect(lifted.mode == "keyboard")
            let spoken = try await app.waitFor(FeedbackLine.self, "the pick-up announced", after: mark) {
                $0.event == "announcement"
            }
            #expect(spoken.text?.hasPrefix("Picked up 99998 files.") == true, "\(spoken)")
            var focus: String?
            for _ in 0..<3 where focus != "inbox" {
                let before = app.lineCount
                try pointer.key("Tab")
                let line = try await app.waitFor(FeedbackLine.self, "the next drop point", after: before) {
                    $0.event == "keyboardFocus"
                }
                focus = line.target
            }
            #expect(focus == "inbox")
            try pointer.key("Return")
            let inbox = try await Self.waitFor(app, "inbox", "the rows dropped in the inbox", after: mark, timeout: 30) {
                $0.count == 3 + 99_998
            }
            #expect(inbox.head.suffix(2) == ["File 2", "File 3"] || inbox.head.contains("File 2"))
            try await Self.waitFor(app, "archive", "two rows left", after: mark, timeout: 30) {
                $0.head == ["File 0", "File 1"]
            }
        }
    }

    @Test("A4, A5: a drop on a slow inbox shows a placeholder row with progress until the content arrives")
    func placeholderRows() async throws {
        try await Self.withCollections(["--slow-inbox"]) { app, pointer in
            let layout = try await app.settledSceneLayout()
            let file1 = try layout.frame("archive/File 1")
            let inbox = try layout.frame("inbox")
            let slides = try layout.frame("inbox/Slides")
            let mark = app.lineCount
            try pointer.drag(from: (file1.midX, file1.midY), to: (inbox.midX, slides.maxY + 40), pause: 0.3)
            try await Self.waitFor(app, "inbox", "a drop loading", after: mark) { $0.placeholders == 1 }
            try await app.waitFor(FeedbackLine.self, "progress", after: mark) {
                $0.event == "placeholderProgress" && ($0.fraction ?? 0) >= 0.5
            }
            let shot = try Screenshot.capture(app.display)
            let area = ScreenRect(x: inbox.x, y: slides.maxY, width: inbox.width, height: 80)
            #expect(shot.count(DragStyles.progressFill, in: area) > 40, "A5: the placeholder's progress bar shows")
            let arrived = try await Self.waitFor(app, "inbox", "File 1 arrived", after: mark) {
                $0.head == ["Lunch", "Report", "Slides", "File 1"] && $0.placeholders == 0
            }
            #expect(arrived.count == 4)
            try await Self.waitFor(app, "archive", "File 1 left the archive", after: mark) { $0.count == 99_999 }
        }
    }

    @Test("F2, M1: after the archive scrolled, a recycled row drags the item it shows now")
    func recycledRowDragsItsItem() async throws {
        try await Self.withCollections { app, pointer in
            let layout = try await app.settledSceneLayout()
            let archive = try layout.frame("archive")
            let mark = app.lineCount
            for _ in 0..<6 {
                try app.display.xdotool(["mousemove"] + Pointer.at((archive.midX, archive.midY)) + ["click", "5"])
            }
            try await Self.waitFor(app, "archive", "the archive scrolled", after: mark) {
                $0.offset > 300
            }
            let scrolled = try await app.settledSceneLayout(quiet: 0.5)
            var rows: [(name: String, frame: ScreenRect)] = []
            for (key, frame) in scrolled.frames where key.hasPrefix("archive/File ") {
                if frame.y > archive.y + 30, frame.maxY < archive.maxY - 30 { rows.append((key, frame)) }
            }
            rows.sort { $0.frame.y < $1.frame.y }
            let (name, frame) = try #require(rows.first)
            let title = String(name.dropFirst("archive/".count))
            let number = try #require(Int(title.dropFirst("File ".count)))
            #expect(number >= 8, "a row from further down: \(title)")
            let inbox = try layout.frame("inbox")
            let before = app.lineCount
            try pointer.drag(from: (frame.midX, frame.midY), to: (inbox.midX, inbox.maxY - 60), pause: 0.3)
            let lifted = try await app.waitFor(FeedbackLine.self, "the lift", after: before) { $0.event == "lifted" }
            #expect(lifted.items == ["a\(number)"])
            try await Self.waitFor(app, "inbox", "\(title) in the inbox", after: before) {
                $0.head == ["Lunch", "Report", "Slides", title]
            }
        }
    }

    @Test("SP1, F8: in a grid of 20,000 tiles a folder springs open under a drag and takes the tile dropped on it")
    func gridFolder() async throws {
        try await Self.withCollections(["--grid", "--count", "20000"]) { app, pointer in
            let layout = try await app.settledSceneLayout()
            let file0 = try layout.frame("archive/File 0")
            let album = try layout.frame("archive/Album 0")
            let mark = app.lineCount
            try pointer.drag(from: (file0.midX, file0.midY), to: (album.midX, album.midY), pause: 1.2)
            let opened = try await app.waitFor(FolderOpenedLine.self, "Album 0 opened", after: mark)
            #expect(opened.folder == "Album 0" && opened.duringDrag)
            let grid = try await Self.waitFor(app, "archive", "File 0 moved into Album 0", after: mark) {
                $0.folders["Album 0"] == 1 && $0.count == 19_999
            }
            #expect(grid.head.prefix(2) == ["File 1", "File 2"])
            #expect(app.eventNames(from: mark).contains("springActivated"))
        }
    }

    /// The lowest screen row inside `area` with a few dark (text) pixels: where the last row's
    /// title ends.
    static func lowestText(in shot: Screenshot, _ area: ScreenRect) -> Int? {
        let dark = (red: UInt8(40), green: UInt8(40), blue: UInt8(40))
        var y = Int(area.maxY) - 1
        while y >= Int(area.y) {
            if shot.count(dark, in: ScreenRect(x: area.x, y: Double(y), width: area.width, height: 1), tolerance: 60) >= 2 {
                return y
            }
            y -= 1
        }
        return nil
    }

    @Test(
        "F8, F4: over the inbox the rows from the insertion point make room (the last title moves down a row's gap) and close up once the content leaves"
    )
    func rowsMakeRoom() async throws {
        try await Self.withCollections { app, pointer in
            let layout = try await app.settledSceneLayout()
            let file3 = try layout.frame("archive/File 3")
            let report = try layout.frame("inbox/Report")
            let inbox = try layout.frame("inbox")
            // Below Report's top, where the drag image at the pointer does not reach.
            let area = ScreenRect(x: report.x + 4, y: report.maxY + 2, width: report.width / 2, height: inbox.maxY - report.maxY - 4)
            let resting = try #require(Self.lowestText(in: try Screenshot.capture(app.display), area))
            let mark = app.lineCount
            try pointer.drag(from: (file3.midX, file3.midY), to: (report.midX, report.y + 4), pause: 0.5, release: false)
            try await app.waitFor(FeedbackLine.self, "the insertion before Report", after: mark) {
                $0.event == "insertion" && $0.target == "inbox" && $0.index == 1
            }
            try await Task.sleep(for: .milliseconds(300))
            let open = try #require(Self.lowestText(in: try Screenshot.capture(app.display), area))
            #expect(abs(open - resting - 28) <= 3, "F8: Slides' title moved from \(resting) to \(open), a row's gap")
            // Back over the archive (its own source: no insertion there, F6): the inbox closes up.
            try pointer.move(from: (report.midX, report.y + 4), to: (file3.midX, file3.midY + 2))
            try await app.waitFor(FeedbackLine.self, "the insertion gone", after: mark) {
                $0.event == "insertion" && $0.target == "inbox" && $0.index == nil
            }
            try await Task.sleep(for: .milliseconds(300))
            let closed = try #require(Self.lowestText(in: try Screenshot.capture(app.display), area))
            #expect(abs(closed - resting) <= 1, "F4: Slides' title back at \(resting), not \(closed)")
            try pointer.release()
            try await app.settleAfterDrag(from: mark)
            let rows = try #require(app.latest(CollectionLine.self, id: "inbox"))
            #expect(rows.head == ["Lunch", "Report", "Slides"])
        }
    }

    @Test(
        "C1, K2, U1: the archive's edit menu lists only what applies; Delete takes the selected row as one undo step; Ctrl+Z puts it back in its place"
    )
    func editMenuOnTheArchive() async throws {
        try await Self.withCollections { app, pointer in
            let layout = try await app.settledSceneLayout()
            let file1 = try layout.frame("archive/File 1")
            let empty = try await app.openMenu(at: (file1.midX, file1.midY), pointer: pointer, owner: "Archive")
            #expect(
                empty.items == ["Cut", "Copy", "Move To\u{2026}", "Copy To\u{2026}", "Delete", "Select All"],
                "a secondary click selected File 1 first")
            try pointer.key("Escape")
            try await Task.sleep(for: .milliseconds(300))
            let mark = app.lineCount
            try await app.chooseMenuItem("Delete", at: (file1.midX, file1.midY), pointer: pointer, owner: "Archive")
            let deleted = try await Self.waitFor(app, "archive", "File 1 deleted", after: mark) {
                $0.count == 99_999
            }
            #expect(deleted.head.prefix(3) == ["File 0", "File 2", "File 3"])
            try await Task.sleep(for: .milliseconds(300))
            let undo = try await app.openMenu(at: (file1.midX, file1.midY), pointer: pointer, owner: "Archive")
            #expect(undo.items.first?.hasPrefix("Undo Delete") == true, "\(undo.items)")
            try pointer.key("Escape")
            try await Task.sleep(for: .milliseconds(300))
            try await app.press("ctrl+z", with: pointer, until: CollectionLine.self, "File 1 back") {
                $0.id == "archive" && $0.count == 100_000
            }
            let back = try #require(app.latest(CollectionLine.self, id: "archive"))
            #expect(back.head.prefix(3) == ["File 0", "File 1", "File 2"])
        }
    }
}
