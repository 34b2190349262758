import DragDropGTK
import Foundation
import DriverProtocol
import WindowDriver
import Testing

/// The page control and the paged view (`--scene pages`: three grids of icons), driven with
/// real pointer and key events.
@Suite(
    "GTK: page control and paged view", .serialized,
    .enabled(
        if: Tools.missing == nil, "Xvfb is not installed (apt-get install xvfb, or `make deps`): GTK tests skipped.")
)
struct PagedControlsTests {
    static let size = (700, 480)

    static func withPages(_ body: (FixtureApp, Pointer, SceneLayout) async throws -> Void) async throws {
        let display = try XDisplay.startPrivate()
        defer { display.stop() }
        let app = try await FixtureApp.launch(
            on: display, size: size, arguments: ["--scene", "pages"], environment: ["GTK_A11Y": "test"])
        defer { app.stop() }
        let layout = try await app.settledSceneLayout()
        try await body(app, Pointer(display: display), layout)
    }

    /// Waits for the page shown to be `page`, changed by `how`.
    @discardableResult
    static func waitForPage(_ page: Int, how: String, _ app: FixtureApp, after mark: Int) async throws -> PagesLine {
        try await app.waitFor(PagesLine.self, "page \(page + 1) shown by \(how)", after: mark) {
            $0.current == page && $0.how == how
        }
    }

    /// The centres of the dots as drawn: runs of dot-coloured pixels along the control's middle row.
    static func drawnDots(_ shot: Screenshot, in dots: ScreenRect) -> [(x: Double, current: Bool)] {
        let y = Int(dots.midY.rounded(.down))
        var runs: [(x: Double, current: Bool)] = []
        var start: Int?
        var current = false
        for x in Int(dots.x)...Int(dots.maxX) {
            let pixel = shot.pixel(x, y)
            let isCurrent = near(ControlStyles.currentDot, 40)(pixel)
            let isOther = near(ControlStyles.otherDot, 25)(pixel)
            if isCurrent || isOther {
                if start == nil {
                    start = x
                    current = false
                }
                current = current || isCurrent
            } else if let s = start {
                runs.append((Double(s + x - 1) / 2, current))
                start = nil
            }
        }
        return runs
    }

    @Test(
        "K7: equally spaced dots, the current one highlighted; a click after or before the current dot steps one page, never to the dot clicked"
    )
    func dotsAndClicks() async throws {
        try await Self.withPages { app, pointer, layout in
            #expect(
                app.lines(HIGLine.self).first?.findings == [],
                "the paged view and its page control pass the HIG check")
            let refused = try await app.waitFor(RefusedLine.self, "the eleventh page refused", after: 0)
            #expect(
                refused.message
                    == "A page control shows at most 10 pages; 11 pages need a grid that reaches any page directly.")

            let dots = try layout.frame("dots")
            var drawn = Self.drawnDots(try Screenshot.capture(app.display), in: dots)
            #expect(drawn.count == 3, "three dots drawn: \(drawn)")
            #expect(drawn.map(\.current) == [true, false, false], "the first page's dot is highlighted")
            if drawn.count == 3 {
                #expect(abs((drawn[1].x - drawn[0].x) - (drawn[2].x - drawn[1].x)) <= 1, "equal spacing: \(drawn)")
            }

            // A click on the last dot from page 1 goes to page 2 only (sequential).
            let last = try layout.frame("dot/2")
            var mark = app.lineCount
            try pointer.click(at: (last.x, last.y))
            try await Self.waitForPage(1, how: "pageControl", app, after: mark)
            try await Task.sleep(for: .milliseconds(400))
            #expect(
                !app.lines(PagesLine.self, from: mark).contains { $0.current == 2 })
            drawn = Self.drawnDots(try Screenshot.capture(app.display), in: dots)
            #expect(drawn.map(\.current) == [false, true, false], "the second dot is highlighted now: \(drawn)")

            // On the current dot: nothing. Before it: back one page.
            let middle = try layout.frame("dot/1")
            mark = app.lineCount
            try pointer.click(at: (middle.x, middle.y))
            try await Task.sleep(for: .milliseconds(400))
            #expect(!app.lines(PagesLine.self, from: mark).contains { _ in true })
            let first = try layout.frame("dot/0")
            mark = app.lineCount
            try pointer.click(at: (first.x - 4, first.y))
            try await Self.waitForPage(0, how: "pageControl", app, after: mark)
        }
    }

    @Test(
        "K7, K12: the keyboard steps pages (arrows on the focused page control, Page Down anywhere); a swipe on the empty area turns a page, a press on an icon drags it instead"
    )
    func keyboardAndSwipe() async throws {
        try await Self.withPages { app, pointer, layout in
            // The page control takes the focus with a click (as Tab would), then the arrows step.
            let first = try layout.frame("dot/0")
            var mark = app.lineCount
            try pointer.click(at: (first.x, first.y))  // on the current dot: focus, no change
            try pointer.key("Right")
            try await Self.waitForPage(1, how: "pageControl", app, after: mark)
            mark = app.lineCount
            try pointer.key("Left")
            try await Self.waitForPage(0, how: "pageControl", app, after: mark)
            mark = app.lineCount
            try pointer.key("Page_Down")
            try await Self.waitForPage(1, how: "keyboard", app, after: mark)

            // A swipe to the left on page 2's empty area (below its icons) turns to page 3.
            try await Task.sleep(for: .milliseconds(400))
            let pages = try layout.frame("pages")
            mark = app.lineCount
            try pointer.drag(
                from: (pages.midX + 150, pages.maxY - 60), to: (pages.midX - 70, pages.maxY - 60), steps: 8)
            try await Self.waitForPage(2, how: "swipe", app, after: mark)
            #expect(!app.eventNames(from: mark).contains("lifted"), "a swipe is no content drag")

            // Back on page 1, the same motion starting on an icon drags the icon: no page turn.
            mark = app.lineCount
            try pointer.key("Page_Up")
            try pointer.key("Page_Up")
            try await Self.waitForPage(0, how: "keyboard", app, after: mark)
            try await Task.sleep(for: .milliseconds(400))
            let clock = try layout.frame("page-1/Clock")
            mark = app.lineCount
            try pointer.drag(from: clock.center, to: (clock.midX - 150, clock.midY + 120))
            try await app.waitForDragEnd(after: mark)
            #expect(app.eventNames(from: mark).contains("lifted"), "the icon was dragged")
            #expect(!app.lines(PagesLine.self, from: mark).contains { _ in true }, "no page turned")

            // After a content drag (whose pointer grab ate the release) a swipe still works.
            try await Task.sleep(for: .milliseconds(700))
            mark = app.lineCount
            try pointer.drag(
                from: (pages.midX + 150, pages.maxY - 60), to: (pages.midX - 70, pages.maxY - 60), steps: 8)
            try await Self.waitForPage(1, how: "swipe", app, after: mark)
        }
    }

    @Test(
        "SP1, SP3, K7, C4: an icon held at the right edge flashes it, turns to the next page after the pause, and drops there; Ctrl+Z takes it back; by keyboard the edge is a drop point that Space turns at once"
    )
    func springEdge() async throws {
        try await Self.withPages { app, pointer, layout in
            let maps = try layout.frame("page-1/Maps")
            let edge = try layout.frame("edge/next")
            #expect((try? layout.frame("edge/previous")) == nil, "no previous edge on the first page")
            var mark = app.lineCount
            try pointer.drag(
                from: maps.center, to: (edge.midX, edge.midY), pause: 0.1,
                then: ["mousemove"] + Pointer.at((edge.midX, edge.midY + 2)) + ["sleep", "1.2"], release: false)
            try await Self.waitForPage(1, how: "springLoaded", app, after: mark)
            let events = app.events(from: mark)
            let flash = events.firstIndex {
                $0.event == "springFlash" && $0.target == "home.next"
            }
            let activated = events.firstIndex {
                $0.event == "springActivated" && $0.target == "home.next"
            }
            #expect(flash != nil && activated != nil && flash! < activated!, "SP1: the edge flashes before it turns")
            // Onto page 2's icons (shown where page 1's were), between two of them, and drop.
            let grid = try layout.frame("page-1")
            try pointer.move(from: (edge.midX, edge.midY), to: (grid.midX, grid.y + 32))
            try await Task.sleep(for: .milliseconds(300))
            try pointer.release()
            try await app.waitFor(GridLine.self, "Maps on page 2", after: mark) {
                $0.id == "page-2" && $0.tiles.contains("Maps")
            }
            try await app.waitForDragEnd(after: mark)
            let committed = app.events(from: mark).first { $0.event == "committed" }
            #expect(committed?.destination == "page-2")
            try await Task.sleep(for: .milliseconds(300))
            mark = app.lineCount
            try pointer.key("ctrl+z")
            try await app.waitFor(GridLine.self, "Maps off page 2", after: mark) {
                $0.id == "page-2" && !$0.tiles.contains("Maps")
            }

            // C4, SP3: by keyboard, on page 2 still: pick up Books (where Mail is on page 1), Tab to
            // the next-page edge, Space turns at once, Tab to page 3's grid, Return drops there.
            let mail = try layout.frame("page-1/Mail")
            try await Task.sleep(for: .milliseconds(300))
            mark = app.lineCount
            try pointer.click(at: mail.center)
            try pointer.key("ctrl+shift+d")
            func announced(_ text: String, after mark: Int) async throws {
                try await app.waitFor(FeedbackLine.self, "'\(text)'", after: mark) {
                    $0.event == "announcement" && $0.text == text
                }
            }
            try await announced("Picked up 'Books'. 3 drop points; press Tab to choose one.", after: mark)
            var found = false
            for _ in 0..<4 where !found {
                let before = app.lineCount
                try pointer.key("Tab")
                let line = try await app.waitFor(FeedbackLine.self, "a drop point", after: before) {
                    $0.event == "announcement"
                }
                found = line.text == "Over Next Page, cannot drop here."
            }
            #expect(found, "the edge is a drop point of the keyboard drag")
            mark = app.lineCount
            try pointer.key("space")
            try await Self.waitForPage(2, how: "springLoaded", app, after: mark)
            #expect(
                app.events(from: mark).contains {
                    $0.event == "springActivated" && $0.explicit == true
                }, "Space opened it at once")
            found = false
            for _ in 0..<4 where !found {
                let before = app.lineCount
                try pointer.key("Tab")
                let line = try await app.waitFor(FeedbackLine.self, "a drop point", after: before) {
                    $0.event == "announcement"
                }
                found = (line.text)?.hasPrefix("Over Page 3") == true
            }
            #expect(found, "page 3's icons are a drop point now")
            mark = app.lineCount
            try pointer.key("Return")
            try await app.waitFor(GridLine.self, "Books on page 3 by keyboard", after: mark) {
                $0.id == "page-3" && $0.tiles.contains("Books")
            }
        }
    }
}
