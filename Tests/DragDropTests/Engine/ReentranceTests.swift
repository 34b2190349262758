import DragDrop
import DragDropTesting
import Testing

private typealias F = EngineFixtures

/// A host told of a feedback event may call the engine back inside that call, as the GTK host
/// does (a window closing under a highlight ends the drag; a key read while drawing changes the
/// modifiers). What it did must stand: the engine never goes on with the state it had before.
@Suite("Engine: a host calling back while told of feedback")
struct ReentranceTests {
    @Test(
        "F4, F7: a host that cancels the drag when told a list lights up leaves no drag behind: nothing more is proposed, shown or said for it"
    )
    func cancelWhileToldOfAHighlight() throws {
        let h = try DragHarness(scene: F.remindersScene())
        h.engineLift(at: F.row(0, x: 100))
        var cancelled = false
        h.onFeedback = { event in
            if case .highlight("work", on: true) = event, !cancelled {
                cancelled = true
                h.engine.cancelDrag()
            }
        }
        let mark = h.engineMark
        h.move(to: F.row(1, x: 500))
        #expect(cancelled)
        #expect(!h.engine.isDragging, "the drag the host cancelled stays cancelled")
        #expect(h.engine.currentSession == nil)
        let after = h.feedback[mark...].drop { event in
            if case .highlight("work", on: true) = event { false } else { true }
        }
        #expect(!after.contains { if case .proposal(destination: "work", _) = $0 { true } else { false } }, "\(after)")
        #expect(!h.engineAnnouncements(since: mark).contains("Over Work, will move."))
        h.release()
        #expect(h.scene.snapshot()["groceries"]?.first == "milk", "nothing dropped")
        try h.finish()
    }

    @Test(
        "S2, F3: a host that reads Ctrl held when told of a move proposal makes it a copy: the last proposal, the badge, the sentence and the drop all say copy"
    )
    func modifiersChangedWhileToldOfAProposal() throws {
        let h = try DragHarness(scene: F.remindersScene())
        h.engineLift(at: F.row(0, x: 100))
        var pressed = false
        h.onFeedback = { event in
            if case .proposal(destination: "work", operation: .move) = event, !pressed {
                pressed = true
                h.engine.modifiersChanged(.forceCopy)
            }
        }
        let mark = h.engineMark
        h.move(to: F.row(1, x: 500))
        #expect(pressed)
        #expect(h.engine.currentSession?.operation == .copy)
        #expect(h.engine.currentSession?.destination == "work")
        let proposals = h.feedback[mark...].compactMap { event -> DropOperation? in
            if case .proposal(destination: "work", let operation) = event { operation } else { nil }
        }
        #expect(proposals.last == .copy, "\(proposals)")
        #expect(h.enginePreviews(since: mark).last?.badge == DropOperation.copy.badge)
        let said = h.engineAnnouncements(since: mark)
        #expect(said.last == "Over Work, will copy.", "\(said)")
        #expect(!said.contains("Over Work, will move."), "\(said)")
        h.onFeedback = nil
        let drop = h.engineMark
        h.release()
        #expect(
            h.feedback[drop...].contains {
                if case .committed(destination: "work", items: ["milk"], operation: .copy, index: _) = $0 {
                    true
                } else {
                    false
                }
            })
        #expect(h.scene.snapshot()["groceries"]?.first == "milk", "a copy leaves the source as it was")
        try h.finish()
    }
}
