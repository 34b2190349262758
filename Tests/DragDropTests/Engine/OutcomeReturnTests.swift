import DragDrop
import DragDropTesting
import Testing

private typealias F = EngineFixtures

/// The call that ends a drag returns how it ended (issue 25: the outcome returned, not read from
/// a side channel): the same outcome the engine emits.
@Suite("Engine: the outcome returned by the call that ends the drag")
struct OutcomeReturnTests {
    @Test(
        "S4, F7: releasing over a list returns the completed move; over nothing, the return to the source; a click, nothing"
    )
    func releaseReturnsTheOutcome() throws {
        let h = try DragHarness(scene: F.remindersScene())
        h.engineLift(at: F.row(0, x: 100))
        h.move(to: F.row(1, x: 500))
        let moved = h.release()
        #expect(moved == .completed(destination: "work", operation: .move))
        let emitted = h.feedback.compactMap { event -> DropOutcome? in
            if case .outcome(let outcome) = event { outcome } else { nil }
        }
        #expect(emitted.last == moved, "the same outcome the engine emitted")

        h.engineLift(at: F.row(0, x: 100))
        h.move(to: Point(x: 2_000, y: 2_000))
        guard case .returnToSource = h.release() else {
            Issue.record("released over nothing: the items return")
            return
        }
        #expect(h.release(at: F.row(0, x: 100)) == nil, "no drag: nothing ended")
        try h.finish()
    }

    @Test("F7: cancelling returns how the drag ended; with no drag, nothing")
    func cancelReturnsTheOutcome() throws {
        let h = try DragHarness(scene: F.remindersScene())
        h.engineLift(at: F.row(0, x: 100))
        h.move(to: F.row(1, x: 500))
        guard case .returnToSource = h.engine.cancelDrag() else {
            Issue.record("a cancelled drag returns to its source")
            return
        }
        #expect(h.engine.cancelDrag() == nil)
        #expect(h.scene.snapshot()["work"]?.contains("milk") != true, "nothing dropped")
    }
}
