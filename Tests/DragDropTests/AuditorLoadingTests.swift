import DragDrop
import DragDropTesting
import Testing

/// The auditor checks the rules of undo, redo and loading drops (docs/scenarios.md, "Undo, redo
/// and loading drops") without false alarms, and catches an engine that breaks them.
@Suite("Auditor: undo, redo and loading drops")
struct AuditorLoadingTests {
    static func audited() throws -> (DragHarness, TimelineAuditor) {
        let h = try DragHarness(scene: LoadingUndoTests.scene())
        let auditor = TimelineAuditor()
        h.observers.append(auditor)
        return (h, auditor)
    }

    @Test("U1, A4, F7, S4: loads arriving, failing and cancelled around undo, redo and other drags audit clean")
    func noFalseAlarms() throws {
        let (h, a) = try Self.audited()
        LoadingUndoTests.drag(h, row: 0, fromX: 400, toX: 100)  // s1 to Fast
        LoadingUndoTests.drag(h, row: 0, fromX: 100, toX: 400)  // f1 to Slow: loading
        h.undo()  // undoes s1's move while f1 loads
        h.press(at: Point(x: 100, y: 20))  // f2 lifts; f1 arrives during the drag
        h.move(to: Point(x: 106, y: 20))
        h.advance(by: .seconds(1))
        h.key(.cancel)  // the arrival is not the cancelled drag's change
        LoadingUndoTests.drag(h, row: 0, fromX: 100, toX: 400)  // f2 to Slow: loading
        h.cancelLoad(DropToken(rawValue: 3))
        h.undo()  // the arrival of f1
        h.redo()
        try h.finish()
        a.finish(scene: h.scene, engine: h.engine)
        #expect(a.violations.isEmpty, "\(a.violations)")
        #expect(h.feedback.contains(.undid("Move Card")))
    }

    @Test("U1: an undo run during a drag is caught")
    func undoDuringDrag() throws {
        let (h, a) = try Self.audited()
        LoadingUndoTests.drag(h, row: 0, fromX: 400, toX: 100)
        h.press(at: Point(x: 400, y: 20))
        h.move(to: Point(x: 406, y: 20))
        // An engine that undid during the drag (this one refuses: the stack is driven directly).
        h.observers.removeAll()
        h.engine.undoStack.undo()
        a.observe(TimelineEntry(time: h.clock.now, event: .input(.undo)), scene: h.scene, engine: h.engine)
        a.observe(
            TimelineEntry(time: h.clock.now, event: .feedback(.undid("Move Card"))), scene: h.scene, engine: h.engine)
        #expect(
            a.violations.contains { $0.rule == "U1" && $0.message.contains("ran during the pointer drag of 's2'") },
            "\(a.violations)")
    }

    @Test("A4: an undo that takes away the placeholders of a drop still loading is caught")
    func undoTouchingALoad() throws {
        let (h, a) = try Self.audited()
        LoadingUndoTests.drag(h, row: 0, fromX: 400, toX: 100)  // s1 to Fast
        LoadingUndoTests.drag(h, row: 0, fromX: 100, toX: 400)  // f1 to Slow: loading
        h.observers.removeAll()
        // An app whose undo wiped the loading drop's placeholders.
        h.engine.undo()
        h.scene.cancelDeferred(DropToken(rawValue: 2))
        a.observe(TimelineEntry(time: h.clock.now, event: .input(.undo)), scene: h.scene, engine: h.engine)
        a.observe(
            TimelineEntry(time: h.clock.now, event: .feedback(.undid("Move Card"))), scene: h.scene, engine: h.engine)
        #expect(Set(a.violations.map(\.rule)) == ["A4"], "\(a.violations)")
        #expect(a.violations.first?.message.contains("drop#2, which is still loading") == true)
    }
}
