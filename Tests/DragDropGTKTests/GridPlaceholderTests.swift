import DragDropGTK
import Foundation
import DriverProtocol
import WindowDriver
import Testing

/// Placeholders in the grid of tiles (`--scene grid --slow-grid`): drops load over about 3 s
/// (`--failing-grid`: the loading breaks halfway).
@Suite(
    "GTK: grid placeholders", .serialized,
    .enabled(
        if: Tools.missing == nil, "Xvfb is not installed (apt-get install xvfb, or `make deps`): GTK tests skipped.")
)
struct GridPlaceholderTests {
    static func tiles(_ grid: GridLine) -> [String] { grid.tiles }
    /// The grid's tiles before any drop.
    static let original = ["Mail", "Notes", "Photos", "Music", "Maps", "Clock", "Work", "Games"]
    /// The tiles once Mail arrived before Maps.
    static let mailBeforeMaps = ["Notes", "Photos", "Music", "Mail", "Maps", "Clock", "Work", "Games"]
    static let size = (760, 460)

    /// Runs `body` with the slowly loading grid scene (and `extra` arguments) on a fresh display.
    func withSlowGrid(_ extra: [String] = [], _ body: (FixtureApp, Pointer) async throws -> Void) async throws {
        let display = try XDisplay.startPrivate()
        defer { display.stop() }
        let app = try await FixtureApp.launch(
            on: display, size: Self.size, arguments: ["--scene", "grid", "--slow-grid"] + extra)
        defer { app.stop() }
        try await body(app, Pointer(display: display))
    }

    /// Drags Mail over the right end of Music, the first row's last tile, so the drop goes after
    /// it, before Maps (index 4); returns the line count before the drag.
    func dropMailBeforeMaps(_ app: FixtureApp, _ pointer: Pointer) async throws -> Int {
        let layout = try await app.settledSceneLayout()
        let mail = try layout.frame("home/Mail")
        let music = try layout.frame("home/Music")
        let mark = app.lineCount
        try pointer.drag(from: (mail.midX, mail.midY), to: (music.x + music.width - 6, music.midY), pause: 0.3)
        return mark
    }

    @Test(
        "A4, A5, S4: a tile dropped on a slowly loading grid shows a placeholder tile with a progress bar at the drop index; the tile leaves its place only when it arrives"
    )
    func placeholderTileWithProgress() async throws {
        try await withSlowGrid { app, pointer in
            let layout = try await app.settledSceneLayout()
            let home = try layout.frame("home")
            let music = try layout.frame("home/Music")
            let fill = near(DragStyles.progressFill, 6)
            #expect(try Screenshot.capture(app.display).count(in: home, where: fill) == 0)

            let mark = try await dropMailBeforeMaps(app, pointer)
            let inserted = try await app.waitFor(FeedbackLine.self, "the placeholder", after: mark) {
                $0.event == "placeholderInserted"
            }
            #expect(inserted.target == "home")
            #expect(inserted.index == 4, "A4: the placeholder sits at the drop index")
            try await app.waitFor(LoadingLine.self, "a third of the loading", after: mark) {
                $0.fraction >= 0.3
            }
            try await Task.sleep(for: .milliseconds(120))
            let midway = try Screenshot.capture(app.display)
            let shown = midway.count(in: home, where: fill)
            #expect(shown > 30, "A4, A5: the placeholder tile's progress bar shows: \(shown) pixels")
            if let bar = midway.bounds(in: home, where: fill) {
                #expect(bar.y > music.maxY, "A4: the placeholder is in the second row, where Maps was (bar at \(bar))")
            }
            // S4: the move has not happened yet: Mail is still in its place.
            let during = try #require(app.latest(GridLine.self))
            #expect(Self.tiles(during).first == "Mail", "S4: the source keeps the tile while it loads")

            let arrived = try await app.waitFor(GridLine.self, "Mail arrived", after: mark, timeout: 10) {
                Self.tiles($0) == Self.mailBeforeMaps
            }
            #expect(Self.tiles(arrived).filter { $0 == "Mail" }.count == 1)
            try await Task.sleep(for: .milliseconds(250))
            #expect(
                try Screenshot.capture(app.display).count(in: home, where: fill) == 0,
                "A4: the placeholder gave way to the tile")
            let names = app.eventNames(from: mark)
            #expect(names.contains("placeholderResolved"))
        }
    }

    @Test(
        "A4, A6, S4: a deferred grid drop whose loading breaks removes its placeholder tile, shows and announces why, and leaves the source and the undo stack untouched"
    )
    func failedLoadRemovesPlaceholder() async throws {
        try await withSlowGrid(["--failing-grid"]) { app, pointer in
            let home = try await app.settledSceneLayout().frame("home")
            let fill = near(DragStyles.progressFill, 6)
            let mark = try await dropMailBeforeMaps(app, pointer)
            let inserted = try await app.waitFor(FeedbackLine.self, "the placeholder", after: mark) {
                $0.event == "placeholderInserted"
            }
            #expect(inserted.index == 4, "A4: the placeholder sits at the drop index")

            // The loading breaks halfway: the placeholder fails with the reason, which is shown
            // and announced.
            let failed = try await app.waitFor(FeedbackLine.self, "the failed placeholder", after: mark) {
                $0.event == "placeholderFailed"
            }
            #expect((failed.reason)?.contains("interrupted") == true)
            let notice = try await app.waitFor(NoticeLine.self, "the failure notice", after: mark)
            #expect(notice.message.contains("\u{201C}Mail\u{201D} could not be loaded") == true)
            let announcement = try await app.waitFor(FeedbackLine.self, "the failure announcement", after: mark) {
                $0.event == "announcement" && $0.text?.hasPrefix("Not dropped") == true
            }
            #expect((announcement.text)?.contains("interrupted") == true, "A6: \(announcement)")
            try await Task.sleep(for: .milliseconds(250))
            let shot = try Screenshot.capture(app.display)
            #expect(shot.count(in: home, where: fill) == 0, "A6: the failed placeholder tile is gone")
            let window = ScreenRect(
                x: app.origin.x, y: app.origin.y, width: Double(Self.size.0), height: Double(Self.size.1))
            let shown = shot.count(in: window, where: near(DragStyles.noticeFill))
            #expect(shown > 1000, "A6: the reason is on screen: \(shown) notice pixels")

            // S4: nothing moved; no step to undo.
            #expect(
                app.lines(GridLine.self, from: mark).allSatisfy {
                    Self.tiles($0) == Self.original
                })
            #expect(Self.tiles(try #require(app.latest(GridLine.self))) == Self.original)
            let names = app.eventNames(from: mark)
            #expect(!names.contains("committed") && !names.contains("sourceRemoved"), "\(names)")
            let notes = try await app.settledSceneLayout().frame("home/Notes")
            let menu = try await app.openMenu(at: (notes.midX, notes.midY), pointer: pointer, owner: "Home")
            #expect(!menu.items.contains { $0.hasPrefix("Undo") }, "no undo step: \(menu.items)")
        }
    }

    @Test(
        "A4, S4, U1: undo after a deferred grid drop arrived puts the tile back where it was and takes the arrived tile away; redo moves it again"
    )
    func undoAfterDeferredDrop() async throws {
        try await withSlowGrid { app, pointer in
            let mark = try await dropMailBeforeMaps(app, pointer)
            try await app.waitFor(GridLine.self, "Mail arrived", after: mark, timeout: 10) {
                Self.tiles($0) == Self.mailBeforeMaps
            }
            #expect(app.eventNames(from: mark).contains("placeholderResolved"))
            try await app.settleAfterDrag(from: mark)

            let undone = try await app.press("ctrl+z", with: pointer, until: GridLine.self, "the undone drop") {
                Self.tiles($0) == Self.original
            }
            #expect(Self.tiles(undone.line).filter { $0 == "Mail" }.count == 1, "U1: the arrived tile is gone")
            #expect(app.eventNames(from: undone.mark).contains("undid"))
            let redone = try await app.press("ctrl+shift+z", with: pointer, until: GridLine.self, "the redone drop") {
                Self.tiles($0) == Self.mailBeforeMaps
            }
            #expect(app.eventNames(from: redone.mark).contains("redid"))
        }
    }
}
