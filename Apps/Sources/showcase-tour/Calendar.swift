import Foundation
import DriverProtocol
import WindowDriver
import ShowcaseModel

#if canImport(Glibc)
    import Glibc
#endif

extension Tour {
    /// 7. Calendar: an event held over the Month segment springs the month open (SP1), then
    /// dropped on the 20th it moves there (in the store too); Ctrl+Z puts it back.
    func calendar(_ info: SituationInfo) throws -> Verdict {
        var layout = try open("calendar")
        let monday = "2026-03-09", target = "2026-03-20", event = "Dentist"
        let original = try app.waitForState("the calendar", after: 0) { $0.pane == "calendar" }
        try check(original.selected["View"] == ["Day"], "the calendar should open on Day: \(original.selected)")
        try check(original.lists[monday]?.contains(event) == true, "no '\(event)' on \(monday): \(original)")
        let eventsList = try require(layout.lists.keys.first, "the events list")

        // Where the 20th is in the Month view: a click opens a segment too (SP2).
        var mark = app.lineCount
        try pointer.click(at: try layout.row("Month", in: "Views").center)
        try app.waitForState("the Month view by a click", after: mark) { $0.selected["View"] == ["Month"] }
        let month = try app.settledLayout(pane: "calendar")
        let cell = try month.row("20", in: "Dates")
        let cellID = try month.target(target)
        mark = app.lineCount
        try pointer.click(at: try month.row("Day", in: "Views").center)
        try app.waitForState("the Day view again", after: mark) { $0.selected["View"] == ["Day"] }
        layout = try app.settledLayout(pane: "calendar")
        try check(layout.rows["Dates"]?.count == 1, "the Day view shows \(layout.rows["Dates"]?.count ?? 0) dates")

        // Drag the event onto Month and hold: the month springs open; then onto the 20th.
        usleep(400_000)
        mark = app.lineCount
        try pointer.drag(
            from: try layout.row(event, in: eventsList).center, to: try layout.row("Month", in: "Views").center,
            release: false)
        try app.waitForState("Month sprung open during the drag", after: mark, timeout: 10) {
            $0.selected["View"] == ["Month"]
        }
        for dx in [-30.0, -10, 0, 1] { try pointer.move(to: (cell.midX + dx, cell.midY)); usleep(60_000) }
        try app.waitFor(FeedbackLine.self, "the highlight on the 20th", after: mark) {
            $0.event == "highlightOn" && $0.target == cellID
        }
        usleep(300_000)
        try screenshot(String(format: "%02d-%@", info.number, info.slug))
        try pointer.release()
        let moved = try app.waitForState("'\(event)' on the 20th", after: mark) {
            $0.lists[target] == [event]
        }
        try check(moved.lists[monday]?.contains(event) == false, "'\(event)' is still on \(monday)")
        try check(
            events(from: mark, named: "committed").last?.operation == "move",
            "the event was not moved")
        try settleAfterDrag(mark, pane: "calendar")
        let store = try ShowcaseStore(path: databasePath, seed: false)
        let day = try require(try store.collection(pane: .calendar, key: target), "the store's \(target)")
        try check(try store.items(in: day.id ?? 0).map(\.title) == [event], "the store's \(target) lacks '\(event)'")

        mark = app.lineCount
        try pointer.key("ctrl+z")
        try app.waitForState("the undone move", after: mark) { $0.lists[monday]?.contains(event) == true }
        let back = try ShowcaseStore(path: databasePath, seed: false)
        try check(try back.items(in: day.id ?? 0).isEmpty, "after Ctrl+Z the store's \(target) is not empty")
        return .ok(
            "the Month segment opened by a click and, held under a dragged '\(event)', by spring-loading; dropped on "
                + "20 March it moved there, in the store too; Ctrl+Z put it back on 9 March")
    }
}
