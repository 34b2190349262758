import DragDrop
import DragDropTesting
import Testing

private typealias F = EngineFixtures

/// Drags of this app's content dropped on another app (S1, S2): the platform reports the
/// other app took the drop with `dropHandedOff(to:)`.
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
        h.engine.dropHandedOff(to: "Mail")
        #expect(
            h.feedback[mark...] == [
                .outcome(.handedOff(app: "Mail")),
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
            h.feedback[mark...] == [.outcome(.handedOff(app: nil)), .announcement("Copied 'Milk' to another app.")])
        let json = TimelineEntry(time: .origin, event: .feedback(.outcome(.handedOff(app: nil)))).json.serialized
        #expect(json.contains("\"outcome\":\"handedOff\""))
        #expect(json.contains("\"app\":null"))
        #expect(json.contains("\"operation\":\"copy\""))
        #expect(DropOutcome.handedOff(app: "Mail").failure == nil)
    }

    @Test("F7, A6: a drop another app took but then refused fails, says why, and changes nothing")
    func refusedByOtherApp() throws {
        let (h, auditor) = try dragMilkOutside()
        let before = h.scene.snapshot()
        let mark = h.engineMark
        h.engine.dropRefused(by: "Mail")
        let failure = DropFailure(.failed, "'Mail' did not take 'Milk'.")
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
        h.engine.dropHandedOff(to: "Mail")
        h.engine.dropRefused(by: "Mail")
        #expect(h.engine.isDragging)
        #expect(h.engineFeedback(since: mark).isEmpty)
        h.externalDragExit()
        try h.finish()
    }

    @Test("S2: the auditor catches a hand-off of another app's drag (only this app's drags can be handed off)")
    func auditorCatchesExternalHandOff() throws {
        let f = try Fabricated(AuditFixtures.reminders())
        let item = DragItem(id: "web-1", name: "Link", types: [AuditFixtures.reminder], app: "Browser")
        let point = Point(x: 1_500, y: 300)
        f.input(
            .externalDragEnter([item], at: point), .lifted(items: ["web-1"], at: point, mode: .external),
            .preview(PreviewState(count: 1, badge: .none)))
        f.tick(.outcome(.handedOff(app: "Mail")))
        #expect(f.rules == ["S2"], "\(f.auditor.violations)")
    }
}
