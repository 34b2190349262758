import Foundation
import DriverProtocol
import WindowDriver
import ShowcaseModel

#if canImport(Glibc)
    import Glibc
#endif

extension Tour {
    /// 5. Photos: Select (selection mode), three plain clicks, the three dragged together onto
    /// an album (a copy, with a count of 3); one photo dropped into the shared Family Stream,
    /// then Stop Sharing (U3) takes it back; the store matches at every step.
    func photos(_ info: SituationInfo) throws -> Verdict {
        var layout = try open("photos")
        let original = try require(app.state, "the photos state").lists
        try checkStore(.photos, equals: original)
        let libraryName = "Library", album = "Trip to Lisbon", shared = "Family Stream"
        let library = try require(original[libraryName], libraryName)
        try check(library.count >= 4, "the library is too short: \(original)")
        let picked = Array(library.prefix(3))

        var mark = app.lineCount
        let select = try layout.list("Select")
        try pointer.click(at: select.center)
        // Off the button at once, as a hand moves on: resting there shows its tooltip, which then
        // lies over the first photo and took its click now and then.
        try pointer.move(to: (select.maxX + 200, select.midY))
        try app.waitFor(StateLine.self, "selection mode", after: mark) {
            $0.selectionMode == true
        }
        layout = try app.settledLayout(pane: "photos")
        mark = app.lineCount
        // One click at a time, each seen selected before the next (as a person does).
        for (index, title) in picked.enumerated() {
            try pointer.click(at: try layout.row(title, in: libraryName).center)
            try app.waitForState("'\(title)' added to the selection with a plain click", after: mark) {
                $0.selected[libraryName] == Array(picked.prefix(index + 1))
            }
        }

        let albumID = try layout.target(album)
        usleep(600_000)  // past the double-click time: the press starts a drag, not a second click
        mark = app.lineCount
        try pointer.drag(
            from: try layout.row(picked[2], in: libraryName).center, to: try layout.row(album, in: "Albums").center,
            release: false)
        try app.waitFor(FeedbackLine.self, "the highlight on \(album)", after: mark) {
            $0.event == "highlightOn" && $0.target == albumID
        }
        usleep(300_000)
        try screenshot(String(format: "%02d-%@", info.number, info.slug))
        let release = app.lineCount
        try pointer.release()
        var expected = original
        expected[album, default: []].append(contentsOf: picked)
        try app.waitForState("copies in \(album)", after: release, timeout: 10) { $0.lists == expected }
        try check(
            events(from: mark, named: "preview").contains { $0.count == 3 },
            "M3: the drag image never showed a count of 3")
        let committed = events(from: mark, named: "committed")
        try check(committed.count == 1, "one drop expected, saw \(committed.count)")
        try check(
            committed[0].operation == "copy", "S2: the drop was a \(committed[0].operation ?? "?")")
        try checkStore(.photos, equals: expected)
        try settleAfterDrag(mark, pane: "photos")

        // U3: a photo dropped into the shared album, then Stop Sharing.
        layout = try app.settledLayout(pane: "photos")
        let sharedPhoto = library[3]
        mark = app.lineCount
        try pointer.drag(
            from: try layout.row(sharedPhoto, in: libraryName).center,
            to: try layout.row(shared, in: "Albums").center)
        var sharedExpected = expected
        sharedExpected[shared, default: []].append(sharedPhoto)
        try app.waitForState("'\(sharedPhoto)' in \(shared)", after: mark, timeout: 10) { $0.lists == sharedExpected }
        try checkStore(.photos, equals: sharedExpected)
        try app.waitFor(StateLine.self, "the Stop Sharing button", after: mark) {
            $0.stopSharing == true
        }
        try check(
            !events(from: mark, named: "cancellationOffered").isEmpty, "U3: the drop offered no cancellation")
        try settleAfterDrag(mark, pane: "photos")
        layout = try app.settledLayout(pane: "photos")
        mark = app.lineCount
        try pointer.click(at: try layout.list("Stop Sharing").center)
        try app.waitForState("'\(sharedPhoto)' no longer shared", after: mark) { $0.lists == expected }
        try checkStore(.photos, equals: expected)

        // U1: the shared drop made no undo step (Stop Sharing is its way back): Ctrl+Z undoes
        // the copy of the three photos into the album.
        try check(
            isSaid(app.state?.undo, "Undo Copy 3 Photos"),
            "the last undo step is '\(app.state?.undo ?? "")', not the album copy")
        _ = try app.settledLayout(pane: "photos")
        try press("ctrl+z", until: "the album copy undone", lists: original, store: .photos)

        return .ok(
            "Select turned on selection mode; three plain clicks picked \(quoted(picked)), dragged together with a "
                + "count of 3 and copied to '\(album)'; '\(sharedPhoto)' dropped into the shared '\(shared)' offered "
                + "Stop Sharing, which took it back; Ctrl+Z undid the album copy; the store matched at every step")
    }
}
