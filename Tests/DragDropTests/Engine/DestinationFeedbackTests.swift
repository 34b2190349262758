import DragDrop
import DragDropTesting
import Testing

private typealias F = EngineFixtures

/// Feedback at destinations: highlight (F4), one at a time and innermost (F5), not over the own
/// source (F6), drop outcomes (F7) and insertion indicators (F8).
@Suite("Engine: destination feedback")
struct DestinationFeedbackTests {
    /// Reminders (automatic policy) plus, right of `work`, a text-only `notes` container
    /// (x 800..<1000) and a read-only `archive` list (x 1000..<1200).
    private func remindersWithRefusals() throws -> DragHarness {
        let base = try F.remindersScene(policy: .automatic)
        var window = base.roots[0]
        window.frame = Rect(x: 0, y: 0, width: 1200, height: 600)
        window.children.append(
            F.list(
                "notes", "Notes", frame: Rect(x: 800, y: 0, width: 200, height: 600), accepts: [.plainText], items: []))
        window.children.append(
            F.list(
                "archive", "Archive", frame: Rect(x: 1000, y: 0, width: 200, height: 600), accepts: [F.reminderType],
                items: [], policy: .forbidden(reason: "Archived lists are read-only."), layout: nil))
        return try DragHarness(scene: Scene([window]))
    }

    /// The highlighted targets after replaying every highlight event, checking after each event
    /// that at most one is on (F5).
    private func highlightsStayUnique(_ h: DragHarness) -> Bool {
        var on: Set<TargetID> = []
        for event in h.feedback {
            guard case .highlight(let t, let isOn) = event else { continue }
            if isOn { on.insert(t) } else { on.remove(t) }
            if on.count > 1 { return false }
        }
        return true
    }

    // MARK: F4

    @Test("F4: a destination is highlighted only while accepting content is above it, and never after the drop")
    func highlightOnlyWhileAbove() throws {
        let h = try remindersWithRefusals()
        h.engineLift(at: F.row(0, x: 100))
        h.move(to: F.row(0, x: 500))
        #expect(h.engine.currentSession?.highlighted == "work")

        var mark = h.engineMark
        h.move(to: Point(x: 900, y: 100))
        #expect(
            h.engineFeedback(since: mark) == [
                .insertion("work", index: nil),
                .highlight("work", on: false),
                .proposal(destination: nil, operation: .cancel),
                .preview(PreviewState(count: 1, badge: .none)),
            ])
        #expect(h.engineAnnouncements(since: mark) == ["Not over a drop point."])

        mark = h.engineMark
        h.move(to: F.row(0, x: 500))
        #expect(
            h.engineFeedback(since: mark) == [
                .highlight("work", on: true),
                .proposal(destination: "work", operation: .copy),
                .preview(PreviewState(count: 1, badge: .copy)),
                .insertion("work", index: 1),
            ])

        mark = h.engineMark
        h.release()
        #expect(
            h.engineFeedback(since: mark) == [
                .dropped(destination: "work", operation: .copy, index: 1),
                .highlight("work", on: false),
                .insertion("work", index: nil),
                .committed(destination: "work", items: ["milk"], operation: .copy, index: 1),
                .outcome(.completed(destination: "work", operation: .copy)),
            ])
        try h.finish()
    }

    @Test("F4: a destination that refuses the content shows no highlight but the not-allowed badge, and says why")
    func forbiddenDestination() throws {
        let h = try remindersWithRefusals()
        h.engineLift(at: F.row(0, x: 100))
        var mark = h.engineMark
        h.move(to: Point(x: 1100, y: 100))
        let reason = "Archived lists are read-only."
        #expect(
            h.feedback[mark...] == [
                .insertion("groceries", index: nil),
                .proposal(destination: "archive", operation: .forbidden(reason: reason)),
                .preview(PreviewState(count: 1, badge: .forbidden)),
                .announcement("Over Archive, cannot drop: Archived lists are read-only."),
            ])
        #expect(h.engine.currentSession?.highlighted == nil)

        mark = h.engineMark
        h.release()
        #expect(
            h.feedback[mark...] == [
                .dropped(destination: "archive", operation: .forbidden(reason: reason), index: nil),
                .outcome(.returnToSource(DropFailure(.forbidden, reason))),
                .announcement("Not dropped: Archived lists are read-only."),
            ])
        #expect(h.scene.snapshot()["archive"] == [])
        #expect(h.scene.snapshot()["groceries"] == ["milk", "eggs", "bread", "butter"])
        try h.finish()
    }

    @Test("F4: when a spring-loaded folder opens under a still pointer, the highlight leaves the hidden folder at once")
    func highlightFollowsHiddenDestination() throws {
        let h = try DragHarness(scene: F.homeScene())
        h.engineLift(at: Point(x: 50, y: 550))
        h.move(to: Point(x: 250, y: 50))
        #expect(h.engine.currentSession?.highlighted == "utilities")
        let mark = h.engineMark
        h.advance(by: .milliseconds(700))
        #expect(h.scene.isShown("utilitiesView"))
        #expect(!h.scene.isShown("utilities"))
        #expect(
            h.engineFeedback(since: mark) == [
                .springFlash("utilities"),
                .springActivated("utilities", explicit: false),
                .highlight("utilities", on: false),
                .highlight("utilitiesView", on: true),
                .proposal(destination: "utilitiesView", operation: .move),
                .insertion("utilitiesView", index: 0),
            ])
        h.release()
        #expect(h.scene.snapshot()["utilitiesView"] == ["phone"])
        #expect(h.scene.snapshot()["dock"] == ["mail"])
        try h.finish()
    }

    // MARK: F5

    @Test("F5: the innermost accepting destination wins: a folder inside the grid inside the window")
    func innermostWins() throws {
        let h = try DragHarness(scene: F.homeScene())
        h.engineLift(at: Point(x: 50, y: 550))
        var mark = h.engineMark
        h.move(to: Point(x: 250, y: 50))
        #expect(
            h.engineFeedback(since: mark) == [
                .insertion("dock", index: nil),
                .highlight("utilities", on: true),
                .proposal(destination: "utilities", operation: .move),
                .springArmed("utilities"),
            ])

        mark = h.engineMark
        h.move(to: Point(x: 150, y: 50))
        #expect(
            h.engineFeedback(since: mark) == [
                .highlight("utilities", on: false),
                .highlight("grid", on: true),
                .proposal(destination: "grid", operation: .move),
                .insertion("grid", index: 2),
                .springDisarmed("utilities"),
            ], "the notes icon accepts nothing: the drop falls through to the grid holding it")

        mark = h.engineMark
        h.move(to: Point(x: 250, y: 50))
        h.release()
        #expect(
            h.engineFeedback(since: mark) == [
                .insertion("grid", index: nil),
                .highlight("grid", on: false),
                .highlight("utilities", on: true),
                .proposal(destination: "utilities", operation: .move),
                .springArmed("utilities"),
                .dropped(destination: "utilities", operation: .move, index: nil),
                .highlight("utilities", on: false),
                .springDisarmed("utilities"),
                .committed(destination: "utilities", items: ["phone"], operation: .move, index: nil),
                .sourceRemoved(["phone"]),
                .outcome(.completed(destination: "utilities", operation: .move)),
            ])
        #expect(highlightsStayUnique(h))
        #expect(h.scene.snapshot()["utilities"] == ["calculator", "compass", "phone"])
        #expect(h.scene.snapshot()["dock"] == ["mail"])
        #expect(h.scene.snapshot()["grid"] == ["maps", "notes", "utilities"])
        try h.finish()
    }

    /// A small source palette (700, 0, 100×100) holding milk; a back window (0, 0, 400×400) whose
    /// list holds a folder at (200, 200, 100×100); a front window (250, 250, 400×400), registered
    /// later, whose content is `front`.
    private func overlappingWindows(frontAccepts: Bool) throws -> DragHarness {
        let palette = F.window(
            "palette", "Palette", frame: Rect(x: 700, y: 0, width: 100, height: 100),
            [
                F.list(
                    "source", "Source", frame: Rect(x: 700, y: 0, width: 100, height: 100), accepts: [F.reminderType],
                    items: F.reminders([("milk", "Milk")]))
            ])
        var folder = SceneNode(
            id: "backFolder", name: "Back Folder", role: .item, frame: Rect(x: 200, y: 200, width: 100, height: 100))
        folder.accepts = [F.reminderType]
        let backList = F.list(
            "backList", "Back List", frame: Rect(x: 0, y: 0, width: 400, height: 400), accepts: [F.reminderType],
            items: [folder], layout: nil)
        let back = F.window("backWindow", "Back Window", frame: Rect(x: 0, y: 0, width: 400, height: 400), [backList])
        var frontContent = SceneNode(
            id: "front", name: "Front", role: .container, frame: Rect(x: 250, y: 250, width: 400, height: 400))
        if frontAccepts { frontContent.accepts = [F.reminderType] }
        let front = F.window(
            "frontWindow", "Front Window", frame: Rect(x: 250, y: 250, width: 400, height: 400), [frontContent])
        return try DragHarness(scene: Scene([palette, back, front]))
    }

    @Test("F5: of two overlapping windows the front one wins, though the back one has deeper targets there")
    func frontWindowWins() throws {
        let h = try overlappingWindows(frontAccepts: true)
        h.engineLift(at: F.row(0, x: 750))
        var mark = h.engineMark
        h.move(to: Point(x: 275, y: 275))
        #expect(
            h.engineFeedback(since: mark) == [
                .insertion("source", index: nil),
                .highlight("front", on: true),
                .proposal(destination: "front", operation: .copy),
                .preview(PreviewState(count: 1, badge: .copy)),
            ])
        mark = h.engineMark
        h.move(to: Point(x: 225, y: 225))
        #expect(
            h.engineFeedback(since: mark) == [
                .highlight("front", on: false),
                .highlight("backFolder", on: true),
                .proposal(destination: "backFolder", operation: .copy),
            ], "outside the front window the back window's folder is the innermost destination")
        h.move(to: Point(x: 275, y: 275))
        h.release()
        #expect(h.scene.snapshot()["front"] == ["milk-copy1"])
        #expect(h.scene.snapshot()["backFolder"] == [])
        #expect(highlightsStayUnique(h))
        try h.finish()
    }

    @Test("F5: a front window that accepts nothing hides the destinations behind it")
    func frontWindowHides() throws {
        let h = try overlappingWindows(frontAccepts: false)
        h.engineLift(at: F.row(0, x: 750))
        h.move(to: Point(x: 275, y: 275))
        #expect(h.engine.currentSession?.destination == nil)
        #expect(h.engine.currentSession?.highlighted == nil)
        h.release()
        #expect(h.scene.snapshot()["backFolder"] == [])
        try h.finish()
    }

    // MARK: F6

    @Test("F6: no highlight over the source container until it has been left")
    func noHighlightOverSource() throws {
        let h = try DragHarness(scene: F.remindersScene(policy: .automatic))
        h.engineLift(at: F.row(0, x: 100))
        h.move(to: Point(x: 300, y: 500), steps: 20)
        #expect(!h.feedback.contains { if case .highlight = $0 { true } else { false } })
        #expect(h.engine.currentSession?.destination == "groceries")

        var mark = h.engineMark
        h.move(to: Point(x: 390, y: 100))
        #expect(
            h.engineFeedback(since: mark) == [
                .insertion("groceries", index: nil),
                .proposal(destination: nil, operation: .cancel),
            ])

        mark = h.engineMark
        h.move(to: F.row(2, x: 100))
        #expect(
            h.engineFeedback(since: mark) == [
                .highlight("groceries", on: true),
                .proposal(destination: "groceries", operation: .move),
                .insertion("groceries", index: 3),
            ], "having left completely, coming back highlights the source container")

        mark = h.engineMark
        h.release()
        #expect(
            h.engineFeedback(since: mark) == [
                .dropped(destination: "groceries", operation: .move, index: 3),
                .highlight("groceries", on: false),
                .insertion("groceries", index: nil),
                .committed(destination: "groceries", items: ["milk"], operation: .move, index: 3),
                .sourceRemoved(["milk"]),
                .outcome(.completed(destination: "groceries", operation: .move)),
            ])
        #expect(h.scene.snapshot()["groceries"] == ["eggs", "bread", "milk", "butter"])
        try h.finish()
    }

    // MARK: F7

    @Test("F7: a drop on nothing flies back to the visible source and says why")
    func dropOnNothingReturns() throws {
        let h = try DragHarness(scene: F.remindersScene())
        let before = h.scene.snapshot()
        h.engineLift(at: F.row(0, x: 100))
        h.move(to: Point(x: 390, y: 100))
        let mark = h.engineMark
        h.release()
        let failure = DropFailure(.noDestination, "Nothing here can take 'Milk'.")
        #expect(
            h.feedback[mark...] == [
                .dropped(destination: nil, operation: .cancel, index: nil),
                .outcome(.returnToSource(failure)),
                .announcement("Not dropped: Nothing here can take 'Milk'."),
            ])
        #expect(h.scene.snapshot() == before)
        try h.finish()
    }

    @Test("F7: when the source container was hidden (the Back button sprang open), a failed drop evaporates")
    func hiddenSourceEvaporates() throws {
        let h = try DragHarness(scene: F.mailScene())
        h.engineLift(at: Point(x: 100, y: 70))
        h.move(to: Point(x: 50, y: 20))
        h.advance(by: .milliseconds(700))
        #expect(!h.scene.isShown("inbox"))
        #expect(h.scene.isShown("mailboxes"))
        h.move(to: Point(x: 600, y: 300))
        let mark = h.engineMark
        h.release()
        #expect(
            h.engineFeedback(since: mark) == [
                .dropped(destination: nil, operation: .cancel, index: nil),
                .outcome(.evaporate(DropFailure(.noDestination, "Nothing here can take 'Lunch plans'."))),
            ])
        #expect(h.scene.snapshot()["inbox"] == ["lunch", "invoice", "newsletter"])
        try h.finish()
    }

    @Test("F7: Escape cancels: feedback goes off and the content flies back with reason cancelled")
    func escapeReturns() throws {
        let h = try DragHarness(scene: F.remindersScene())
        let before = h.scene.snapshot()
        h.engineLift(at: F.row(0, x: 100))
        h.move(to: F.row(1, x: 500))
        var mark = h.engineMark
        h.key(.cancel)
        #expect(
            h.feedback[mark...] == [
                .highlight("work", on: false),
                .insertion("work", index: nil),
                .outcome(.returnToSource(DropFailure(.cancelled, "The drag was cancelled."))),
                .announcement("Not dropped: The drag was cancelled."),
            ])
        mark = h.engineMark
        h.move(to: F.row(2, x: 500))
        h.release()
        #expect(h.feedback[mark...] == [], "after Escape the rest of the gesture is neither a drag nor a click")
        #expect(h.scene.snapshot() == before)
        try h.finish()
    }

    // MARK: F8

    @Test(
        "F8: a pointer jittering on a row's midpoint leaves the insertion where it is; 6 points past the midpoint it moves, and back the same way; the drop lands where it shows"
    )
    func insertionHysteresis() throws {
        let h = try DragHarness(scene: F.remindersScene(policy: .preferMove))
        #expect(h.engine.configuration.insertionHysteresis == 6)
        h.engineLift(at: F.row(0, x: 100))
        h.move(to: Point(x: 500, y: 20))
        #expect(h.engine.currentSession?.insertionIndex == 1)
        // The boundary between index 1 and 2 is at y = 60 (the second row's midpoint).
        let steps: [(y: Double, expected: [FeedbackEvent])] = [
            (60, []), (63, []), (58, []), (65.9, []),
            (66, [.insertion("work", index: 2)]),
            (59, []), (55, []), (54, []),
            (53.9, [.insertion("work", index: 1)]),
            (61, []),
        ]
        for step in steps {
            let mark = h.engineMark
            h.move(to: Point(x: 500, y: step.y))
            #expect(h.engineFeedback(since: mark) == step.expected, "at y = \(step.y)")
        }
        // Released on the boundary, the items land where the rows made room: index 1.
        h.release()
        #expect(h.scene.snapshot()["work"]?.first == "report")
        try h.finish()
    }

    @Test(
        "F8: without hysteresis the insertion index changes exactly as the pointer crosses row midpoints, and clears on leave"
    )
    func insertionFollowsMidpoints() throws {
        let h = try DragHarness(scene: F.remindersScene(policy: .preferMove))
        h.engine.configuration.insertionHysteresis = 0
        h.engineLift(at: F.row(0, x: 100))
        h.move(to: Point(x: 500, y: 20))
        #expect(h.engine.currentSession?.insertionIndex == 1)

        let steps: [(y: Double, expected: [FeedbackEvent])] = [
            (59.9, []),
            (60, [.insertion("work", index: 2)]),
            (99.9, []),
            (100, [.insertion("work", index: 3)]),
            (500, []),
            (19.9, [.insertion("work", index: 0)]),
            (20, [.insertion("work", index: 1)]),
        ]
        for step in steps {
            let mark = h.engineMark
            h.move(to: Point(x: 500, y: step.y))
            #expect(h.engineFeedback(since: mark) == step.expected, "at y = \(step.y)")
        }

        var mark = h.engineMark
        h.move(to: Point(x: 390, y: 60))
        #expect(
            h.engineFeedback(since: mark) == [
                .insertion("work", index: nil),
                .highlight("work", on: false),
                .proposal(destination: nil, operation: .cancel),
            ])
        #expect(h.engine.currentSession?.insertionIndex == nil)

        mark = h.engineMark
        h.move(to: Point(x: 500, y: 60))
        #expect(
            h.engineFeedback(since: mark) == [
                .highlight("work", on: true),
                .proposal(destination: "work", operation: .move),
                .insertion("work", index: 2),
            ])
        h.release()
        #expect(h.scene.snapshot()["work"] == ["report", "email", "milk", "call"])
        try h.finish()
    }
}
