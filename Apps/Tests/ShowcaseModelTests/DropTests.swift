import DragDrop
import DragDropTesting
import Foundation
import ShowcaseModel
import Testing

/// A pane's engine delegate that forwards drops to the store, as the GTK showcase will.
final class StorePane: DragEngineDelegate {
    let store: ShowcaseStore
    let app: AppID
    /// The insertion index the pane reports for every drop.
    var index: Int?
    /// Content loaded from other apps' items, inserted with the drop.
    var newItems: [NewItem] = []
    private(set) var results: [String] = []
    private(set) var removeCalls = 0

    init(store: ShowcaseStore, app: AppID) {
        self.store = store
        self.app = app
    }

    func dragEngine(_ engine: DragEngine, perform drop: DropRequest) -> DropResult {
        let result = store.perform(drop, app: app, newItems: newItems)
        switch result {
        case .committed: results.append("committed")
        case .failed(let failure): results.append("failed: \(failure.message)")
        case .deferred: results.append("deferred")
        }
        return result
    }

    func dragEngine(_ engine: DragEngine, removeMovedItems items: [DragItem], after drop: DropRequest) -> UndoableAction? {
        removeCalls += 1
        return store.removeMovedItems(items, after: drop)
    }

    func dragEngine(_ engine: DragEngine, insertionIndexIn container: TargetID, at point: Point?) -> Int? { index }
}

/// A window with the fixture's lists side by side (300 points wide, 400 apart), each item a
/// 40-point row, registered with the engine under the showcase's target ids.
@MainActor
final class DropRig {
    static let reminder: ContentType = "application/x-showcase-reminder"
    let fixture: Fixture
    let clock = VirtualClock()
    let engine: DragEngine
    let pane: StorePane
    private(set) var origins: [CollectionID: Double] = [:]

    init(fixture: Fixture, extra: [ShowcaseCollection] = []) throws {
        self.fixture = fixture
        engine = DragEngine(app: "Showcase", clock: clock)
        pane = StorePane(store: fixture.store, app: "Showcase")
        engine.delegate = pane
        try engine.register(DragTarget(id: "window", name: "Showcase", frame: Rect(x: 0, y: 0, width: 3000, height: 1000)))
        var collections = try [fixture.a, fixture.b, fixture.readOnly].map { try fixture.store.collection($0)! }
        collections += extra
        for (n, collection) in collections.enumerated() {
            let x = Double(n) * 400
            origins[collection.id!] = x
            var list = DragTarget(
                id: collection.targetID, name: collection.name, frame: Rect(x: x, y: 0, width: 300, height: 1000),
                parent: "window")
            list.accepts = [Self.reminder]
            list.insertion = .vertical
            list.operationPolicy = .preferMove
            list.kind = Noun("reminder")
            if collection.requiresConfirmation { list.confirmation = "Items dropped here cannot be taken back." }
            try engine.register(list)
            for (index, item) in try fixture.store.items(in: collection.id!).enumerated() {
                var row = DragTarget(
                    id: item.targetID, name: item.title,
                    frame: Rect(x: x, y: Double(index) * 40, width: 300, height: 40), parent: collection.targetID)
                row.offers = [Self.reminder]
                row.kind = Noun("reminder")
                try engine.register(row)
            }
        }
    }

    /// Drags `titles` to the bottom of `collection`'s list and releases there.
    func drag(_ titles: [String], to collection: CollectionID, modifiers: DragModifiers = []) throws {
        let ids = try titles.map { ShowcaseTargets.item(try fixture.id($0)) }
        let first = try #require(try fixture.store.slot(of: fixture.id(titles[0])))
        let start = Point(x: origins[first.collection]! + 10, y: Double(first.position) * 40 + 20)
        try engine.beginDrag(items: ids, at: start, modifiers: modifiers)
        let end = Point(x: origins[collection]! + 150, y: 900)
        engine.pointerMoved(to: Point(x: (start.x + end.x) / 2, y: 500), modifiers: modifiers)
        engine.pointerMoved(to: end, modifiers: modifiers)
        engine.pointerUp(at: end)
    }
}

@Suite("Showcase store drops through the engine")
@MainActor
struct DropTests {
    @Test("S4, U1: a move is one transaction in perform; removeMovedItems adds nothing; Undo Move restores exact places")
    func moveThroughEngine() throws {
        let f = try Fixture()
        let rig = try DropRig(fixture: f)
        let before = try f.snapshot()
        rig.pane.index = 1
        try rig.drag(["a1", "a3"], to: f.b)
        #expect(rig.pane.results == ["committed"])
        #expect(try f.titles(f.a) == ["a0", "a2", "a4"])
        #expect(try f.titles(f.b) == ["b0", "a1", "a3", "b1", "b2"])
        // The engine still asked the source to let go (S4's second step): it had nothing to do.
        #expect(rig.pane.removeCalls == 1)
        #expect(rig.engine.undoStack.undoMenuItemTitle == "Undo Move 2 Reminders")
        let after = try f.snapshot()

        rig.engine.undo()
        #expect(try f.snapshot() == before)
        #expect(rig.engine.undoStack.redoMenuItemTitle == "Redo Move 2 Reminders")
        rig.engine.redo()
        #expect(try f.snapshot() == after)
        #expect(try f.store.integrityProblems().isEmpty)
    }

    @Test("S2, U1: a forced copy leaves the source and is undone by deleting the copies")
    func copyThroughEngine() throws {
        let f = try Fixture()
        let rig = try DropRig(fixture: f)
        let before = try f.snapshot()
        rig.pane.index = 0
        try rig.drag(["a0"], to: f.b, modifiers: .forceCopy)
        #expect(rig.pane.results == ["committed"])
        #expect(try f.titles(f.a) == ["a0", "a1", "a2", "a3", "a4"])
        #expect(try f.titles(f.b) == ["a0", "b0", "b1", "b2"])
        #expect(rig.pane.removeCalls == 0)
        #expect(rig.engine.undoStack.undoMenuItemTitle == "Undo Copy Reminder")
        rig.engine.undo()
        #expect(try f.snapshot() == before)
    }

    @Test("S4, A6, F7: a drop the store refuses fails, says why, changes nothing and adds no undo step")
    func refusedDrop() throws {
        let f = try Fixture()
        let rig = try DropRig(fixture: f)
        let before = try f.snapshot()
        try rig.drag(["a0", "a1"], to: f.readOnly)
        #expect(rig.pane.results == ["failed: Read Only is read-only."])
        #expect(rig.pane.removeCalls == 0)
        #expect(try f.snapshot() == before)
        #expect(!rig.engine.undoStack.canUndo)
    }

    @Test("U2: a drop into a write-only collection waits for confirmation, then commits with no undo")
    func writeOnly() throws {
        let f = try Fixture()
        let dropBox = try f.store.createCollection(
            ShowcaseCollection(pane: .files, key: "drop", name: "Drop Box", kind: .folder, flags: .writeOnly))
        let rig = try DropRig(fixture: f, extra: [dropBox])
        try rig.drag(["b2"], to: dropBox.id!)
        #expect(rig.pane.results.isEmpty)  // waiting for the user's answer
        #expect(try f.titles(f.b) == ["b0", "b1", "b2"])
        rig.engine.confirmDrop(true)
        #expect(rig.pane.results == ["committed"])
        #expect(try f.titles(f.b) == ["b0", "b1"])
        #expect(try f.titles(dropBox.id!) == ["b2"])
        #expect(!rig.engine.undoStack.canUndo)
    }

    @Test("U3: a move into a shared album can be taken back with Stop Sharing, source included")
    func sharedStopSharing() throws {
        let f = try Fixture()
        let stream = try f.store.createCollection(
            ShowcaseCollection(pane: .photos, key: "stream", name: "Family Stream", kind: .album, flags: .shared))
        let rig = try DropRig(fixture: f, extra: [stream])
        let before = try f.snapshot()
        try rig.drag(["a2", "a0"], to: stream.id!)
        #expect(try f.titles(stream.id!) == ["a2", "a0"])
        #expect(!rig.engine.undoStack.canUndo)
        #expect(rig.engine.availableCancellation?.title == "Stop Sharing")
        #expect(rig.engine.useCancellation())
        #expect(try f.snapshot() == before)
        #expect(try f.titles(stream.id!).isEmpty)
    }

    @Test("S2, U1: content from another app is inserted at the index with the drop, and undone")
    func externalContent() throws {
        let f = try Fixture()
        let rig = try DropRig(fixture: f)
        let before = try f.snapshot()
        rig.pane.index = 2
        rig.pane.newItems = [NewItem(title: "Call Ana", kind: .reminder)]
        let item = DragItem(id: "browser-1", name: "Call Ana", kind: Noun("reminder"), types: [DropRig.reminder], app: "Browser")
        try rig.engine.beginExternalDrag(items: [item], at: Point(x: 550, y: 900))
        rig.engine.pointerMoved(to: Point(x: 560, y: 900))
        rig.engine.pointerUp(at: Point(x: 560, y: 900))
        #expect(rig.pane.results == ["committed"])
        #expect(try f.titles(f.b) == ["b0", "b1", "Call Ana", "b2"])
        rig.engine.undo()
        #expect(try f.snapshot() == before)
    }
}
