import DragDrop
import DragDropTesting
import Testing

private typealias F = EngineFixtures

/// Sessions, operations and badges (S1-S4), several items (M1-M3) and lift and preview (F1-F3).
@Suite("Engine: sessions, operations, several items, lift and preview")
struct SessionTests {
    // MARK: S1: where a drag can go

    @Test("S1: a drag inside one container moves the paragraph to where it is dropped")
    func sameContainer() throws {
        let h = try DragHarness(scene: F.notesScene())
        h.press(at: F.row(0, x: 100))
        var mark = h.engineMark
        h.move(to: Point(x: 103, y: 20))
        #expect(
            h.feedback[mark...] == [
                .lifted(items: ["intro"], at: Point(x: 103, y: 20), mode: .pointer),
                .preview(PreviewState(count: 1, badge: .none)),
                .announcement("Picked up 'Intro'."),
                .proposal(destination: "note", operation: .move),
                .insertion("note", index: 1),
                .announcement("Over Note, will move."),
            ])

        mark = h.engineMark
        h.move(to: Point(x: 100, y: 115))
        #expect(h.engineFeedback(since: mark) == [.insertion("note", index: 3)])

        mark = h.engineMark
        h.release()
        #expect(
            h.feedback[mark...] == [
                .dropped(destination: "note", operation: .move, index: 3),
                .insertion("note", index: nil),
                .committed(destination: "note", items: ["intro"], operation: .move, index: 3),
                .sourceRemoved(["intro"]),
                .outcome(.completed(destination: "note", operation: .move)),
                .announcement("Moved 'Intro' to Note."),
            ])
        #expect(h.scene.snapshot() == ["note": ["body", "detail", "intro", "end"], "other": ["quote"]])
        try h.finish()
    }

    @Test("S1: a drag between two containers of one window moves a reminder to the other list")
    func twoContainers() throws {
        let h = try DragHarness(scene: F.remindersScene())
        h.engineLift(at: F.row(0, x: 100))
        #expect(
            h.engineFeedback(since: 0) == [
                .lifted(items: ["milk"], at: Point(x: 103, y: 20), mode: .pointer),
                .preview(PreviewState(count: 1, badge: .none)),
                .proposal(destination: "groceries", operation: .move),
                .insertion("groceries", index: 1),
            ])

        var mark = h.engineMark
        h.move(to: F.row(1, x: 500))
        #expect(
            h.feedback[mark...] == [
                .insertion("groceries", index: nil),
                .highlight("work", on: true),
                .proposal(destination: "work", operation: .move),
                .insertion("work", index: 2),
                .announcement("Over Work, will move."),
            ])

        mark = h.engineMark
        h.release()
        #expect(
            h.feedback[mark...] == [
                .dropped(destination: "work", operation: .move, index: 2),
                .highlight("work", on: false),
                .insertion("work", index: nil),
                .committed(destination: "work", items: ["milk"], operation: .move, index: 2),
                .sourceRemoved(["milk"]),
                .outcome(.completed(destination: "work", operation: .move)),
                .announcement("Moved 'Milk' to Work."),
            ])
        #expect(
            h.scene.snapshot() == [
                "groceries": ["eggs", "bread", "butter"], "work": ["report", "email", "milk", "call"],
            ])
        try h.finish()
    }

    @Test(
        "S2, S4: read-only content (isMovable false) drags out as a copy: a list that prefers moving copies it, the move modifier copies too, and the source keeps it"
    )
    func readOnlyItemsCopy() throws {
        var readOnly = F.reminders([("milk", "Milk"), ("eggs", "Eggs")])
        readOnly[0].isMovable = false
        let groceries = F.list(
            "groceries", "Groceries", frame: Rect(x: 0, y: 0, width: 380, height: 600), accepts: [F.reminderType],
            items: readOnly, policy: .preferMove)
        let work = F.list(
            "work", "Work", frame: Rect(x: 400, y: 0, width: 380, height: 600), accepts: [F.reminderType],
            items: F.reminders([("report", "Report")]), policy: .preferMove)
        let scene = try Scene([
            F.window("window", "Reminders", frame: Rect(x: 0, y: 0, width: 800, height: 600), [groceries, work])
        ])
        let h = try DragHarness(scene: scene)
        h.engineLift(at: F.row(0, x: 100))
        var mark = h.engineMark
        h.move(to: F.row(0, x: 500))
        #expect(h.engineFeedback(since: mark).contains(.proposal(destination: "work", operation: .copy)))
        #expect(h.engineAnnouncements(since: mark) == ["Over Work, will copy."])
        mark = h.engineMark
        h.setModifiers([.forceMove])
        #expect(
            !h.engineFeedback(since: mark).contains { if case .proposal(_, .move) = $0 { true } else { false } },
            "the move modifier cannot move what may not leave")
        mark = h.engineMark
        h.release()
        #expect(h.engineFeedback(since: mark).contains(.outcome(.completed(destination: "work", operation: .copy))))
        #expect(!h.engineFeedback(since: mark).contains { if case .sourceRemoved = $0 { true } else { false } })
        let lists = h.scene.snapshot()
        #expect(lists["groceries"] == ["milk", "eggs"], "the read-only reminder stays")
        #expect(lists["work"]?.count == 2 && lists["work"]?.first == "report", "and a copy arrived")
        try h.finish()
    }

    @Test("S1: a drag between two windows of one app copies into the other window's list")
    func twoWindows() throws {
        let h = try DragHarness(scene: F.twoWindowsScene())
        h.engineLift(at: F.row(0, x: 100))
        var mark = h.engineMark
        h.move(to: F.row(1, x: 600))
        #expect(
            h.engineFeedback(since: mark) == [
                .insertion("inbox", index: nil),
                .highlight("someday", on: true),
                .proposal(destination: "someday", operation: .copy),
                .preview(PreviewState(count: 1, badge: .copy)),
                .insertion("someday", index: 1),
            ])
        mark = h.engineMark
        h.release()
        #expect(
            h.engineFeedback(since: mark) == [
                .dropped(destination: "someday", operation: .copy, index: 1),
                .highlight("someday", on: false),
                .insertion("someday", index: nil),
                .committed(destination: "someday", items: ["milk"], operation: .copy, index: 1),
                .outcome(.completed(destination: "someday", operation: .copy)),
            ])
        #expect(h.scene.snapshot() == ["inbox": ["milk", "eggs"], "someday": ["trip", "milk-copy1"]])
        try h.finish()
    }

    @Test("S1: a photo dragged in from another app is copied into an album")
    func anotherApp() throws {
        let h = try DragHarness(scene: F.photosScene(), app: "Photos")
        try h.externalDragEnter([F.webPhoto], at: Point(x: 100, y: 20))
        #expect(
            h.feedback == [
                .lifted(items: ["web-sunset"], at: Point(x: 100, y: 20), mode: .external),
                .preview(PreviewState(count: 1, badge: .none)),
                .highlight("trips", on: true),
                .proposal(destination: "trips", operation: .copy),
                .preview(PreviewState(count: 1, badge: .copy)),
                .announcement("Over Trips, will copy."),
            ])
        let mark = h.engineMark
        h.release()
        #expect(
            h.feedback[mark...] == [
                .dropped(destination: "trips", operation: .copy, index: nil),
                .highlight("trips", on: false),
                .committed(destination: "trips", items: ["web-sunset"], operation: .copy, index: nil),
                .outcome(.completed(destination: "trips", operation: .copy)),
                .announcement("Copied 'Sunset' to Trips."),
            ])
        #expect(h.scene.snapshot()["trips"] == ["web-sunset-copy1"])
        #expect(h.scene.snapshot()["library"] == ["beach", "city", "forest", "lake"])
        try h.finish()
    }

    @Test(
        "S1, F4: a drag from another app that leaves again changes nothing, leaves no feedback on, and says it is no longer over a drop point"
    )
    func anotherAppLeaves() throws {
        let h = try DragHarness(scene: F.photosScene(), app: "Photos")
        let before = h.scene.snapshot()
        try h.externalDragEnter([F.webPhoto], at: Point(x: 100, y: 20))
        h.move(to: Point(x: 100, y: 60))
        let mark = h.engineMark
        h.externalDragExit()
        #expect(h.feedback[mark...] == [.highlight("family", on: false), .announcement("Not over a drop point.")])
        #expect(!h.engine.isDragging)
        #expect(h.scene.snapshot() == before)
        try h.finish()
    }

    // MARK: S2: the default operation

    @Test("S2: inside one container the drag moves; over another container of the app it copies")
    func sameMovesOtherCopies() throws {
        let h = try DragHarness(scene: F.notesScene())
        h.engineLift(at: F.row(0, x: 100))
        #expect(h.engine.currentSession?.operation == .move)
        let mark = h.engineMark
        h.move(to: F.row(0, x: 500))
        #expect(
            h.engineFeedback(since: mark) == [
                .insertion("note", index: nil),
                .highlight("other", on: true),
                .proposal(destination: "other", operation: .copy),
                .preview(PreviewState(count: 1, badge: .copy)),
                .insertion("other", index: 1),
            ])
        h.release()
        #expect(
            h.scene.snapshot() == ["note": ["intro", "body", "detail", "end"], "other": ["quote", "intro-copy1"]])
        try h.finish()
    }

    @Test("S2: a drag from another app copies even onto a list that prefers moving")
    func otherAppCopiesDespitePreferMove() throws {
        let h = try DragHarness(scene: F.remindersScene(policy: .preferMove), app: "Reminders")
        let foreign = DragItem(
            id: "web-todo", name: "Todo", kind: F.reminder, types: [F.reminderType], app: "Browser")
        try h.externalDragEnter([foreign], at: F.row(0, x: 500))
        #expect(h.engine.currentSession?.operation == .copy)
        #expect(h.engineFeedback(since: 0).contains(.proposal(destination: "work", operation: .copy)))
        h.setModifiers(.forceMove)
        #expect(h.engine.currentSession?.operation == .copy, "another app always copies, even with the move key")
        h.release()
        #expect(h.scene.snapshot()["work"] == ["report", "web-todo-copy1", "email", "call"])
        try h.finish()
    }

    @Test("S2: a drop on another app's window copies even when its list prefers moving")
    func otherAppsTargetCopies() throws {
        var mailList = F.list(
            "mailTodos", "Mail To-dos", frame: Rect(x: 0, y: 0, width: 300, height: 300), accepts: [F.reminderType],
            items: [], policy: .preferMove)
        mailList.app = "Mail"
        var mailWindow = F.window("mail", "Mail", frame: Rect(x: 900, y: 0, width: 300, height: 300), [])
        mailList.frame = Rect(x: 900, y: 0, width: 300, height: 300)
        mailWindow.app = "Mail"
        mailWindow.children = [mailList]
        let reminders = try F.remindersScene(policy: .preferMove)
        let h = try DragHarness(scene: Scene(reminders.roots + [mailWindow]), app: "Reminders")
        h.engineLift(at: F.row(0, x: 100))
        let mark = h.engineMark
        h.move(to: Point(x: 1000, y: 100))
        #expect(
            h.engineFeedback(since: mark) == [
                .insertion("groceries", index: nil),
                .highlight("mailTodos", on: true),
                .proposal(destination: "mailTodos", operation: .copy),
                .preview(PreviewState(count: 1, badge: .copy)),
                .insertion("mailTodos", index: 0),
            ])
        h.release()
        #expect(h.scene.snapshot()["mailTodos"] == ["milk-copy1"])
        #expect(h.scene.snapshot()["groceries"] == ["milk", "eggs", "bread", "butter"])
        try h.finish()
    }

    @Test("S2: a list that prefers moving moves between lists; one that always copies copies even inside itself")
    func policyOverrides() throws {
        let moving = try DragHarness(scene: F.remindersScene(policy: .preferMove))
        moving.engineLift(at: F.row(0, x: 100))
        moving.move(to: F.row(0, x: 500))
        #expect(moving.engine.currentSession?.operation == .move)
        #expect(moving.engine.currentSession?.preview.badge == Badge.none)
        moving.key(.cancel)
        moving.release()
        try moving.finish()

        let copying = try DragHarness(scene: F.remindersScene(policy: .alwaysCopy))
        copying.engineLift(at: F.row(0, x: 100))
        #expect(
            copying.engineFeedback(since: 0) == [
                .lifted(items: ["milk"], at: Point(x: 103, y: 20), mode: .pointer),
                .preview(PreviewState(count: 1, badge: .none)),
                .proposal(destination: "groceries", operation: .copy),
                .preview(PreviewState(count: 1, badge: .copy)),
                .insertion("groceries", index: 1),
            ])
        copying.move(to: F.row(3, x: 100))
        copying.release()
        #expect(copying.scene.snapshot()["groceries"] == ["milk", "eggs", "bread", "butter", "milk-copy1"])
        try copying.finish()
    }

    @Test("S2: the copy modifier turns a move into a copy mid-drag, and letting go of it turns it back")
    func copyModifierFlips() throws {
        let h = try DragHarness(scene: F.remindersScene(policy: .preferMove))
        h.engineLift(at: F.row(0, x: 100))
        h.move(to: F.row(0, x: 500))
        #expect(h.engine.currentSession?.operation == .move)

        var mark = h.engineMark
        h.setModifiers(.forceCopy)
        #expect(
            h.feedback[mark...] == [
                .proposal(destination: "work", operation: .copy),
                .preview(PreviewState(count: 1, badge: .copy)),
                .announcement("Over Work, will copy."),
            ])

        mark = h.engineMark
        h.setModifiers([])
        #expect(
            h.feedback[mark...] == [
                .proposal(destination: "work", operation: .move),
                .preview(PreviewState(count: 1, badge: .none)),
                .announcement("Over Work, will move."),
            ])

        h.setModifiers(.forceCopy)
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
        #expect(
            h.scene.snapshot() == [
                "groceries": ["milk", "eggs", "bread", "butter"], "work": ["report", "milk-copy1", "email", "call"],
            ])
        try h.finish()
    }

    @Test("S2: the move modifier moves between containers of one app, but never into an always-copy list")
    func moveModifier() throws {
        let h = try DragHarness(scene: F.notesScene())
        h.engineLift(at: F.row(0, x: 100))
        h.move(to: F.row(0, x: 500))
        #expect(h.engine.currentSession?.operation == .copy)
        let mark = h.engineMark
        h.setModifiers(.forceMove)
        #expect(
            h.engineFeedback(since: mark) == [
                .proposal(destination: "other", operation: .move),
                .preview(PreviewState(count: 1, badge: .none)),
            ])
        h.release()
        #expect(h.scene.snapshot() == ["note": ["body", "detail", "end"], "other": ["quote", "intro"]])
        try h.finish()

        let copying = try DragHarness(scene: F.remindersScene(policy: .alwaysCopy))
        copying.engineLift(at: F.row(0, x: 100))
        copying.move(to: F.row(0, x: 500))
        copying.setModifiers(.forceMove)
        #expect(copying.engine.currentSession?.operation == .copy)
        copying.key(.cancel)
        copying.release()
        try copying.finish()
    }

    // MARK: S3: the badge

    @Test("S3: the badge always matches the proposal: none for move, plus for copy, slash for forbidden")
    func badgeMatchesProposal() throws {
        var archive = F.list(
            "archive", "Archive", frame: Rect(x: 800, y: 0, width: 200, height: 600), accepts: [F.reminderType],
            items: [], policy: .forbidden(reason: "Archived lists are read-only."))
        archive.layout = nil
        let base = try F.remindersScene(policy: .automatic)
        var window = base.roots[0]
        window.frame = Rect(x: 0, y: 0, width: 1000, height: 600)
        window.children.append(archive)
        let h = try DragHarness(scene: Scene([window]))

        func checkBadge(_ note: Comment) {
            guard let s = h.engine.currentSession else {
                Issue.record("no drag: \(note)")
                return
            }
            #expect(s.preview.badge == s.operation.badge, note)
            #expect(h.enginePreviews().last?.badge == s.operation.badge, note)
        }
        h.engineLift(at: F.row(0, x: 100))
        checkBadge("lift in the source list (move)")
        h.move(to: F.row(0, x: 500))
        checkBadge("over another list (copy)")
        h.move(to: Point(x: 900, y: 100))
        checkBadge("over the read-only archive (forbidden)")
        #expect(h.engine.currentSession?.operation == .forbidden(reason: "Archived lists are read-only."))
        h.move(to: Point(x: 390, y: 100))
        checkBadge("between the lists (nothing)")
        #expect(h.engine.currentSession?.operation == .cancel)
        h.move(to: F.row(2, x: 100))
        checkBadge("back in the source list (move)")
        h.setModifiers(.forceCopy)
        checkBadge("copy key in the source list (copy)")
        #expect(
            h.enginePreviews() == [
                PreviewState(count: 1, badge: .none), PreviewState(count: 1, badge: .copy),
                PreviewState(count: 1, badge: .forbidden), PreviewState(count: 1, badge: .none),
                PreviewState(count: 1, badge: .copy),
            ])
        h.key(.cancel)
        h.release()
        try h.finish()
    }

    @Test("S3: several items show their count on the drag image")
    func countForSeveral() throws {
        let h = try DragHarness(scene: F.remindersScene(policy: .automatic))
        h.select(["milk", "eggs", "bread"])
        h.engineLift(at: F.row(1, x: 100))
        h.move(to: F.row(0, x: 500))
        let previews = h.enginePreviews()
        #expect(previews == [PreviewState(count: 3, badge: .none), PreviewState(count: 3, badge: .copy)])
        #expect(previews.allSatisfy { $0.showsCount && $0.isFlocked })
        #expect(!PreviewState(count: 1, badge: .copy).showsCount)
        h.key(.cancel)
        h.release()
        try h.finish()
    }

    // MARK: S4: moves remove only after the commit; failures change nothing

    @Test("S4: a drop that fails leaves source and destination as they were and removes nothing")
    func failedDropChangesNothing() throws {
        let base = try F.remindersScene(policy: .preferMove)
        var window = base.roots[0]
        window.children[1].failure = "The sync server did not answer."
        let h = try DragHarness(scene: Scene([window]))
        let before = h.scene.snapshot()
        h.engineLift(at: F.row(0, x: 100))
        h.move(to: F.row(1, x: 500))
        let mark = h.engineMark
        h.release()
        let failure = DropFailure(.failed, "The sync server did not answer.")
        #expect(
            h.feedback[mark...] == [
                .dropped(destination: "work", operation: .move, index: 2),
                .highlight("work", on: false),
                .insertion("work", index: nil),
                .outcome(.returnToSource(failure)),
                .announcement("Not dropped: The sync server did not answer."),
            ])
        #expect(h.scene.snapshot() == before)
        #expect(!h.engine.undoStack.canUndo)
        try h.finish()
    }

    @Test("S4: a move takes the item out of its source only after the destination committed it")
    func moveRemovesAfterCommit() throws {
        final class Recorder: TimelineObserver {
            var atCommit: [TargetID: [TargetID]]?
            var atRemoval: [TargetID: [TargetID]]?
            func observe(_ entry: TimelineEntry, scene: Scene, engine: DragEngine) {
                guard case .feedback(let f) = entry.event else { return }
                if case .committed = f { atCommit = scene.snapshot() }
                if case .sourceRemoved = f { atRemoval = scene.snapshot() }
            }
            func inputHandled(_ input: InputEvent, at time: MonotonicInstant, scene: Scene, engine: DragEngine) {}
        }
        let h = try DragHarness(scene: F.remindersScene(policy: .preferMove))
        let recorder = Recorder()
        h.observers.append(recorder)
        h.engineLift(at: F.row(0, x: 100))
        h.move(to: F.row(3, x: 500))
        h.release()
        #expect(
            recorder.atCommit == [
                "groceries": ["milk", "eggs", "bread", "butter"], "work": ["report", "email", "call", "milk"],
            ])
        #expect(
            recorder.atRemoval == [
                "groceries": ["eggs", "bread", "butter"], "work": ["report", "email", "call", "milk"],
            ])
        #expect(h.scene.snapshot() == recorder.atRemoval)
        try h.finish()
    }

    // MARK: F1: lift

    @Test("F1: no drag below 3 points of movement; releasing there is a click")
    func noLiftBelowThreshold() throws {
        let h = try DragHarness(scene: F.remindersScene())
        h.press(at: Point(x: 100, y: 20))
        h.move(to: Point(x: 102.9, y: 20))
        h.move(to: Point(x: 102, y: 22))  // 2.83 points away
        h.move(to: Point(x: 100, y: 17.1))
        #expect(h.feedback == [])
        #expect(!h.engine.isDragging)
        h.release()
        #expect(h.feedback == [.clicked("milk")])
        #expect(h.scene.snapshot()["groceries"] == ["milk", "eggs", "bread", "butter"])
        try h.finish()
    }

    @Test("F1: the drag lifts once the pointer has moved 3 points with the button held")
    func liftAtThreshold() throws {
        let h = try DragHarness(scene: F.remindersScene())
        h.press(at: Point(x: 100, y: 20))
        h.move(to: Point(x: 102.9, y: 20))
        #expect(h.feedback == [])
        h.move(to: Point(x: 100, y: 17))
        #expect(
            h.engineFeedback(since: 0) == [
                .lifted(items: ["milk"], at: Point(x: 100, y: 17), mode: .pointer),
                .preview(PreviewState(count: 1, badge: .none)),
                .proposal(destination: "groceries", operation: .move),
                .insertion("groceries", index: 0),
            ])
        let mark = h.engineMark
        h.key(.cancel)
        h.release()
        #expect(
            h.engineFeedback(since: mark) == [
                .insertion("groceries", index: nil),
                .outcome(.returnToSource(DropFailure(.cancelled, "The drag was cancelled."))),
            ])
        try h.finish()
    }

    @Test("F1: a touch lifts the content after 0.5 s of holding, in virtual time")
    func touchHoldLifts() throws {
        let h = try DragHarness(scene: F.remindersScene())
        h.press(at: F.row(0, x: 100), kind: .touch)
        h.advance(by: .milliseconds(499))
        #expect(h.feedback == [])
        #expect(!h.engine.isDragging)
        h.advance(by: .milliseconds(1))
        let timed = h.engineTimedFeedback()
        #expect(timed.map(\.1).first == .lifted(items: ["milk"], at: F.row(0, x: 100), mode: .pointer))
        #expect(timed.allSatisfy { $0.0 == engineInstant(.milliseconds(500)) })
        #expect(h.engine.isDragging)
        h.move(to: F.row(0, x: 500), steps: 4)
        h.release()
        #expect(h.scene.snapshot()["work"] == ["report", "milk", "email", "call"])
        try h.finish()
    }

    @Test("F1: a finger may wander up to 10 points during the hold; the content lifts where it is")
    func touchWithinSlop() throws {
        let h = try DragHarness(scene: F.remindersScene())
        h.press(at: Point(x: 100, y: 20), kind: .touch)
        h.advance(by: .milliseconds(100))
        h.move(to: Point(x: 106, y: 28))
        #expect(h.feedback == [])
        h.advance(by: .milliseconds(400))
        #expect(h.feedback.first == .lifted(items: ["milk"], at: Point(x: 106, y: 28), mode: .pointer))
        h.key(.cancel)
        h.release()
        try h.finish()
    }

    @Test("F1: a touch that moves 15 points before the hold ends is a scroll, not a drag")
    func touchMovingEarlyIsNoDrag() throws {
        let h = try DragHarness(scene: F.remindersScene())
        h.press(at: Point(x: 100, y: 20), kind: .touch)
        h.advance(by: .milliseconds(200))
        h.move(to: Point(x: 100, y: 35))
        h.advance(by: .seconds(1))
        #expect(h.feedback == [])
        #expect(!h.engine.isDragging)
        h.release()
        #expect(h.feedback == [], "a scroll is not a tap either")
        #expect(h.scene.snapshot()["groceries"] == ["milk", "eggs", "bread", "butter"])
        try h.finish()
    }

    // MARK: F2, F3: the drag image

    @Test("F2: the drag image appears with the lift and stays until the drop's outcome")
    func previewFromLiftToDrop() throws {
        let h = try DragHarness(scene: F.remindersScene())
        h.engineLift(at: F.row(0, x: 100))
        let lifted = h.engineFeedback(since: 0)
        #expect(
            lifted.prefix(2) == [
                .lifted(items: ["milk"], at: Point(x: 103, y: 20), mode: .pointer),
                .preview(PreviewState(count: 1, badge: .none)),
            ])
        for step in 1...10 {
            h.move(to: Point(x: 103 + Double(step) * 40, y: 20))
            #expect(h.engine.currentSession?.preview == PreviewState(count: 1, badge: .none))
        }
        h.release()
        let all = h.engineFeedback(since: 0)
        #expect(all.last == .outcome(.completed(destination: "work", operation: .move)))
        #expect(all.filter { if case .lifted = $0 { true } else { false } }.count == 1)
        #expect(h.engine.currentSession == nil)
        try h.finish()
    }

    @Test("F3: the drag image does not change over a 100-step move within one destination")
    func previewStableWithinDestination() throws {
        let h = try DragHarness(scene: F.remindersScene(policy: .automatic))
        h.engineLift(at: F.row(0, x: 100))
        h.move(to: Point(x: 300, y: 580), steps: 100)
        #expect(h.enginePreviews() == [PreviewState(count: 1, badge: .none)])

        h.move(to: F.row(0, x: 500))
        var mark = h.engineMark
        #expect(h.enginePreviews() == [PreviewState(count: 1, badge: .none), PreviewState(count: 1, badge: .copy)])
        h.move(to: Point(x: 700, y: 580), steps: 100)
        #expect(h.enginePreviews(since: mark) == [])
        mark = h.engineMark
        h.release()
        #expect(h.enginePreviews(since: mark) == [])
        try h.finish()
    }

    // MARK: M1-M3: several items

    @Test("M1: a selected group is dragged together, in selection order")
    func selectionDraggedTogether() throws {
        let h = try DragHarness(scene: F.remindersScene(policy: .preferMove))
        h.select(["bread", "milk", "butter"])
        h.engineLift(at: F.row(0, x: 100))
        #expect(
            h.engineFeedback(since: 0).prefix(2) == [
                .lifted(items: ["bread", "milk", "butter"], at: Point(x: 103, y: 20), mode: .pointer),
                .preview(PreviewState(count: 3, badge: .none)),
            ])
        #expect(h.engineAnnouncements().first == "Picked up 3 reminders.")
        h.move(to: F.row(1, x: 500))
        let mark = h.engineMark
        h.release()
        #expect(
            h.engineFeedback(since: mark) == [
                .dropped(destination: "work", operation: .move, index: 2),
                .highlight("work", on: false),
                .insertion("work", index: nil),
                .committed(destination: "work", items: ["bread", "milk", "butter"], operation: .move, index: 2),
                .sourceRemoved(["bread", "milk", "butter"]),
                .outcome(.completed(destination: "work", operation: .move)),
            ])
        #expect(
            h.scene.snapshot() == [
                "groceries": ["eggs"], "work": ["report", "email", "bread", "milk", "butter", "call"],
            ])
        try h.finish()
    }

    @Test("M1: a selection spanning two lists moves together; undo puts each item back in its own list")
    func selectionAcrossLists() throws {
        let h = try DragHarness(scene: F.remindersScene(policy: .preferMove))
        h.select(["email", "milk", "call"])
        h.engineLift(at: F.row(0, x: 100))
        h.move(to: Point(x: 100, y: 115))
        h.move(to: Point(x: 390, y: 100))
        h.move(to: Point(x: 100, y: 115))
        let mark = h.engineMark
        h.release()
        #expect(
            h.engineFeedback(since: mark) == [
                .dropped(destination: "groceries", operation: .move, index: 3),
                .highlight("groceries", on: false),
                .insertion("groceries", index: nil),
                .committed(destination: "groceries", items: ["email", "milk", "call"], operation: .move, index: 3),
                .sourceRemoved(["email", "milk", "call"]),
                .outcome(.completed(destination: "groceries", operation: .move)),
            ])
        #expect(
            h.scene.snapshot() == [
                "groceries": ["eggs", "bread", "email", "milk", "call", "butter"], "work": ["report"],
            ])
        h.undo()
        #expect(
            h.scene.snapshot() == [
                "groceries": ["milk", "eggs", "bread", "butter"], "work": ["report", "email", "call"],
            ])
        try h.finish()
    }

    @Test("M1: dragging an item outside the selection drags that item alone")
    func unselectedItemAlone() throws {
        let h = try DragHarness(scene: F.remindersScene())
        h.select(["bread", "butter"])
        h.engineLift(at: F.row(1, x: 100))
        #expect(h.engine.currentSession?.items.map(\.id) == ["eggs"])
        h.key(.cancel)
        h.release()
        try h.finish()
    }

    @Test("M2: tapping other items during a drag adds them; the drag image counts them")
    func tapAddsItems() throws {
        let h = try DragHarness(scene: F.remindersScene(policy: .preferMove))
        h.engineLift(at: F.row(0, x: 100))
        h.move(to: F.row(1, x: 500))

        var mark = h.engineMark
        h.tap(at: F.row(2, x: 100))
        #expect(
            h.feedback[mark...] == [
                .itemsAdded(["bread"]),
                .announcement("Added 'Bread'. Dragging 2 reminders."),
                .proposal(destination: "work", operation: .move),
                .preview(PreviewState(count: 2, badge: .none)),
                .announcement("Over Work, will move."),
            ])

        mark = h.engineMark
        h.tap(at: F.row(2, x: 100))  // already dragged
        h.tap(at: Point(x: 390, y: 300))  // nothing there
        #expect(h.feedback[mark...] == [])

        mark = h.engineMark
        h.tap(at: F.row(3, x: 100))
        #expect(
            h.engineFeedback(since: mark) == [
                .itemsAdded(["butter"]),
                .proposal(destination: "work", operation: .move),
                .preview(PreviewState(count: 3, badge: .none)),
            ])
        h.release()
        #expect(
            h.scene.snapshot() == [
                "groceries": ["eggs"], "work": ["report", "email", "milk", "bread", "butter", "call"],
            ])
        try h.finish()
    }

    @Test("M3: grouped items flock under the pointer with a count, and land as separate items")
    func flocking() throws {
        let h = try DragHarness(scene: F.remindersScene(policy: .automatic))
        h.engineLift(at: F.row(0, x: 100))
        #expect(h.engine.currentSession?.preview.isFlocked == false)
        h.tap(at: F.row(1, x: 100))
        let preview = try #require(h.engine.currentSession?.preview)
        #expect(preview == PreviewState(count: 2, badge: .none))
        #expect(preview.isFlocked && preview.showsCount)
        h.move(to: F.row(0, x: 500))
        #expect(h.enginePreviews().last == PreviewState(count: 2, badge: .copy))
        h.release()
        #expect(h.scene.snapshot()["work"] == ["report", "milk-copy1", "eggs-copy2", "email", "call"])
        try h.finish()
    }
}
