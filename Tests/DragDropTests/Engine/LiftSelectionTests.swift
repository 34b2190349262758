@_spi(Benchmarks) @testable import DragDrop
import DragDropTesting
import Testing

/// Starting a drag of a selection (M1): the items in order without duplicates, and nothing
/// left marked as dragged when the selection holds something that cannot be dragged.
@Suite("Engine: lifting a selection")
struct LiftSelectionTests {
    private static let type: ContentType = "application/x-card"

    /// A board: column `list` (accepts cards) holding cards `a`, `b`, `c`, each also a
    /// destination (a sortable card), and `label`, which cannot be dragged.
    private static func engine() throws -> DragEngine {
        let engine = DragEngine(app: "Board", clock: VirtualClock())
        var list = DragTarget(id: "list", name: "List", frame: Rect(x: 0, y: 0, width: 200, height: 400))
        list.accepts = [type]
        try engine.register(list)
        for (i, id) in ["a", "b", "c"].enumerated() {
            var card = DragTarget(
                id: TargetID(id), name: id.uppercased(), frame: Rect(x: 10, y: Double(i) * 50, width: 180, height: 40),
                parent: "list")
            card.accepts = [type]
            card.offers = [type]
            try engine.register(card)
        }
        try engine.register(
            DragTarget(id: "label", name: "Label", frame: Rect(x: 10, y: 300, width: 180, height: 40), parent: "list"))
        return engine
    }

    @Test("M1: a selection with duplicates lifts each item once, in order, from its container")
    func duplicates() throws {
        let engine = try Self.engine()
        try engine.beginDrag(items: ["c", "a", "c", "a"], at: Point(x: 100, y: 120))
        let items = try #require(engine.currentSession?.items)
        #expect(items.map(\.id) == ["c", "a"])
        #expect(items.allSatisfy { $0.sourceContainer == "list" && $0.app == "Board" && $0.types == [Self.type] })
        // The dragged cards are not destinations; the one left behind is.
        let masks = engine.registry.masks(forOffered: [[Self.type]])
        #expect(engine.registry.resolve(at: Point(x: 100, y: 20), session: masks).destination == "list")
        #expect(engine.registry.resolve(at: Point(x: 100, y: 70), session: masks).destination == "b")
    }

    @Test("M1: a selection holding something undraggable throws and leaves no item marked as dragged")
    func undraggable() throws {
        let engine = try Self.engine()
        #expect(throws: DragError.notDraggable("label")) {
            try engine.beginDrag(items: ["a", "b", "label"], at: Point(x: 100, y: 120))
        }
        #expect(!engine.isDragging)
        let masks = engine.registry.masks(forOffered: [[Self.type]])
        #expect(engine.registry.resolve(at: Point(x: 100, y: 20), session: masks).destination == "a")
        #expect(engine.registry.resolve(at: Point(x: 100, y: 70), session: masks).destination == "b")
        // And the same items lift afterwards.
        try engine.beginDrag(items: ["a", "b"], at: Point(x: 100, y: 120))
        #expect(engine.currentSession?.items.map(\.id) == ["a", "b"])
    }

    /// Takes every drop and keeps the request.
    private final class Recorder: DragEngineDelegate {
        var dropped: [DragItem] = []
        func dragEngine(_ engine: DragEngine, perform drop: DropRequest) -> DropResult {
            dropped = drop.items
            return .committed(undo: nil)
        }
    }

    @Test("M1: an item unregistered during the drag (scrolled out of a list) still drops as it was lifted")
    func unregisteredDuringDrag() throws {
        let engine = try Self.engine()
        let recorder = Recorder()
        engine.delegate = recorder
        try engine.beginDrag(items: ["a", "b"], at: Point(x: 100, y: 120))
        // "a" scrolls out of view and its slot is taken by a new row.
        try engine.unregister("a")
        var z = DragTarget(id: "z", name: "Z", frame: Rect(x: 10, y: 200, width: 180, height: 40), parent: "list")
        z.offers = [Self.type]
        try engine.register(z)
        engine.pointerMoved(to: Point(x: 100, y: 360))
        engine.pointerUp(at: Point(x: 100, y: 360))
        #expect(recorder.dropped.map(\.id) == ["a", "b"])
        #expect(recorder.dropped.map(\.name) == ["A", "B"])
        #expect(recorder.dropped.allSatisfy { $0.sourceContainer == "list" })
    }
}
