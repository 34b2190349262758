import DragDropGTK
import DriverProtocol
import Foundation
import Testing
import WindowDriver

/// The grid of tiles (`--scene grid`) laid out right to left (`--rtl`: GTK's default direction
/// set as on a Hebrew or Arabic desktop), under a real pointer (L3): GTK mirrors the grid, and
/// the drop lands, and the insertion bar shows, where the mirrored tiles are drawn.
@Suite(
    "GTK: right-to-left layouts mirror", .serialized,
    .enabled(
        if: Tools.missing == nil, "Xvfb is not installed (apt-get install xvfb, or `make deps`): GTK tests skipped.")
)
struct RightToLeftGTKTests {
    static let size = (760, 460)
    static let tiles = ["Mail", "Notes", "Photos", "Music", "Maps", "Clock", "Work", "Games"]

    private func withRightToLeftGrid(_ body: (_ app: FixtureApp, _ pointer: Pointer) async throws -> Void)
        async throws
    {
        let display = try XDisplay.startPrivate()
        defer { display.stop() }
        let app = try await FixtureApp.launch(
            on: display, size: Self.size, arguments: ["--scene", "grid", "--rtl"], environment: ["GTK_A11Y": "none"])
        defer { app.stop() }
        try await body(app, Pointer(display: display))
    }

    @Test(
        "L3, F8: in a right-to-left grid the first tile is at the top right; a tile dropped by the left end of the first row lands after its last tile, with the insertion bar on the right of the tile it will precede"
    )
    func reorderInAMirroredGrid() async throws {
        try await withRightToLeftGrid { app, pointer in
            let layout = try await app.settledSceneLayout()
            let mail = try layout.frame("home/Mail")
            let notes = try layout.frame("home/Notes")
            let music = try layout.frame("home/Music")
            let maps = try layout.frame("home/Maps")
            // GTK mirrored the grid: reading order runs right to left along each row.
            #expect(mail.x > notes.x && notes.x > music.x, "L3: the first row reads from the right")
            #expect(abs(maps.x - mail.x) <= 1 && maps.y > mail.y, "L3: the second row starts on the right")
            // Right of Maps, the first tile of the second row: where the bar is drawn in right to
            // left; left of it is where a left-to-right grid would draw it.
            let barArea = ScreenRect(x: maps.x + maps.width, y: maps.y + 8, width: 9, height: maps.height - 16)
            let wrongSide = ScreenRect(x: maps.x - 9, y: maps.y + 8, width: 9, height: maps.height - 16)
            let color = DragGridView.insertionColor
            #expect(try Screenshot.capture(app.display).count(color, in: barArea) == 0)

            // Over the left end of Music, the first row's last tile: the drop goes after it (index 4,
            // before Maps). Read left to right the same point would be before Music (index 3).
            let target = (music.x + 6, music.midY)
            let mark = app.lineCount
            try pointer.drag(from: (mail.midX, mail.midY), to: target, pause: 0.3, release: false)
            try await app.waitFor(FeedbackLine.self, "the insertion index 4", after: mark) {
                $0.event == "insertion" && $0.index == 4
            }
            try await Task.sleep(for: .milliseconds(250))
            let shot = try Screenshot.capture(app.display)
            try? app.display.screenshot(to: "/tmp/dragdrop-rtl-grid-bar.png")
            let bar = shot.count(color, in: barArea)
            #expect(bar > 150, "L3, F8: insertion-bar pixels right of Maps: \(bar)")
            #expect(shot.count(color, in: wrongSide) == 0, "L3: no bar on Maps' left, between Maps and Clock")
            try pointer.release()
            let reordered = ["Notes", "Photos", "Music", "Mail", "Maps", "Clock", "Work", "Games"]
            try await app.waitFor(GridLine.self, "the reordered grid", after: mark) { $0.tiles == reordered }
            let committed = try #require(app.events(from: mark).first { $0.event == "committed" })
            #expect(committed.index == 4)
            #expect(committed.operation == "move")
        }
    }

    @Test(
        "L3: in a right-to-left grid a tile dropped on the right half of Photos lands before it, as drawn (left to right it would land after it)"
    )
    func dropBeforeATileFromItsRight() async throws {
        try await withRightToLeftGrid { app, pointer in
            let layout = try await app.settledSceneLayout()
            let photos = try layout.frame("home/Photos")
            let games = try layout.frame("home/Games")
            let mark = app.lineCount
            // Near Photos' right edge, but inside it (the middle of a tile is spring-loading
            // territory only for folders; Photos is not one).
            try pointer.drag(from: (games.midX, games.midY), to: (photos.maxX - 8, photos.midY), pause: 0.3)
            let reordered = ["Mail", "Notes", "Games", "Photos", "Music", "Maps", "Clock", "Work"]
            try await app.waitFor(GridLine.self, "Games before Photos", after: mark) { $0.tiles == reordered }
            let committed = try #require(app.events(from: mark).first { $0.event == "committed" })
            #expect(committed.index == 2)
        }
    }

    @Test(
        "L3, M3: right to left the flock trails to the left of the pointer: the cards behind two dragged tiles, and their backdrop, are left of the front card, none right of it"
    )
    func flockTrailsLeft() async throws {
        try await withRightToLeftGrid { app, pointer in
            let layout = try await app.settledSceneLayout()
            let mail = try layout.frame("home/Mail")
            let notes = try layout.frame("home/Notes")
            let grid = try layout.frame("home")
            var mark = app.lineCount
            try pointer.click(at: (mail.midX, mail.midY))
            try pointer.click(at: (notes.midX, notes.midY), holding: ["ctrl"])
            try await app.waitFor(GridLine.self, "Mail and Notes selected", after: mark) {
                $0.selected == ["Mail", "Notes"]
            }
            // Into the grid's empty lower half, grabbed by Mail's centre: the front card is
            // centred on the pointer.
            let target = (grid.midX, grid.maxY - 120)
            mark = app.lineCount
            try pointer.drag(from: (mail.midX, mail.midY), to: target, pause: 0.4, release: false)
            try await app.waitFor(FeedbackLine.self, "a flock of two", after: mark) {
                $0.event == "preview" && $0.count == 2 && $0.flocked == true
            }
            try await Task.sleep(for: .milliseconds(300))
            let shot = try Screenshot.capture(app.display)
            try? app.display.screenshot(to: "/tmp/dragdrop-rtl-flock.png")
            let (left, right) = (target.0 - mail.width / 2, target.0 + mail.width / 2)
            let band = (y: target.1 - mail.height / 2, height: mail.height + 14)
            let backdrop = DragStyles.flockBackdrop
            let trailing = shot.count(
                backdrop, in: ScreenRect(x: left - 14, y: band.y, width: 11, height: band.height), tolerance: 6)
            let leading = shot.count(
                backdrop, in: ScreenRect(x: right + 8, y: band.y, width: 11, height: band.height), tolerance: 6)
            #expect(trailing > 40, "L3, M3: flock pixels left of the front card: \(trailing)")
            #expect(leading == 0, "L3: nothing of the flock right of the front card: \(leading)")
            try pointer.release()
            try await app.waitForDragEnd(after: mark)
        }
    }

    private func withRightToLeftPages(_ body: (FixtureApp, Pointer, SceneLayout) async throws -> Void) async throws {
        let display = try XDisplay.startPrivate()
        defer { display.stop() }
        let app = try await FixtureApp.launch(
            on: display, size: PagedControlsTests.size, arguments: ["--scene", "pages", "--rtl"],
            environment: ["GTK_A11Y": "none"])
        defer { app.stop() }
        let layout = try await app.settledSceneLayout()
        try await body(app, Pointer(display: display), layout)
    }

    @Test(
        "L3, K7: right to left the page control's first dot is on the right; a click left of the current dot, the Left arrow and a swipe to the right go to the next page, the Right arrow back"
    )
    func mirroredPageControlAndSwipe() async throws {
        try await withRightToLeftPages { app, pointer, layout in
            let dots = try layout.frame("dots")
            let first = try layout.frame("dot/0")
            let last = try layout.frame("dot/2")
            #expect(first.x > last.x, "L3: page 1's dot is right of page 3's")
            let drawn = PagedControlsTests.drawnDots(try Screenshot.capture(app.display), in: dots)
            #expect(
                drawn.map(\.current) == [false, false, true],
                "the current (first) page's dot is drawn rightmost: \(drawn)")
            try? app.display.screenshot(to: "/tmp/dragdrop-rtl-pages.png")

            // Left of the current dot: the next page (one step, never to the dot clicked).
            var mark = app.lineCount
            try pointer.click(at: (last.x, last.y))
            try await PagedControlsTests.waitForPage(1, how: "pageControl", app, after: mark)
            try await Task.sleep(for: .milliseconds(300))
            #expect(!app.lines(PagesLine.self, from: mark).contains { $0.current == 2 })
            // The arrows go the way the dots read: Left forward, Right back.
            mark = app.lineCount
            try pointer.key("Left")
            try await PagedControlsTests.waitForPage(2, how: "pageControl", app, after: mark)
            mark = app.lineCount
            try pointer.key("Right")
            try await PagedControlsTests.waitForPage(1, how: "pageControl", app, after: mark)

            // A swipe to the right on page 2's empty area (below its icons) brings page 3.
            try await Task.sleep(for: .milliseconds(400))
            let pages = try layout.frame("pages")
            mark = app.lineCount
            try pointer.drag(
                from: (pages.midX - 150, pages.maxY - 60), to: (pages.midX + 70, pages.maxY - 60), steps: 8)
            try await PagedControlsTests.waitForPage(2, how: "swipe", app, after: mark)
            #expect(!app.eventNames(from: mark).contains("lifted"), "a swipe is no content drag")
        }
    }

    @Test("L3, SP1, K7: right to left the next page's edge is on the left: an icon held there turns to the next page")
    func mirroredSpringEdge() async throws {
        try await withRightToLeftPages { app, pointer, layout in
            let pages = try layout.frame("pages")
            let edge = try layout.frame("edge/next")
            #expect(edge.maxX < pages.midX, "L3: the next page's edge is the left one: \(edge) in \(pages)")
            #expect((try? layout.frame("edge/previous")) == nil, "no previous edge on the first page")
            let maps = try layout.frame("page-1/Maps")
            let mark = app.lineCount
            try pointer.drag(
                from: maps.center, to: (edge.midX, edge.midY), pause: 0.1,
                then: ["mousemove"] + Pointer.at((edge.midX, edge.midY + 2)) + ["sleep", "1.2"], release: false)
            try await PagedControlsTests.waitForPage(1, how: "springLoaded", app, after: mark)
            #expect(app.events(from: mark).contains { $0.event == "springActivated" && $0.target == "home.next" })
            try pointer.release()
            try await app.waitForDragEnd(after: mark)
        }
    }
}
