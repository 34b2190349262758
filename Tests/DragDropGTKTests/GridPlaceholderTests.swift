import DragDropGTK
import Foundation
import ShowcaseDriver
import Testing

/// Placeholders in the grid of tiles (`--scene grid --slow-grid`): drops load over about 3 s.
@Suite(
    "GTK: grid placeholders", .serialized,
    .enabled(
        if: Tools.missing == nil, "Xvfb is not installed (apt-get install xvfb, or `make deps`): GTK tests skipped.")
)
struct GridPlaceholderTests {
    static func tiles(_ grid: JSONObject) -> [String] { grid["tiles"] as? [String] ?? [] }

    @Test(
        "A4, A5, S4: a tile dropped on a slowly loading grid shows a placeholder tile with a progress bar at the drop index; the tile leaves its place only when it arrives"
    )
    func placeholderTileWithProgress() async throws {
        let display = try XDisplay.startPrivate()
        defer { display.stop() }
        let app = try await FixtureApp.launch(
            on: display, size: (760, 460), arguments: ["--scene", "grid", "--slow-grid"])
        defer { app.stop() }
        let pointer = Pointer(display: display)

        let layout = try await app.settledSceneLayout()
        let home = try layout.frame("home")
        let mail = try layout.frame("home/Mail")
        let music = try layout.frame("home/Music")
        let maps = try layout.frame("home/Maps")
        let fill = near(DragStyles.progressFill, 6)
        #expect(try Screenshot.capture(app.display).count(in: home, where: fill) == 0)

        // In the gap between the rows, at the right end: the drop goes before Maps (index 4).
        let mark = app.lineCount
        try pointer.drag(
            from: (mail.midX, mail.midY), to: (music.x + music.width - 6, (music.maxY + maps.y) / 2), pause: 0.3)
        let inserted = try await app.waitFor("the placeholder", after: mark) {
            $0["event"] as? String == "placeholderInserted"
        }
        #expect(inserted["target"] as? String == "home")
        #expect(inserted["index"] as? Int == 4, "A4: the placeholder sits at the drop index")
        try await app.waitFor("a third of the loading", after: mark) {
            $0["kind"] as? String == "loading" && ($0["fraction"] as? Double ?? 0) >= 0.3
        }
        try await Task.sleep(for: .milliseconds(120))
        let midway = try Screenshot.capture(app.display)
        let shown = midway.count(in: home, where: fill)
        #expect(shown > 30, "A4, A5: the placeholder tile's progress bar shows: \(shown) pixels")
        if let bar = midway.bounds(in: home, where: fill) {
            #expect(bar.y > music.maxY, "A4: the placeholder is in the second row, where Maps was (bar at \(bar))")
        }
        // S4: the move has not happened yet: Mail is still in its place.
        let during = try #require(app.latest(kind: "grid"))
        #expect(Self.tiles(during).first == "Mail", "S4: the source keeps the tile while it loads")

        let arrived = try await app.waitFor(kind: "grid", "Mail arrived", after: mark, timeout: 10) {
            Self.tiles($0) == ["Notes", "Photos", "Music", "Mail", "Maps", "Clock", "Work", "Games"]
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
