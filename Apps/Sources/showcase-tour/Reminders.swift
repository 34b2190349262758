import DragDrop
import Foundation
import DriverProtocol
import WindowDriver

#if canImport(Glibc)
    import Glibc
#endif

extension Tour {
    /// 2. Reminders: two selected reminders dragged to another list move there together, in
    /// one transaction; undo and redo; a reorder inside a list with rows making room.
    func reminders(_ info: SituationInfo) throws -> Verdict {
        var layout = try open("reminders")
        let original = try app.waitForState("the reminders", after: 0) { $0.pane == "reminders" }.lists
        try checkStore(.reminders, equals: original)
        let source = "Groceries", destination = "Home"
        let groceries = try require(original[source], source)
        let home = try require(original[destination], destination)
        try check(groceries.count >= 2 && home.count >= 2, "the seed lists are too short: \(original)")
        // L3: the lists read from the leading edge: Groceries first, on the right in Hebrew.
        let leadingList = try layout.list(source), trailingList = try layout.list(destination)
        try check(
            rightToLeft ? leadingList.x > trailingList.x : leadingList.x < trailingList.x,
            "Groceries is not at the reading start (\(rightToLeft ? "right" : "left")): \(leadingList), \(trailingList)"
        )
        let picked = Array(groceries.prefix(2))

        // M1: click the first, Ctrl-click the second.
        var mark = app.lineCount
        try pointer.click(at: try layout.row(picked[0], in: source).center)
        try pointer.click(at: try layout.row(picked[1], in: source).center, holding: ["ctrl"])
        try app.waitForState("both reminders selected", after: mark) { $0.selected[source] == picked }

        // Drag them between the first two rows of Home and hold: the key moment.
        let first = try layout.row(home[0], in: destination), second = try layout.row(home[1], in: destination)
        let homeID = try layout.target(destination)
        mark = app.lineCount
        let from = try layout.row(picked[1], in: source).center
        try pointer.drag(from: from, to: (first.midX, (first.midY + second.midY) / 2), release: false)
        try app.waitFor(FeedbackLine.self, "the highlight on \(destination)", after: mark) {
            $0.event == "highlightOn" && $0.target == homeID
        }
        usleep(300_000)  // let GTK paint the highlight and the rows making room
        try screenshot(String(format: "%02d-%@", info.number, info.slug))
        let release = app.lineCount
        try pointer.release()
        var expected = original
        expected[source] = Array(groceries.dropFirst(2))
        expected[destination] = [home[0]] + picked + Array(home.dropFirst())
        try app.waitForState("\(quoted(picked)) in \(destination)", after: release, timeout: 10) {
            $0.lists == expected
        }
        let previews = events(from: mark, named: "preview")
        try check(previews.contains { $0.count == 2 }, "M3: the drag image never showed a count of 2")
        let committed = events(from: mark, named: "committed")
        try check(committed.count == 1, "one drop expected, saw \(committed.count)")
        try check(
            committed[0].operation == "move", "S2: the drop was a \(committed[0].operation ?? "?")")
        try check(
            events(from: mark, named: "insertion").contains {
                $0.target == homeID && $0.index == 1
            },
            "F8: the rows of \(destination) never made room at index 1")
        try checkStore(.reminders, equals: expected)

        // U1: Ctrl+Z puts both back at their exact places; Ctrl+Shift+Z moves them again.
        try settleAfterDrag(mark, pane: "reminders")
        try press("ctrl+z", until: "the undone move", lists: original, store: .reminders)
        try press("ctrl+shift+z", until: "the redone move", lists: expected, store: .reminders)

        // F8: reorder inside Work, dropping below its last row.
        layout = try app.settledLayout(pane: "reminders")
        let work = try require(expected["Work"], "Work")
        try check(work.count >= 2, "Work is too short: \(work)")
        let last = try layout.row(work[work.count - 1], in: "Work")
        mark = app.lineCount
        try pointer.drag(from: try layout.row(work[0], in: "Work").center, to: (last.midX, last.maxY + 12))
        var reordered = expected
        reordered["Work"] = Array(work.dropFirst()) + [work[0]]
        try app.waitForState("the reordered Work list", after: mark) { $0.lists == reordered }
        try check(
            !events(from: mark, named: "highlightOn").contains {
                $0.target == (try? layout.target("Work"))
            },
            "F6: Work was highlighted while the row never left it")
        try checkStore(.reminders, equals: reordered)
        try settleAfterDrag(mark, pane: "reminders")

        // S2, S3: holding Ctrl copies, with a copy badge; Ctrl+Z removes the copy.
        layout = try app.settledLayout(pane: "reminders")
        let copied = try require(reordered[source]?.first, "a reminder left in \(source)")
        let end = try layout.row(try require(reordered["Work"]?.last, "Work's last row"), in: "Work")
        mark = app.lineCount
        try pointer.drag(
            from: try layout.row(copied, in: source).center, to: (end.midX, end.maxY + 12), holding: ["ctrl"])
        var withCopy = reordered
        withCopy["Work", default: []].append(copied)
        try app.waitForState("a copy of '\(copied)' in Work", after: mark) { $0.lists == withCopy }
        try check(
            events(from: mark, named: "preview").contains { $0.badge == "copy" },
            "S3: no copy badge while Ctrl was held")
        try checkStore(.reminders, equals: withCopy)
        try settleAfterDrag(mark, pane: "reminders")
        try press("ctrl+z", until: "the undone copy", lists: reordered, store: .reminders)

        // C4: the same move by keyboard, up to the drop: a row selected, Ctrl+Shift+D, Tab to
        // Work (the key moment: its focus ring and the spoken line), then Escape, which changes
        // nothing.
        let keyed = try require(reordered[source]?.last, "a reminder to pick up")
        layout = try app.settledLayout(pane: "reminders")
        mark = app.lineCount
        try pointer.click(at: try layout.row(keyed, in: source).center)
        try app.waitForState("'\(keyed)' selected", after: mark) { $0.selected[source] == [keyed] }
        mark = app.lineCount
        try pointer.key("ctrl+shift+d")
        try waitForStatus(
            prefix: said("Picked up '\(keyed)'.") {
                Announcements.pickedUp([DragItem(id: "keyed", name: keyed, types: [], app: AppID("showcase"))])
            }, after: mark)
        var heard: [String] = []
        let overWork = said("Over Work, will move.") { Announcements.over("Work", .move) }
        for _ in 0..<6 {
            mark = app.lineCount
            try pointer.key("Tab")
            // Every Tab says where the drag is (in another language the name may come first).
            let line = try waitForStatus(prefix: said("Over ") { "" }, after: mark)
            heard.append(line)
            if line == overWork { break }
        }
        try check(heard.last == overWork, "Tab never reached Work: heard \(heard)")
        usleep(250_000)
        try screenshot(String(format: "%02d-%@-keyboard", info.number, info.slug))
        mark = app.lineCount
        try pointer.key("Escape")
        try waitForStatus(prefix: said("Not dropped") { "" }, after: mark)
        try check(app.state?.lists == reordered, "Escape changed the lists: \(app.state?.lists ?? [:])")
        try checkStore(.reminders, equals: reordered)

        return .ok(
            "moved \(quoted(picked)) to '\(destination)' in one drop; Ctrl+Z put them back, Ctrl+Shift+Z moved them "
                + "again; reordered '\(work[0])' to the end of 'Work'; Ctrl-dragged a copy of '\(copied)' and undid "
                + "it; picked up '\(keyed)' with Ctrl+Shift+D, heard \(quoted(heard)) while Tab went to Work, and "
                + "Escape left everything in place; the store matched the window at every step")
    }
}
