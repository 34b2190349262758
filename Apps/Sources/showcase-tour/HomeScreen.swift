import Foundation
import DriverProtocol
import WindowDriver
import ShowcaseModel

#if canImport(Glibc)
    import Glibc
#endif

extension Tour {
    /// 4. Home Screen: two selected icons dragged onto the Utilities folder move into it in one
    /// drop, with a count of 2 and the folder highlighted; the folder springs open under the
    /// drag; the store matches; Ctrl+Z puts both back.
    func homeScreen(_ info: SituationInfo) throws -> Verdict {
        let layout = try open("home-screen")
        let original = try require(app.state, "the home screen state").lists
        try checkStore(.homeScreen, equals: original)
        let grid = "Home", folder = "Utilities"
        let icons = try require(original[grid], grid).filter { $0 != folder }
        let inside = try require(original[folder], folder)
        try check(icons.count >= 2, "the home screen is too short: \(original)")
        let picked = Array(icons.prefix(2))

        var mark = app.lineCount
        try pointer.click(at: try layout.row(picked[0], in: grid).center)
        try pointer.click(at: try layout.row(picked[1], in: grid).center, holding: ["ctrl"])
        try app.waitForState("both icons selected", after: mark) { $0.selected[grid] == picked }

        let folderID = try layout.target(folder)
        mark = app.lineCount
        try pointer.drag(
            from: try layout.row(picked[1], in: grid).center, to: try layout.row(folder, in: grid).center,
            release: false)
        try app.waitFor(FeedbackLine.self, "the highlight on the \(folder) folder", after: mark) {
            $0.event == "highlightOn" && $0.target == folderID
        }
        usleep(300_000)
        try screenshot(String(format: "%02d-%@", info.number, info.slug))
        // SP1: resting on the folder opens it below the grid.
        try app.waitFor(StateLine.self, "the \(folder) folder springing open", after: mark, timeout: 5) {
            $0.opened == folder
        }
        let release = app.lineCount
        try pointer.release()
        var expected = original
        expected[grid] = try require(original[grid], grid).filter { !picked.contains($0) }
        expected[folder] = inside + picked
        try app.waitForState("\(quoted(picked)) in \(folder)", after: release, timeout: 10) { $0.lists == expected }
        try check(
            events(from: mark, named: "preview").contains { $0.count == 2 },
            "M3: the drag image never showed a count of 2")
        let committed = events(from: mark, named: "committed")
        try check(committed.count == 1, "one drop expected, saw \(committed.count)")
        try check(
            committed[0].operation == "move", "the drop was a \(committed[0].operation ?? "?")")
        try checkStore(.homeScreen, equals: expected)
        try settleAfterDrag(mark, pane: "home-screen")

        try press("ctrl+z", until: "the undone move", lists: original, store: .homeScreen)
        return .ok(
            "moved \(quoted(picked)) into the '\(folder)' folder in one drop with a count of 2; the folder "
                + "sprang open under the drag; the store matched; Ctrl+Z put them back (the double click that "
                + "opens a folder is not played)")
    }
}
