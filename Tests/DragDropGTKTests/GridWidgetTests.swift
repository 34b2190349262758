import DragDropGTK
import Foundation
import DriverProtocol
import WindowDriver
import Testing

/// The grid of tiles (`--scene grid`) under real pointer and keyboard input.
@Suite(
    "GTK: grid of tiles with folders", .serialized,
    .enabled(
        if: Tools.missing == nil, "Xvfb is not installed (apt-get install xvfb, or `make deps`): GTK tests skipped.")
)
struct GridWidgetTests {
    static let size = (760, 460)
    static let tiles = ["Mail", "Notes", "Photos", "Music", "Maps", "Clock", "Work", "Games"]

    static func tiles(_ grid: GridLine) -> [String] { grid.tiles }
    static func folder(_ name: String, _ grid: GridLine) -> [String]? {
        (grid.folders)?[name]
    }
    static func selected(_ grid: GridLine) -> [String] { grid.selected ?? [] }

    @Test(
        "M1, M3, S4, U1: Ctrl-click selects two tiles; dragged onto a folder they fly together and move into it; Ctrl+Z puts them back"
    )
    func selectionIntoFolder() async throws {
        try await FixtureApp.withScene("grid", size: Self.size) { app, pointer in
            let layout = try await app.settledSceneLayout()
            let mail = try layout.frame("home/Mail")
            let notes = try layout.frame("home/Notes")
            let work = try layout.frame("home/Work")
            var mark = app.lineCount
            try pointer.click(at: (mail.midX, mail.midY))
            try pointer.click(at: (notes.midX, notes.midY), holding: ["ctrl"])
            try await app.waitFor(GridLine.self, "Mail and Notes selected", after: mark) {
                Self.selected($0) == ["Mail", "Notes"]
            }

            mark = app.lineCount
            try pointer.drag(from: (mail.midX, mail.midY), to: (work.midX, work.midY), pause: 0.1)
            let grid = try await app.waitFor(GridLine.self, "both tiles inside Work", after: mark) {
                Self.folder("Work", $0) == ["Slides", "Mail", "Notes"]
            }
            #expect(Self.tiles(grid) == ["Photos", "Music", "Maps", "Clock", "Work", "Games"])
            let events = app.events(from: mark)
            let lifted = try #require(events.first { $0.event == "lifted" })
            #expect((lifted.items)?.count == 2, "M1: the whole selection is dragged")
            #expect(
                events.contains {
                    $0.event == "preview" && $0.count == 2 && $0.flocked == true
                })
            let committed = try #require(events.first { $0.event == "committed" })
            #expect(committed.operation == "move")
            let names = app.eventNames(from: mark)
            #expect(try #require(names.firstIndex(of: "committed")) < #require(names.firstIndex(of: "sourceRemoved")))

            try await app.settleAfterDrag(from: mark)
            let undone = try await app.press("ctrl+z", with: pointer, until: GridLine.self, "the undone drop") {
                Self.tiles($0) == Self.tiles
            }
            #expect(Self.folder("Work", undone.line) == ["Slides"])
        }
    }

    @Test(
        "F2, M3: two tiles dragged together fly as the tiles look (the front card shows the tile's own picture and name, not a blank card), the second stacked behind it"
    )
    func flockShowsTheTiles() async throws {
        try await FixtureApp.withScene("grid", size: Self.size) { app, pointer in
            let layout = try await app.settledSceneLayout()
            let mail = try layout.frame("home/Mail")
            let notes = try layout.frame("home/Notes")
            let home = try layout.frame("home")
            var mark = app.lineCount
            try pointer.click(at: (mail.midX, mail.midY))
            try pointer.click(at: (notes.midX, notes.midY), holding: ["ctrl"])
            try await app.waitFor(GridLine.self, "Mail and Notes selected", after: mark) {
                Self.selected($0) == ["Mail", "Notes"]
            }
            try await Task.sleep(for: .milliseconds(300))
            // The selection's colour, read off the selected tile's left end (no text there).
            let selected = try Screenshot.capture(app.display).pixel(Int(notes.x) + 10, Int(notes.midY))
            #expect(
                Int(selected.red) + Int(selected.green) + Int(selected.blue) < 3 * 230, "a coloured tile: \(selected)")
            mark = app.lineCount
            let grab = (x: notes.midX, y: notes.midY)
            try pointer.lift(at: grab)
            // Below the tiles, over the grid's empty part: nothing under the card but the grid.
            let over = (x: home.midX, y: home.maxY - 60)
            try pointer.move(from: (grab.x + 4, grab.y + 4), to: over)
            try await app.waitFor(FeedbackLine.self, "the flock", after: mark) {
                $0.event == "preview" && $0.count == 2 && $0.flocked == true
            }
            try await Task.sleep(for: .milliseconds(400))
            let shot = try Screenshot.capture(app.display)
            try? app.display.screenshot(to: ".build/test-screenshots/grid-flock.png")
            // The front card hangs from the grab point as the tile did: centred on the pointer.
            let card = ScreenRect(
                x: over.x - notes.width / 2, y: over.y - notes.height / 2, width: notes.width, height: notes.height)
            let seen = FlockCard(shot, card: card, selected: selected, inset: (8, 8), stackWidth: card.width - 8)
            #expect(
                seen.colour > seen.area / 3, "F2: the card shows the tile as it looks (\(seen.colour) of \(seen.area))")
            // Its name: the tile's white letters on its colour.
            #expect(seen.letters > 20, "F2: the tile's name shows on the card (\(seen.letters) white pixels)")
            // M3: the second card is stacked behind, under the front card's bottom edge.
            #expect(seen.stacked > 60, "M3: the card behind shows under the front one (\(seen.stacked) pixels)")
            try pointer.key("Escape")
            try pointer.release()
            try await app.waitForDragEnd(after: mark)
        }
    }

    @Test(
        "F8, U1: a tile dragged between the rows shows the insertion bar before the tile it will precede, lands there, and undo/redo restore and repeat it"
    )
    func reorderWithInsertionBar() async throws {
        try await FixtureApp.withScene("grid", size: Self.size) { app, pointer in
            let layout = try await app.settledSceneLayout()
            let mail = try layout.frame("home/Mail")
            let music = try layout.frame("home/Music")
            let maps = try layout.frame("home/Maps")
            // Left of Maps, the first tile of the second row: where the bar appears.
            let barArea = ScreenRect(x: maps.x - 9, y: maps.y + 8, width: 9, height: maps.height - 16)
            let color = DragGridView.insertionColor
            #expect(try Screenshot.capture(app.display).count(color, in: barArea) == 0)

            // Over the right end of the first row's last tile: the drop goes after it, before Maps
            // (index 4), far from the bar so the drag image does not hide it.
            let target = (music.x + music.width - 6, music.midY)
            let mark = app.lineCount
            try pointer.drag(from: (mail.midX, mail.midY), to: target, pause: 0.3, release: false)
            try await app.waitFor(FeedbackLine.self, "the insertion index 4", after: mark) {
                $0.event == "insertion" && $0.index == 4
            }
            try await Task.sleep(for: .milliseconds(250))
            let bar = try Screenshot.capture(app.display).count(color, in: barArea)
            #expect(bar > 150, "F8: insertion-bar pixels left of Maps: \(bar)")
            try pointer.release()
            let reordered = ["Notes", "Photos", "Music", "Mail", "Maps", "Clock", "Work", "Games"]
            try await app.waitFor(GridLine.self, "the reordered grid", after: mark) { Self.tiles($0) == reordered }
            let committed = try #require(app.events(from: mark).first { $0.event == "committed" })
            #expect(committed.index == 4)
            #expect(committed.operation == "move")
            try await Task.sleep(for: .milliseconds(250))
            #expect(
                try Screenshot.capture(app.display).count(color, in: barArea) == 0, "F4: the bar goes away at the drop")

            try await app.settleAfterDrag(from: mark)
            try await app.press("ctrl+z", with: pointer, until: GridLine.self, "the undone reorder") {
                Self.tiles($0) == Self.tiles
            }
            try await app.press("ctrl+shift+z", with: pointer, until: GridLine.self, "the redone reorder") {
                Self.tiles($0) == reordered
            }
        }
    }

    @Test("M2: pressing Alt over another tile during a drag adds it to the drag; both land in the folder")
    func addToDragWhileDragging() async throws {
        try await FixtureApp.withScene("grid", size: Self.size) { app, pointer in
            let layout = try await app.settledSceneLayout()
            let mail = try layout.frame("home/Mail")
            let photos = try layout.frame("home/Photos")
            let games = try layout.frame("home/Games")
            let mark = app.lineCount
            try pointer.drag(
                from: (mail.midX, mail.midY), to: (photos.midX, photos.midY), pause: 0.3,
                then: ["keydown", "alt", "sleep", "0.1", "keyup", "alt", "sleep", "0.3"]
                    + ["mousemove"] + Pointer.at((games.midX, games.midY - 10)) + ["sleep", "0.05"]
                    + ["mousemove"] + Pointer.at((games.midX, games.midY)) + ["sleep", "0.15"])
            let grid = try await app.waitFor(GridLine.self, "Mail and Photos in Games", after: mark) {
                Self.folder("Games", $0) == ["Mail", "Photos"]
            }
            #expect(Self.tiles(grid) == ["Notes", "Music", "Maps", "Clock", "Work", "Games"])
            let events = app.events(from: mark)
            #expect(events.contains { $0.event == "itemsAdded" })
            #expect(events.contains { $0.event == "preview" && $0.count == 2 })
        }
    }

    @Test("SP1, SP2: a folder held under a drag flashes then opens; a double click opens it too")
    func folderSpringsOpen() async throws {
        try await FixtureApp.withScene("grid", size: Self.size) { app, pointer in
            let layout = try await app.settledSceneLayout()
            let mail = try layout.frame("home/Mail")
            let work = try layout.frame("home/Work")
            var mark = app.lineCount
            try pointer.drag(
                from: (mail.midX, mail.midY), to: (work.midX, work.midY), pause: 1.2,
                then: ["mousemove", "1000", "700", "sleep", "0.1", "mousemove", "1001", "700", "sleep", "0.1"])
            let opened = try await app.waitFor(FolderOpenedLine.self, "Work opened by spring loading", after: mark)
            #expect(opened.folder == "Work")
            #expect(opened.duringDrag == true)
            let names = app.eventNames(from: mark)
            #expect(
                try #require(names.firstIndex(of: "springFlash")) < #require(names.firstIndex(of: "springActivated")))
            let outcome = try await app.waitFor(FeedbackLine.self, "the drag's end", after: mark) {
                $0.event == "outcome"
            }
            #expect(outcome.outcome == "returnToSource")
            #expect(Self.tiles(try #require(app.latest(GridLine.self))) == Self.tiles)

            try await app.waitForDragEnd(after: mark)
            _ = try await app.settledSceneLayout()
            mark = app.lineCount
            try pointer.click(at: work.center, count: 2)
            let clicked = try await app.waitFor(FolderOpenedLine.self, "Work opened by a double click", after: mark)
            #expect(clicked.duringDrag == false)
        }
    }

    @Test("M1: in selection mode plain clicks toggle tiles")
    func selectionMode() async throws {
        try await FixtureApp.withScene("grid", size: Self.size) { app, pointer in
            let layout = try await app.settledSceneLayout()
            let select = try layout.frame("select")
            let mail = try layout.frame("home/Mail")
            let maps = try layout.frame("home/Maps")
            var mark = app.lineCount
            try pointer.click(at: (select.midX, select.midY))
            try await app.waitFor(GridLine.self, "selection mode on", after: mark) {
                $0.selectionMode == true
            }
            mark = app.lineCount
            try pointer.click(at: (mail.midX, mail.midY))
            try pointer.click(at: (maps.midX, maps.midY))
            try await app.waitFor(GridLine.self, "Mail and Maps selected", after: mark) {
                Self.selected($0) == ["Mail", "Maps"]
            }
            mark = app.lineCount
            try pointer.click(at: (mail.midX, mail.midY))
            try await app.waitFor(GridLine.self, "Mail toggled off", after: mark) { Self.selected($0) == ["Maps"] }
        }
    }
}
