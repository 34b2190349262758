import Foundation
import DriverProtocol
import WindowDriver
import ShowcaseModel

#if canImport(Glibc)
    import Glibc
#endif

extension Tour {
    /// The latest state line of `pane`, whole (the fields beyond ``ShowcaseState``).
    func stateObject(_ pane: String) -> StateLine? {
        app.lines(StateLine.self).last { $0.pane == pane }
    }

    /// Waits for a state line of `pane` at or after `mark` where `predicate` holds; returns it.
    @discardableResult
    func waitForStateObject(
        _ pane: String, _ what: String, after mark: Int, timeout: Double = 10, where predicate: (StateLine) -> Bool
    ) throws -> StateLine {
        try app.waitFor(StateLine.self, what, after: mark, timeout: timeout) {
            $0.pane == pane && predicate($0)
        }
    }

    /// The store's settings starting with `prefix`.
    func storedSettings(_ prefix: String) throws -> [String: String] {
        try ShowcaseStore(path: databasePath, seed: false).settings(prefix: prefix)
    }

    /// 13. Home Screen Pages: the page control steps one page per click before or after the
    /// current dot (never to the dot clicked); an icon held at the right edge turns the page
    /// after the edge flashed and drops on the next page, in one store transaction; Ctrl+Z puts
    /// it back; Page Down and a swipe turn pages; the page shown is saved.
    func homePages(_ info: SituationInfo) throws -> Verdict {
        let pane = "home-pages"
        var layout = try open(pane)
        let start = try require(stateObject(pane), "the pages' state")
        try check(start.page == 0 && start.pages == 3, "three pages, the first shown: \(start)")
        let original = try require(app.state, "the state").lists
        try checkStore(.homeScreen, equals: original)
        let dots = try require(layout.rows["Dots"], "the dots")
        try check(dots.count == 3, "three dots: \(dots.map(\.title))")
        let spacing = (dots[1].frame.midX - dots[0].frame.midX, dots[2].frame.midX - dots[1].frame.midX)
        try check(abs(spacing.0 - spacing.1) < 0.5, "K7: the dots are equally spaced: \(spacing)")

        // K7: the last dot, clicked from the first page, goes to the second page only.
        var mark = app.lineCount
        try pointer.click(at: dots[2].frame.center)
        try waitForStateObject(pane, "page 2 by the page control", after: mark) {
            $0.page == 1 && $0.how == "pageControl"
        }
        usleep(400_000)
        try check(stateObject(pane)?.page == 1, "K7: a click on a dot never jumps to it")
        mark = app.lineCount
        try pointer.click(at: (dots[0].frame.midX - 4, dots[0].frame.midY))
        try waitForStateObject(pane, "page 1 again", after: mark) { $0.page == 0 }

        // SP1: hold an icon at the right edge: it flashes, the page turns, the icon drops there.
        layout = try app.settledLayout(pane: pane)
        let icons = try require(original["Home"], "Home's icons").filter { $0 != "Utilities" }
        let icon = try require(icons.last, "an icon")
        let from = try layout.row(icon, in: "Home").center
        let edge = try layout.list("Next Page")
        let grid = try layout.list("Home")
        mark = app.lineCount
        try pointer.drag(from: from, to: edge.center, release: false)
        try app.waitFor(FeedbackLine.self, "the edge flashing", after: mark) { $0.event == "springFlash" }
        try screenshot(String(format: "%02d-%@", info.number, info.slug))
        try waitForStateObject(pane, "page 2 under the drag", after: mark) {
            $0.page == 1 && $0.how == "springLoaded"
        }
        // Page 2's icons are where Home's were: drop after its first icon.
        try pointer.move(from: edge.center, to: (grid.x + grid.width * 0.3, grid.y + 28))
        usleep(300_000)
        try pointer.release()
        try settleAfterDrag(mark, pane: pane)
        let moved = try app.waitForState("the icon on page 2", after: mark) {
            $0.lists["Page 2"]?.contains(icon) == true && $0.lists["Home"]?.contains(icon) == false
        }.lists
        try checkStore(.homeScreen, equals: moved)
        try check(
            events(from: mark, named: "committed").last?.operation == "move", "the icon was not moved")
        try screenshot(String(format: "%02d-%@-dropped", info.number, info.slug))
        try press("ctrl+z", until: "the icon back on Home", lists: original, store: .homeScreen)

        // Page Down (the page control has the focus) and a swipe on the empty area turn pages.
        layout = try app.settledLayout(pane: pane)
        let current = try require(stateObject(pane)?.page, "the page")
        mark = app.lineCount
        try pointer.click(at: try require(layout.rows["Dots"]?[current].frame.center, "the current dot"))
        try pointer.key("Page_Down")
        try waitForStateObject(pane, "a page down by keyboard", after: mark) {
            $0.page == current + 1 && $0.how == "keyboard"
        }
        let pages = try layout.list("Pages")
        usleep(400_000)  // the page slides in for 0.18 s
        mark = app.lineCount
        // Back is a swipe towards the reading end: to the right, or to the left right to left.
        let way: Double = rightToLeft ? -1 : 1
        try pointer.drag(
            from: (pages.midX - way * 100, pages.maxY - 40), to: (pages.midX + way * 140, pages.maxY - 40), steps: 8)
        try waitForStateObject(pane, "a page back by a swipe", after: mark) {
            $0.page == current && $0.how == "swipe"
        }
        try check(try storedSettings("home.")["home.page"] == String(current), "the page shown is saved")
        return .ok(
            "the dots are equally spaced; the last dot clicked went one page on; '\(icon)' held at the right edge "
                + "flashed it, turned to Page 2 and dropped there (a move, in the store); Ctrl+Z put it back; "
                + "Page Down and a swipe turned pages, saved")
    }
}
