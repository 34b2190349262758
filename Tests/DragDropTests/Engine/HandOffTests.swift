import DragDrop
import DragDropTesting
import Testing

private typealias F = EngineFixtures

/// Drags of this app's content dropped on another app (S1, S2): the platform reports the
/// other app took the drop, and what it did, with `dropHandedOff(to:operation:)`.
@Suite("Engine: drops handed off to another app")
struct HandOffTests {
    /// A reminder lifted and dragged out of the window (where another app's window is).
    private func dragMilkOutside() throws -> (DragHarness, TimelineAuditor) {
        let h = try DragHarness(scene: F.remindersScene())
        let auditor = TimelineAuditor()
        h.observers.append(auditor)
        h.engineLift(at: F.row(0, x: 100))
        h.move(to: Point(x: 1_500, y: 300))
        return (h, auditor)
    }

    @Test("S1, S2: a drop taken by another app ends as handed off, a copy: the source keeps the item, nothing to undo")
    func handedOffIsACopy() throws {
        let (h, auditor) = try dragMilkOutside()
        let before = h.scene.snapshot()
        let mark = h.engineMark
        #expect(h.engine.dropHandedOff(to: "Mail") == .handedOff(app: "Mail", operation: .copy))
        #expect(h.engine.dropHandedOff(to: "Mail") == nil, "no drag left to hand off")
        #expect(
            h.feedback[mark...] == [
                .outcome(.handedOff(app: "Mail", operation: .copy)),
                .announcement("Copied 'Milk' to Mail."),
            ])
        #expect(!h.engine.isDragging)
        #expect(h.scene.snapshot() == before)
        #expect(!h.engine.undoStack.canUndo)
        h.release(at: Point(x: 1_500, y: 300))
        auditor.finish(scene: h.scene, engine: h.engine)
        #expect(auditor.violations.isEmpty, "\(auditor.violations.map(\.description))")
        try h.finish()
    }

    @Test("S1: an unknown other app is announced as another app, and the timeline names no app")
    func unknownApp() throws {
        let (h, _) = try dragMilkOutside()
        let mark = h.engineMark
        h.engine.dropHandedOff()
        #expect(
            h.feedback[mark...] == [
                .outcome(.handedOff(app: nil, operation: .copy)), .announcement("Copied 'Milk' to another app."),
            ])
        let json = TimelineEntry(time: .origin, event: .feedback(.outcome(.handedOff(app: nil, operation: .copy)))).json
            .serialized
        #expect(json.contains("\"outcome\":\"handedOff\""))
        #expect(json.contains("\"app\":null"))
        #expect(json.contains("\"operation\":\"copy\""))
        #expect(DropOutcome.handedOff(app: "Mail", operation: .copy).failure == nil)
    }

    @Test(
        "S2, S4: another app that took the drop with a move (the person held Shift): the item leaves its source, the announcement says moved, and the undo history says it cannot be undone"
    )
    func handedOffAsAMove() throws {
        let (h, auditor) = try dragMilkOutside()
        h.setModifiers(.forceMove)
        let before = h.scene.snapshot()
        let mark = h.engineMark
        #expect(h.engine.dropHandedOff(to: "Thunar", operation: .move) == .handedOff(app: "Thunar", operation: .move))
        #expect(
            h.feedback[mark...] == [
                .sourceRemoved(["milk"]),
                .outcome(.handedOff(app: "Thunar", operation: .move)),
                .announcement("Moved 'Milk' to Thunar."),
            ])
        var expected = before
        for key in expected.keys { expected[key]?.removeAll { $0 == "milk" } }
        #expect(h.scene.snapshot() == expected)
        // The history says so instead of offering an undo that could not work.
        #expect(!h.engine.canUndo)
        #expect(h.engine.undoStack.undoMenuItemTitle == "Can't Undo Move Reminder to Thunar")
        h.engine.undo()
        #expect(h.scene.snapshot() == expected)
        h.release(at: Point(x: 1_500, y: 300))
        auditor.finish(scene: h.scene, engine: h.engine)
        #expect(auditor.violations.isEmpty, "\(auditor.violations.map(\.description))")
        try h.finish()
    }

    @Test(
        "U1, S4: a move another app turned out to copy (the item is still here) is taken out of the undo history, which again offers the step before it; a partly kept move is renamed to what left"
    )
    func movedButKept() throws {
        let (h, auditor) = try dragMilkOutside()
        h.engine.undoStack.register(undo: {}, redo: {})
        h.engine.undoStack.setActionName("Rename")
        var changes: [UndoStackChange] = []
        h.engine.undoStack.onChange = { changes.append($0) }
        h.setModifiers(.forceMove)
        h.engine.dropHandedOff(to: "Nautilus", operation: .move)
        #expect(h.engine.undoStack.undoMenuItemTitle == "Can't Undo Move Reminder to Nautilus")
        h.engine.otherAppKept(["bread"])
        #expect(h.engine.undoStack.undoMenuItemTitle == "Can't Undo Move Reminder to Nautilus", "not an item it moved")
        h.engine.otherAppKept(["milk"])
        #expect(h.engine.undoStack.undoMenuItemTitle == "Undo Rename", "the step before it is offered again")
        #expect(changes.last == .withdrawn(name: "Move Reminder to Nautilus"))
        h.engine.otherAppKept(["milk"])
        #expect(h.engine.undoStack.undoMenuItemTitle == "Undo Rename", "once only")
        h.release(at: Point(x: 1_500, y: 300))
        h.setModifiers([])
        auditor.finish(scene: h.scene, engine: h.engine)
        #expect(auditor.violations.isEmpty, "\(auditor.violations.map(\.description))")
    }

    @Test("U1: of two files another app said it moved, one stayed: the step names the one that left")
    func movedInPart() throws {
        let stack = UndoStack()
        let step = try #require(stack.registerIrreversible(named: "Move 2 Files to Nautilus"))
        stack.register(undo: {}, redo: {})
        stack.setActionName("Rename")
        stack.renameIrreversible(step, to: "Move File to Nautilus")
        #expect(stack.undoMenuItemTitle == "Undo Rename", "a later step stays on top")
        stack.undo()
        #expect(stack.undoMenuItemTitle == "Can't Undo Move File to Nautilus")
        stack.withdrawIrreversible(step)
        #expect(!stack.canUndo && stack.canRedo, "the undone step is still redoable")
    }

    @Test("S4: what another app did is what is said: copied when nothing left, moved, or moved in part")
    func handOffSentences() {
        let a = DragItem(id: "a", name: "a.txt", kind: Noun("file"), types: [F.reminderType], app: "Files")
        let b = DragItem(id: "b", name: "b.txt", kind: Noun("file"), types: [F.reminderType], app: "Files")
        #expect(Announcements.handedOff([a, b], moved: [], to: "Thunar") == "Copied 2 files to Thunar.")
        #expect(Announcements.handedOff([a, b], moved: [a, b], to: "Thunar") == "Moved 2 files to Thunar.")
        #expect(
            Announcements.handedOff([a, b], moved: [a], to: "Thunar") == "Moved 'a.txt' to Thunar; 'b.txt' stayed here."
        )
        #expect(Announcements.actionName([a, b], .move, to: "Thunar") == "Move 2 Files to Thunar")
    }

    @Test("F7, A6: a drop another app took but then refused fails, says why, and changes nothing")
    func refusedByOtherApp() throws {
        let (h, auditor) = try dragMilkOutside()
        let before = h.scene.snapshot()
        let mark = h.engineMark
        let refused = h.engine.dropRefused(by: "Mail")
        let failure = DropFailure(.failed, "'Mail' did not take 'Milk'.")
        #expect(refused == .returnToSource(failure), "the call returns how the drag ended (issue 25)")
        #expect(
            h.feedback[mark...] == [
                .outcome(.returnToSource(failure)),
                .announcement("Not dropped: 'Mail' did not take 'Milk'."),
            ])
        #expect(!h.engine.isDragging)
        #expect(h.scene.snapshot() == before)
        h.release(at: Point(x: 1_500, y: 300))
        auditor.finish(scene: h.scene, engine: h.engine)
        #expect(auditor.violations.isEmpty, "\(auditor.violations.map(\.description))")
        try h.finish()
    }

    @Test("S1: without a drag, or for another app's drag, a hand-off is ignored")
    func ignoredWithoutOwnDrag() throws {
        let h = try DragHarness(scene: F.remindersScene())
        h.engine.dropHandedOff(to: "Mail")
        h.engine.dropRefused(by: "Mail")
        #expect(h.feedback.isEmpty)

        let item = DragItem(id: "web-1", name: "Link", types: [F.reminderType], app: "Browser")
        try h.externalDragEnter([item], at: F.row(0, x: 100))
        let mark = h.engineMark
        #expect(h.engine.dropHandedOff(to: "Mail") == nil, "another app's drag is not this app's to hand off")
        #expect(h.engine.dropRefused(by: "Mail") == nil)
        #expect(h.engine.isDragging)
        #expect(h.engineFeedback(since: mark).isEmpty)
        h.externalDragExit()
        try h.finish()
    }

    @Test(
        "S2, S4: the auditor catches a copy hand-off that removed items, and a move while the person asked for a copy")
    func auditorCatchesDishonestHandOffs() throws {
        let copy = try Fabricated(AuditFixtures.reminders())
        copy.liftG0()
        copy.tick(.sourceRemoved(["g0"]), .outcome(.handedOff(app: "Thunar", operation: .copy)))
        #expect(copy.rules.contains("S2"), "\(copy.auditor.violations)")

        let asked = try Fabricated(AuditFixtures.reminders())
        asked.liftG0()
        asked.input(.modifiers(.forceCopy))
        asked.tick(.sourceRemoved(["g0"]), .outcome(.handedOff(app: "Thunar", operation: .move)))
        #expect(asked.rules.contains("S2"), "\(asked.auditor.violations)")

        let nothing = try Fabricated(AuditFixtures.reminders())
        nothing.liftG0()
        nothing.tick(.outcome(.handedOff(app: "Thunar", operation: .move)))
        #expect(nothing.rules.contains("S4"), "\(nothing.auditor.violations)")
    }

    @Test("S2: the auditor catches a hand-off of another app's drag (only this app's drags can be handed off)")
    func auditorCatchesExternalHandOff() throws {
        let f = try Fabricated(AuditFixtures.reminders())
        let item = DragItem(id: "web-1", name: "Link", types: [AuditFixtures.reminder], app: "Browser")
        let point = Point(x: 1_500, y: 300)
        f.input(
            .externalDragEnter([item], at: point), .lifted(items: ["web-1"], at: point, mode: .external),
            .preview(PreviewState(count: 1, badge: .none)))
        f.tick(.outcome(.handedOff(app: "Mail", operation: .copy)))
        #expect(f.rules == ["S2"], "\(f.auditor.violations)")
    }
}
