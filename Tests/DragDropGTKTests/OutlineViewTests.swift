import DriverProtocol
import Foundation
import Testing
import WindowDriver

/// `DragOutlineView` with a real pointer (issue 23, `--scene outline`): mailboxes indented under
/// their parents; a drop between rows lands at the depth the pointer's horizontal position picks
/// (T1), into a row held in its middle, never inside the dragged mailbox (T3); undo puts it back
/// (T6); the disclosure triangle opens a row.
@Suite(
    "GTK: an outline of mailboxes", .serialized,
    .enabled(
        if: Tools.missing == nil, "Xvfb is not installed (apt-get install xvfb, or `make deps`): GTK tests skipped.")
)
struct OutlineViewTests {
    static let start = [
        "Inbox", "Work", "  Projects", "    2026", "      Q1", "    Budget", "  Notes", "Archive", "Sent",
    ]
    /// Where depth `depth`'s rows start, from a row's left edge: the row's padding and the levels.
    static func x(_ depth: Int, in row: ScreenRect) -> Double { row.x + 12 + Double(depth) * 20 + 10 }

    private func withOutline(
        _ arguments: [String] = [], _ body: (_ app: FixtureApp, _ pointer: Pointer) async throws -> Void
    ) async throws {
        let display = try XDisplay.startPrivate()
        defer { display.stop() }
        let app = try await FixtureApp.launch(
            on: display, size: (420, 520), arguments: ["--scene", "outline"] + arguments,
            environment: ["GTK_A11Y": "none"])
        defer { app.stop() }
        try await app.waitFor(ReadyLine.self, "the outline laid out")
        try await body(app, Pointer(display: display))
    }

    /// The outline drop points shown since `mark`, as "between parent index depth" / "on row".
    private func points(_ app: FixtureApp, since mark: Int) -> [String] {
        app.events(from: mark).filter { $0.event == "outlineDrop" }.map { line in
            switch line.place {
            case "between"?: "between \(line.parent ?? "top") \(line.index ?? -1) \(line.depth ?? -1)"
            case "on"?: "on \(line.row ?? "")"
            default: "none"
            }
        }
    }

    @Test(
        "T1, T6: Sent dragged to the line under Budget goes in at the depth the pointer's x picks (Work's level, then Projects'), the line drawn there; undo puts it back at the top level"
    )
    func depthFollowsThePointer() async throws {
        try await withOutline { app, pointer in
            #expect(app.lists["mailboxes"] == Self.start)
            let layout = try await app.settledSceneLayout()
            let sent = try layout.frame("mailboxes/Sent")
            let budget = try layout.frame("mailboxes/Budget")
            let mark = app.lineCount
            // The lower quarter of Budget: the gap between Budget (depth 2) and Notes (depth 1).
            let y = budget.maxY - budget.height / 8
            try pointer.drag(
                from: sent.center, to: (Self.x(1, in: budget), y), steps: 16, pause: 0.3, release: false)
            try await app.waitFor(FeedbackLine.self, "the line at Work's level", after: mark) {
                $0.event == "outlineDrop" && $0.parent == "work" && $0.depth == 1
            }
            try pointer.move(from: (Self.x(1, in: budget), y), to: (Self.x(2, in: budget), y), steps: 4)
            try await app.waitFor(FeedbackLine.self, "the line at Projects' level", after: mark) {
                $0.event == "outlineDrop" && $0.parent == "projects" && $0.depth == 2
            }
            try? app.display.screenshot(to: ".build/test-screenshots/outline-depth.png")
            try pointer.release()
            let moved = try await app.waitForState("Sent after Budget, inside Projects", after: mark) { lists, _ in
                lists["mailboxes"]?.contains("    Sent") == true
            }
            #expect(
                moved["mailboxes"] == [
                    "Inbox", "Work", "  Projects", "    2026", "      Q1", "    Budget", "    Sent", "  Notes",
                    "Archive",
                ])
            #expect(points(app, since: mark).contains("between projects 2 2"), "\(points(app, since: mark))")
            #expect(points(app, since: mark).last == "none", "the line goes away with the drag")
            try await app.settleAfterDrag(from: mark)
            let undo = app.lineCount
            try pointer.key("ctrl+z")
            try await app.waitForState("Sent back at the top level", after: undo) { lists, _ in
                lists["mailboxes"] == Self.start
            }
        }
    }

    @Test(
        "F2, M3: Inbox and Notes, selected from two parents, fly as their rows look: the front card shows the row's name as the outline draws it, the other card stacked behind, with the count"
    )
    func flockShowsTheRows() async throws {
        try await withOutline { app, pointer in
            let layout = try await app.settledSceneLayout()
            let inbox = try layout.frame("mailboxes/Inbox")
            let notes = try layout.frame("mailboxes/Notes")
            let sent = try layout.frame("mailboxes/Sent")
            var mark = app.lineCount
            try pointer.click(at: (inbox.midX, inbox.midY))
            try pointer.click(at: (notes.midX, notes.midY), holding: ["ctrl"])
            try await app.waitForState("Inbox and Notes selected", after: mark) { _, selected in
                Set(selected["mailboxes"] ?? []) == ["Inbox", "Notes"]
            }
            try await Task.sleep(for: .milliseconds(300))
            // The selection's colour, read off the selected row's right end (no text there).
            let selected = try Screenshot.capture(app.display).pixel(Int(notes.maxX) - 8, Int(notes.midY))
            #expect(
                Int(selected.red) + Int(selected.green) + Int(selected.blue) < 3 * 230, "a coloured row: \(selected)")
            mark = app.lineCount
            let grab = (x: notes.x + 60, y: notes.midY)
            try pointer.lift(at: grab)
            let over = (x: sent.x + 80, y: sent.maxY + 90)
            try pointer.move(from: (grab.x + 4, grab.y + 4), to: over)
            try await app.waitFor(FeedbackLine.self, "the flock", after: mark) {
                $0.event == "preview" && $0.count == 2 && $0.flocked == true
            }
            try await Task.sleep(for: .milliseconds(400))
            let shot = try Screenshot.capture(app.display)
            try? app.display.screenshot(to: ".build/test-screenshots/outline-flock.png")
            // The front card hangs from the grab point as the row did.
            let card = ScreenRect(
                x: over.x - (grab.x - notes.x), y: over.y - (grab.y - notes.y), width: notes.width,
                height: notes.height)
            // Its name, indented as in the outline: white letters in the card's left part.
            let name = ScreenRect(x: card.x + 30, y: card.y + 6, width: 80, height: card.height - 12)
            let seen = FlockCard(
                shot, card: card, selected: selected, inset: (8, 6), name: name, stackWidth: card.width - 40)
            #expect(
                seen.colour > seen.area / 2, "F2: the card shows the row as it looks (\(seen.colour) of \(seen.area))")
            #expect(seen.letters > 20, "F2: the row's name shows on the card (\(seen.letters) white pixels)")
            // M3: the other card is stacked behind, under the front card's bottom edge.
            #expect(seen.stacked > 60, "M3: the card behind shows under the front one (\(seen.stacked) pixels)")
            try pointer.key("Escape")
            try pointer.release()
            try await app.waitForDragEnd(after: mark)
        }
    }

    @Test(
        "L3, T1: right to left the rows are indented from the right edge and the depth grows as the pointer goes left: Sent under Budget lands at Work's level, then Projects', the line drawn from the right; the triangle of 2026, on its right, opens it"
    )
    func rightToLeftDepth() async throws {
        try await withOutline(["--rtl"]) { app, pointer in
            #expect(app.lists["mailboxes"] == Self.start)
            var layout = try await app.settledSceneLayout()
            let sent = try layout.frame("mailboxes/Sent")
            let budget = try layout.frame("mailboxes/Budget")
            /// Where depth `depth`'s rows start, from a mirrored row's right edge.
            func x(_ depth: Int) -> Double { budget.maxX - (Self.x(depth, in: budget) - budget.x) }
            let mark = app.lineCount
            let y = budget.maxY - budget.height / 8
            try pointer.drag(from: sent.center, to: (x(1), y), steps: 16, pause: 0.3, release: false)
            try await app.waitFor(FeedbackLine.self, "the line at Work's level", after: mark) {
                $0.event == "outlineDrop" && $0.parent == "work" && $0.depth == 1
            }
            try pointer.move(from: (x(1), y), to: (x(2), y), steps: 4)
            try await app.waitFor(FeedbackLine.self, "the line at Projects' level", after: mark) {
                $0.event == "outlineDrop" && $0.parent == "projects" && $0.depth == 2
            }
            try await Task.sleep(for: .milliseconds(300))
            try? app.display.screenshot(to: ".build/test-screenshots/outline-rtl-depth.png")
            // The line runs from depth 2's start, near the right, to the row's left end: blue
            // by the left end, none by the right end, where the rows' titles start.
            let shot = try Screenshot.capture(app.display)
            let blue: (red: UInt8, green: UInt8, blue: UInt8) = (53, 132, 228)
            let band = (y: budget.maxY - 6, height: 48.0)
            let leftEnd = shot.count(
                blue, in: ScreenRect(x: budget.x + 4, y: band.y, width: 24, height: band.height), tolerance: 12)
            let rightEnd = shot.count(
                blue, in: ScreenRect(x: budget.maxX - 28, y: band.y, width: 24, height: band.height), tolerance: 12)
            let blueLeft = leftEnd > 30
            let blueRight = rightEnd > 0
            #expect(
                blueLeft && !blueRight, "the line's pixels by the left end \(leftEnd), by the right end \(rightEnd)")
            try pointer.release()
            try await app.waitForState("Sent after Budget, inside Projects", after: mark) { lists, _ in
                lists["mailboxes"]?.contains("    Sent") == true
            }
            try await app.settleAfterDrag(from: mark)

            // 2026's triangle is on its right: a click there opens it.
            layout = try await app.settledSceneLayout()
            let year = try layout.frame("mailboxes/2026")
            let opening = app.lineCount
            try pointer.click(at: (year.maxX - (12 + 2 * 20 + 6), year.midY))
            try await app.waitForState("2026 open", after: opening) { lists, _ in
                lists["open"]?.contains("2026") == true
            }
        }
    }

    @Test(
        "T1, T3: Inbox held over Archive's middle goes into it (Archive opens); Work held over 2026, inside it, is refused with the reason and nothing changes; the triangle of 2026 opens it"
    )
    func intoARowButNeverIntoItself() async throws {
        try await withOutline { app, pointer in
            var layout = try await app.settledSceneLayout()
            let inbox = try layout.frame("mailboxes/Inbox")
            let archive = try layout.frame("mailboxes/Archive")
            var mark = app.lineCount
            try pointer.drag(from: inbox.center, to: archive.center, steps: 16, pause: 0.3)
            try await app.waitForState("Inbox inside Archive", after: mark) { lists, _ in
                lists["mailboxes"] == [
                    "Work", "  Projects", "    2026", "      Q1", "    Budget", "  Notes", "Archive", "  Inbox", "Sent",
                ] && lists["open"]?.contains("Archive") == true
            }
            #expect(points(app, since: mark).contains("on archive"), "\(points(app, since: mark))")
            try await app.settleAfterDrag(from: mark)

            // Work over 2026, a mailbox inside it.
            layout = try await app.settledSceneLayout()
            let work = try layout.frame("mailboxes/Work")
            let year = try layout.frame("mailboxes/2026")
            mark = app.lineCount
            try pointer.drag(from: work.center, to: year.center, steps: 16, pause: 0.3, release: false)
            // On the way it passes over Projects, inside Work too: refused there first.
            let refused = try await app.waitFor(FeedbackLine.self, "the refusal over 2026", after: mark) {
                $0.event == "proposal" && $0.operation == "forbidden" && $0.reason?.contains("2026") == true
            }
            #expect(refused.reason == "'Work' cannot go inside '2026', which is inside it.")
            try pointer.release()
            try await app.waitForDragEnd(after: mark)
            #expect(points(app, since: mark).allSatisfy { !$0.contains("2026") && !$0.hasPrefix("on ") })
            #expect(app.lists["mailboxes"]?.first == "Work", "nothing moved")

            // The triangle before 2026 opens it: Q1 shows.
            layout = try await app.settledSceneLayout()
            let closed = try layout.frame("mailboxes/2026")
            mark = app.lineCount
            try pointer.click(at: (closed.x + 12 + 2 * 20 + 6, closed.midY))
            try await app.waitForState("2026 open", after: mark) { lists, _ in
                lists["open"]?.contains("2026") == true
            }
            let opened = try await app.settledSceneLayout()
            #expect(opened.frames["mailboxes/Q1"] != nil, "Q1 shows under 2026")
        }
    }

    @Test(
        "T2, SP1: a closed mailbox held under a drag flashes and opens; left for another row it closes again; dropped inside, it stays open with the mailbox in it; a drag that leaves the outline and is cancelled closes what it opened; an empty mailbox (nothing to show) does not spring"
    )
    func closedRowsSpringOpen() async throws {
        try await withOutline { app, pointer in
            var layout = try await app.settledSceneLayout()
            let sent = try layout.frame("mailboxes/Sent")
            let year = try layout.frame("mailboxes/2026")
            let inbox = try layout.frame("mailboxes/Inbox")
            var mark = app.lineCount
            try pointer.drag(from: sent.center, to: year.center, steps: 16, pause: 0.3, release: false)
            try await app.waitFor(FeedbackLine.self, "2026 flashing", after: mark) {
                $0.event == "springFlash" && $0.target == "2026"
            }
            try await app.waitForState("2026 sprung open", after: mark) { lists, _ in
                lists["open"]?.contains("2026") == true
            }
            // Away from it, into Inbox: 2026 closes again.
            let away = app.lineCount
            try pointer.move(from: year.center, to: inbox.center, steps: 8)
            try await app.waitForState("2026 closed again", after: away) { lists, _ in
                lists["open"]?.contains("2026") == false
            }
            try pointer.release()
            try await app.waitForState("Sent inside Inbox, 2026 closed", after: mark) { lists, _ in
                lists["mailboxes"]?.prefix(2) == ["Inbox", "  Sent"] && lists["open"]?.contains("2026") == false
            }
            try await app.settleAfterDrag(from: mark)
            // On its way up from Sent, the drag crossed Archive: empty, it has nothing to show.
            #expect(!app.events(from: mark).contains { $0.event.hasPrefix("spring") && $0.target == "archive" })

            // Held over 2026 again, then dropped on the line under Q1, inside it.
            layout = try await app.settledSceneLayout()
            let notes = try layout.frame("mailboxes/Notes")
            let closed = try layout.frame("mailboxes/2026")
            mark = app.lineCount
            try pointer.drag(from: notes.center, to: closed.center, steps: 16, pause: 0.3, release: false)
            try await app.waitForState("2026 sprung open", after: mark) { lists, _ in
                lists["open"]?.contains("2026") == true
            }
            let opened = try await app.settledSceneLayout()
            let q1 = try opened.frame("mailboxes/Q1")
            try pointer.move(
                from: closed.center, to: (Self.x(3, in: q1), q1.maxY - q1.height / 8), steps: 6)
            try await app.waitFor(FeedbackLine.self, "the line under Q1, inside 2026", after: mark) {
                $0.event == "outlineDrop" && $0.parent == "2026" && $0.depth == 3
            }
            try pointer.release()
            try await app.waitForState("Notes inside 2026, which stays open", after: mark) { lists, _ in
                lists["mailboxes"]?.contains("      Notes") == true && lists["open"]?.contains("2026") == true
            }
            try await app.settleAfterDrag(from: mark)

            // Inbox (holding Sent) closed by its triangle, sprung open by a held drag, then the
            // drag leaves the outline and is cancelled: Inbox closes again.
            layout = try await app.settledSceneLayout()
            let inboxRow = try layout.frame("mailboxes/Inbox")
            mark = app.lineCount
            try pointer.click(at: (inboxRow.x + 12 + 6, inboxRow.midY))
            try await app.waitForState("Inbox closed", after: mark) { lists, _ in
                lists["open"]?.contains("Inbox") == false
            }
            layout = try await app.settledSceneLayout()
            let budget = try layout.frame("mailboxes/Budget")
            let closedInbox = try layout.frame("mailboxes/Inbox")
            let list = try layout.frame("mailboxes")
            let before = app.lists["mailboxes"]
            mark = app.lineCount
            try pointer.drag(from: budget.center, to: closedInbox.center, steps: 16, pause: 0.3, release: false)
            try await app.waitForState("Inbox sprung open", after: mark) { lists, _ in
                lists["open"]?.contains("Inbox") == true
            }
            try pointer.move(from: closedInbox.center, to: (list.midX, list.maxY + 30), steps: 6)
            try pointer.key("Escape")
            try pointer.release()
            try await app.waitForState("Inbox closed after the cancelled drag", after: mark) { lists, _ in
                lists["open"]?.contains("Inbox") == false && lists["mailboxes"] == before
            }
        }
    }

    @Test(
        "T5, C4: Sent picked up with the keyboard reaches the place after Budget inside Projects by Tab, each place said by parent and position, and Return drops it there; Right opens a row, Left closes it"
    )
    func keyboardReachesEveryPlace() async throws {
        try await withOutline { app, pointer in
            let layout = try await app.settledSceneLayout()
            let sent = try layout.frame("mailboxes/Sent")
            try pointer.click(at: sent.center)
            var mark = app.lineCount
            try pointer.key("ctrl+shift+d")
            try await app.waitFor(FeedbackLine.self, "Sent picked up", after: mark) {
                $0.event == "lifted" && $0.mode == "keyboard"
            }
            let wanted = "After Budget, inside Projects. Will move."
            var said: [String] = []
            for _ in 0..<30 where !said.contains(wanted) {
                let step = app.lineCount
                try pointer.key("Tab")
                let line = try await app.waitFor(FeedbackLine.self, "the next place said", after: step) {
                    $0.event == "announcement"
                }
                said.append(line.text ?? "")
            }
            #expect(said.first == "At the top of the list. Will move.", "\(said)")
            #expect(said.contains("Into Inbox. Will move."), "rows that hold children are places too: \(said)")
            #expect(said.last == wanted, "\(said)")
            try pointer.key("Return")
            try await app.waitForState("Sent after Budget, inside Projects", after: mark) { lists, _ in
                lists["mailboxes"] == [
                    "Inbox", "Work", "  Projects", "    2026", "      Q1", "    Budget", "    Sent", "  Notes",
                    "Archive",
                ]
            }
            // A keyboard drag has no GTK drag to end: the layout settles.
            _ = try await app.settledSceneLayout()

            // Right opens the focused row, Left closes it.
            let year = try (try await app.settledSceneLayout()).frame("mailboxes/2026")
            try pointer.click(at: year.center)
            mark = app.lineCount
            try pointer.key("Right")
            try await app.waitForState("2026 opened by Right", after: mark) { lists, _ in
                lists["open"]?.contains("2026") == true
            }
            mark = app.lineCount
            try pointer.key("Left")
            try await app.waitForState("2026 closed by Left", after: mark) { lists, _ in
                lists["open"]?.contains("2026") == false
            }
        }
    }

    @Test(
        "T4: Inbox and Notes, selected from two parents (Ctrl+click), dragged together onto Archive land there in outline order; Ctrl+Z puts each back under its parent"
    )
    func severalFromTwoParents() async throws {
        try await withOutline { app, pointer in
            let layout = try await app.settledSceneLayout()
            let inbox = try layout.frame("mailboxes/Inbox")
            let notes = try layout.frame("mailboxes/Notes")
            let archive = try layout.frame("mailboxes/Archive")
            try pointer.click(at: notes.center)
            var mark = app.lineCount
            try pointer.click(at: inbox.center, holding: ["ctrl"])
            try await app.waitForState("both selected", after: mark) { _, selected in
                Set(selected["mailboxes"] ?? []) == ["Inbox", "Notes"]
            }
            mark = app.lineCount
            try pointer.drag(from: notes.center, to: archive.center, steps: 16, pause: 0.3)
            try await app.waitForState("both inside Archive, in outline order", after: mark) { lists, _ in
                lists["mailboxes"] == [
                    "Work", "  Projects", "    2026", "      Q1", "    Budget", "Archive", "  Inbox", "  Notes", "Sent",
                ]
            }
            let lifted = try #require(app.events(from: mark).first { $0.event == "lifted" })
            #expect(Set(lifted.items ?? []) == ["inbox", "notes"])
            try await app.settleAfterDrag(from: mark)
            let undo = app.lineCount
            try pointer.key("ctrl+z")
            try await app.waitForState("each back under its parent", after: undo) { lists, _ in
                lists["mailboxes"] == Self.start
            }
        }
    }

    @Test(
        "T7: an outline of 100,000 mailboxes (1,000 of 99, all open) shows only a screenful of rows as widgets, and a row dragged three rows down lands there"
    )
    func hundredThousandItems() async throws {
        try await withOutline(["--big"]) { app, pointer in
            let widgets = try await app.waitFor(GtkLine.self, "the widget count") { $0.message.hasPrefix("items ") }
            let words = widgets.message.split(separator: " ")
            #expect(words.count == 4 && words[1] == "100000", "\(widgets.message)")
            #expect((Int(words.last ?? "") ?? .max) < 100, "only the rows on screen have widgets: \(widgets.message)")
            let layout = try await app.settledSceneLayout()
            let row = try layout.frame("mailboxes/Box 0.2")
            let below = try layout.frame("mailboxes/Box 0.5")
            let mark = app.lineCount
            try pointer.drag(
                from: row.center, to: (Self.x(1, in: below), below.maxY - below.height / 8), steps: 16, pause: 0.3)
            try await app.waitForState("Box 0.2 after Box 0.5", after: mark) { lists, _ in
                Array(lists["mailbox 0"]?.prefix(6) ?? []) == [
                    "Box 0.0", "Box 0.1", "Box 0.3", "Box 0.4", "Box 0.5", "Box 0.2",
                ]
            }
        }
    }
}
