import DragDropGTK
import Foundation
import WindowDriver
import Testing

/// The lines between a `DragCollectionView` list's rows, which the list draws itself in one
/// snapshot (RowLines.c) instead of a border on every row: seen in screenshots of a real window,
/// under every row but the last, and still under the rows after the list scrolled.
@Suite(
    "GTK: a virtualized list's row separators", .serialized,
    .enabled(
        if: Tools.missing == nil, "Xvfb is not installed (apt-get install xvfb, or `make deps`): GTK tests skipped.")
)
struct CollectionViewSeparatorTests {
    /// The separator's colour on a white row: black at 8 % over white.
    static let line = (red: UInt8(235), green: UInt8(235), blue: UInt8(235))
    static let white = (red: UInt8(255), green: UInt8(255), blue: UInt8(255))

    /// The right half of the row `frame` (no title there; the scrollbar left out), `height`
    /// pixel rows from `y`.
    static func band(_ frame: ScreenRect, y: Double, height: Double = 1) -> ScreenRect {
        ScreenRect(x: frame.x + frame.width / 2, y: y, width: frame.width / 2 - 12, height: height)
    }

    /// Whether the row `frame` shows a whole separator line at or just below its bottom, and
    /// none through its middle.
    static func expectSeparator(under name: String, _ frame: ScreenRect, in shot: Screenshot) {
        let width = Int(frame.width / 2 - 12)
        let below = shot.count(line, in: band(frame, y: frame.maxY - 1, height: 3), tolerance: 2)
        #expect(below >= width && below < 2 * width, "one line under \(name): \(below) line pixels for \(width)")
        let middle = band(frame, y: frame.y + 3, height: frame.height - 6)
        #expect(shot.count(line, in: middle, tolerance: 2) == 0, "no line inside \(name)")
        #expect(shot.count(white, in: middle, tolerance: 0) == width * Int(frame.height - 6), "\(name) is white inside")
    }

    @Test("F8: every row of a list but the last has one grey line under it, also after the list scrolled")
    func separatorsUnderRows() async throws {
        try await CollectionViewTests.withCollections { app, _ in
            let layout = try await app.settledSceneLayout()
            let shot = try Screenshot.capture(app.display)
            for name in ["archive/File 1", "archive/File 2", "inbox/Lunch", "inbox/Report"] {
                Self.expectSeparator(under: name, try layout.frame(name), in: shot)
            }
            // The inbox's last row has none (the list ends there).
            let slides = try layout.frame("inbox/Slides")
            #expect(shot.count(Self.line, in: Self.band(slides, y: slides.maxY - 1, height: 6), tolerance: 2) == 0)

            let archive = try layout.frame("archive")
            let mark = app.lineCount
            for _ in 0..<5 {
                try app.display.xdotool(["mousemove"] + Pointer.at((archive.midX, archive.midY)) + ["click", "5"])
            }
            try await CollectionViewTests.waitFor(app, "archive", "the archive scrolled", after: mark) { $0.offset > 200 }
            try app.display.xdotool(["mousemove"] + Pointer.at((archive.maxX + 200, archive.maxY + 40)))
            let scrolled = try await app.settledSceneLayout(quiet: 0.6)
            let after = try Screenshot.capture(app.display)
            let rows = scrolled.frames.filter { key, frame in
                key.hasPrefix("archive/File ") && frame.y > archive.y + 4 && frame.maxY < archive.maxY - 4
            }
            #expect(rows.count >= 6)
            for (name, frame) in rows { Self.expectSeparator(under: name, frame, in: after) }
        }
    }
}
