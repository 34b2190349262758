import DragDrop
import DragDropTesting
import Testing

/// Undo, redo and drops still loading (issue 10; docs/scenarios.md, "Undo, redo and loading
/// drops"): undo never touches a drop that has not arrived, an arrival is its own undo step,
/// a load can be cancelled, and nothing is undone during a drag.
@Suite("Undo, redo and loading drops")
struct LoadingUndoTests {
    /// Two lists of cards: `fast` takes drops at once, `slow` loads them in one second.
    static func scene() throws -> Scene {
        var window = SceneNode(id: "w", name: "Board", role: .group, frame: Rect(x: 0, y: 0, width: 600, height: 400))
        for (i, id) in ["fast", "slow"].enumerated() {
            var list = SceneNode(
                id: TargetID(id), name: id == "fast" ? "Fast" : "Slow", role: .container,
                frame: Rect(x: Double(i) * 300, y: 0, width: 280, height: 400))
            list.accepts = [.plainText]
            list.layout = .vertical
            list.policy = .preferMove
            if id == "slow" { list.transfer = SimulatedTransfer(duration: .seconds(1), steps: 2) }
            for n in 1...2 {
                var card = SceneNode(id: TargetID("\(id.prefix(1))\(n)"), name: "Card \(id.prefix(1))\(n)", role: .item)
                card.offers = [.plainText]
                card.kind = Noun("card")
                list.children.append(card)
            }
            window.children.append(list)
        }
        return try Scene([window])
    }

    /// Drags the card in `row` of the list at `fromX` to the end of the list at `toX`.
    static func drag(_ h: DragHarness, row: Int, fromX: Double, toX: Double) {
        h.press(at: Point(x: fromX, y: Double(row) * 40 + 20))
        h.move(to: Point(x: fromX + 6, y: Double(row) * 40 + 20))
        h.move(to: Point(x: toX, y: 300), steps: 3)
        h.release()
    }

    static func auditedHarness() throws -> (DragHarness, TimelineAuditor, SessionOracle) {
        let h = try DragHarness(scene: scene())
        let auditor = TimelineAuditor()
        let oracle = SessionOracle(scene: h.scene)
        h.observers += [auditor, oracle]
        return (h, auditor, oracle)
    }

    static func expectClean(_ h: DragHarness, _ auditor: TimelineAuditor, _ oracle: SessionOracle) {
        auditor.finish(scene: h.scene, engine: h.engine)
        oracle.finish(harness: h)
        #expect(auditor.violations.isEmpty, "\(auditor.violations)")
        #expect(oracle.failures.isEmpty, "\(oracle.failures)")
    }

    @Test(
        "U1, A4: undo while a drop loads undoes the step before it and leaves the placeholder loading; the arrival is its own step, named after the drop"
    )
    func undoWhileLoading() throws {
        let (h, auditor, oracle) = try Self.auditedHarness()
        Self.drag(h, row: 0, fromX: 400, toX: 100)  // s1 to Fast: at once
        #expect(h.scene.snapshot()["fast"] == ["f1", "f2", "s1"])
        Self.drag(h, row: 0, fromX: 100, toX: 400)  // f1 to Slow: loading
        #expect(h.scene.snapshot()["slow"] == ["s2", "placeholder-2-1"])
        #expect(h.engine.undoStack.undoActionName == "Move Card")
        h.undo()
        // The move of s1 is undone; f1's drop keeps loading where it was.
        #expect(h.feedback.last { if case .undid = $0 { true } else { false } } == .undid("Move Card"))
        #expect(h.scene.snapshot()["fast"] == ["f1", "f2"])
        #expect(h.scene.snapshot()["slow"] == ["s1", "s2", "placeholder-2-1"])
        #expect(h.engine.pendingDeferredDrops == [DropToken(rawValue: 2)])
        #expect(h.engine.canRedo)
        h.advance(by: .seconds(1))
        // The arrival: its own step, on top; redo has nothing left (a new step).
        #expect(h.scene.snapshot()["slow"] == ["s1", "s2", "f1"])
        #expect(h.scene.snapshot()["fast"] == ["f2"])
        #expect(h.engine.undoStack.undoActionName == "Move Card")
        #expect(h.engine.undoStack.undoCount == 1)
        #expect(!h.engine.canRedo)
        h.undo()
        #expect(h.scene.snapshot()["slow"] == ["s1", "s2"])
        #expect(h.scene.snapshot()["fast"] == ["f1", "f2"])
        h.redo()
        #expect(h.scene.snapshot()["slow"] == ["s1", "s2", "f1"])
        try h.finish()
        Self.expectClean(h, auditor, oracle)
    }

    @Test("U1: undo and redo wait for the drag to end, including a drop waiting for confirmation, and say so")
    func noUndoDuringDrag() throws {
        let (h, auditor, oracle) = try Self.auditedHarness()
        Self.drag(h, row: 0, fromX: 400, toX: 100)
        h.press(at: Point(x: 100, y: 20))
        h.move(to: Point(x: 106, y: 20))
        #expect(!h.engine.canUndo)
        h.undo()
        h.redo()
        #expect(!h.feedback.contains { if case .undid = $0 { true } else { false } })
        #expect(h.feedback.contains(.announcement("Finish or cancel the drag before undoing.")))
        #expect(h.scene.snapshot()["fast"] == ["f1", "f2", "s1"])
        h.key(.cancel)
        #expect(h.engine.canUndo)
        h.undo()
        #expect(h.scene.snapshot()["fast"] == ["f1", "f2"])
        try h.finish()
        Self.expectClean(h, auditor, oracle)
    }

    @Test("A4, A6: cancelling a load removes its placeholders, says so, keeps the source and adds no undo step")
    func cancelLoad() throws {
        let (h, auditor, oracle) = try Self.auditedHarness()
        Self.drag(h, row: 1, fromX: 100, toX: 400)  // f2 to Slow
        let token = DropToken(rawValue: 1)
        #expect(h.scene.snapshot()["slow"] == ["s1", "s2", "placeholder-1-1"])
        h.cancelLoad(token)
        #expect(
            h.feedback.contains(
                .placeholderFailed(token, DropFailure(.cancelled, "Adding 'Card f2' to Slow was cancelled."))))
        #expect(h.feedback.contains(.announcement("Stopped adding 'Card f2' to Slow.")))
        #expect(h.scene.snapshot()["slow"] == ["s1", "s2"])
        #expect(h.scene.snapshot()["fast"] == ["f1", "f2"])
        #expect(h.engine.pendingDeferredDrops.isEmpty)
        #expect(!h.engine.canUndo)
        // The data arriving later changes nothing; cancelling again does nothing.
        h.engine.completeDeferredDrop(token, with: .committed(undo: nil))
        #expect(!h.engine.cancelDeferredDrop(token))
        h.advance(by: .seconds(2))
        #expect(h.scene.snapshot()["slow"] == ["s1", "s2"])
        try h.finish()
        Self.expectClean(h, auditor, oracle)
    }

    @Test(
        "A4, F7, S4: a load arriving during another drag lands at once; cancelling that drag takes back nothing the load did"
    )
    func arrivalDuringDrag() throws {
        let (h, auditor, oracle) = try Self.auditedHarness()
        Self.drag(h, row: 0, fromX: 100, toX: 400)  // f1 to Slow, loading
        h.press(at: Point(x: 100, y: 20))  // f2, now first in Fast
        h.move(to: Point(x: 106, y: 20))
        h.advance(by: .seconds(1))
        #expect(h.scene.snapshot()["slow"] == ["s1", "s2", "f1"])
        #expect(h.engine.isDragging)
        h.key(.cancel)
        #expect(h.scene.snapshot()["fast"] == ["f2"])
        #expect(h.scene.snapshot()["slow"] == ["s1", "s2", "f1"])
        h.undo()
        #expect(h.scene.snapshot()["fast"] == ["f1", "f2"])
        try h.finish()
        Self.expectClean(h, auditor, oracle)
    }

    @Test("S4, A4: two slow moves inside one list each land where their placeholder is and lose nothing")
    func twoSlowMovesInOneList() throws {
        let (h, auditor, oracle) = try Self.auditedHarness()
        // s1 to the end of Slow, then s2 (now first) to the end as well, both loading.
        Self.drag(h, row: 0, fromX: 400, toX: 400)
        Self.drag(h, row: 1, fromX: 400, toX: 400)
        h.advance(by: .seconds(2))
        #expect(h.scene.snapshot()["slow"]?.sorted() == ["s1", "s2"])
        h.undo()
        h.undo()
        #expect(h.scene.snapshot()["slow"] == ["s1", "s2"])
        try h.finish()
        Self.expectClean(h, auditor, oracle)
    }

    @Test("S4: a move inside another app's list takes the original out (it was left in two places)")
    func moveInsideAnotherAppsList() throws {
        var scene = try Self.scene().roots
        scene[0].children[0].app = "Notebook"
        let h = try DragHarness(scene: Scene(scene))
        let oracle = SessionOracle(scene: h.scene)
        h.observers.append(oracle)
        h.press(at: Point(x: 100, y: 20))
        h.move(to: Point(x: 106, y: 20))
        h.move(to: Point(x: 100, y: 300), steps: 3)
        h.release()
        #expect(h.feedback.contains(.sourceRemoved(["f1"])))
        #expect(h.scene.snapshot()["fast"] == ["f2", "f1"])
        try h.finish()
        oracle.finish(harness: h)
        #expect(oracle.failures.isEmpty, "\(oracle.failures)")
    }

    @Test("C4, F4: a tap adding a photo to a keyboard drag of cards takes away the drop points that refuse photos")
    func keyboardPointsFollowAddedItems() throws {
        var roots = try Self.scene().roots
        var photo = SceneNode(id: "photo", name: "Photo", role: .item)
        photo.offers = [.png]
        roots[0].children[1].children.append(photo)  // in Slow, which takes only text
        roots[0].children[0].accepts = [.plainText, .png]  // Fast takes photos too
        let h = try DragHarness(scene: Scene(roots))
        try h.pickUp(["s1"])
        #expect(h.engine.keyboardDropPoints.map(\.target) == ["fast", "slow"])
        h.key(.nextDropPoint)
        h.key(.nextDropPoint)
        #expect(h.engine.currentSession?.destination == "slow")
        h.tap(at: Point(x: 400, y: 100))  // the photo, third in Slow
        #expect(h.engine.currentSession?.items.map(\.id) == ["s1", "photo"])
        #expect(h.engine.keyboardDropPoints.map(\.target) == ["fast"])
        // Slow refuses the photo: no longer proposed, highlighted or focused.
        #expect(h.engine.currentSession?.destination == nil)
        #expect(h.engine.currentSession?.highlighted == nil)
        h.key(.nextDropPoint)
        #expect(h.engine.currentSession?.destination == "fast")
        h.key(.drop)
        try h.finish()
    }
}
