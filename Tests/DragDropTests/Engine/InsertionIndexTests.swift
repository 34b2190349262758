import DragDrop
import DragDropTesting
import Testing

/// The engine computes where a drop lands among a container's registered children (F8), so an
/// app whose rows and tiles are registered implements no insertion method: rows make room
/// (``FeedbackEvent/insertion(_:index:)``), the drop carries the index, and a keyboard drop
/// lands at the end. A delegate that implements the method (a model-backed list) still decides.
@Suite("Engine: insertion indexes from registered children")
struct InsertionIndexTests {
    private static let cardType: ContentType = "application/x-card"

    /// An app that implements only what it must: no insertion index. Records the feedback and
    /// the drop; `ownIndex`, when set, is what it answers for the insertion index instead.
    private final class App: DragEngineDelegate {
        var events: [FeedbackEvent] = []
        var dropped: DropRequest?
        var ownIndex: ((TargetID, Point?) -> Int?)?

        func dragEngine(_ engine: DragEngine, perform drop: DropRequest) -> DropResult {
            dropped = drop
            return .committed(undo: nil)
        }

        func dragEngine(_ engine: DragEngine, emitted event: FeedbackEvent) { events.append(event) }

        /// The insertion events since `mark`, as (container, index).
        func insertions(since mark: Int = 0) -> [String] {
            events[mark...].compactMap { event in
                guard case .insertion(let container, let index) = event else { return nil }
                return "\(container) \(index.map(String.init) ?? "nil")"
            }
        }
    }

    /// A delegate that supplies its own insertion index (a model-backed list).
    private final class ModelApp: DragEngineDelegate {
        let index: Int
        var asked: [(TargetID, Point?)] = []
        var dropped: DropRequest?
        init(index: Int) { self.index = index }
        func dragEngine(_ engine: DragEngine, insertionIndexIn container: TargetID, at point: Point?) -> Int? {
            asked.append((container, point))
            return index
        }
        func dragEngine(_ engine: DragEngine, perform drop: DropRequest) -> DropResult {
            dropped = drop
            return .committed(undo: nil)
        }
    }

    /// A window (0..<1000 × 0..<600) with a draggable `card` at its top right (x 900..<1000,
    /// y 0..<40), which every container here takes.
    private static func engine() throws -> (DragEngine, App) {
        let engine = DragEngine(app: "Cards", clock: VirtualClock())
        let app = App()
        engine.delegate = app
        try engine.register(DragTarget(id: "window", name: "Cards", frame: Rect(x: 0, y: 0, width: 1000, height: 600)))
        var card = DragTarget(
            id: "card", name: "Card", frame: Rect(x: 900, y: 0, width: 100, height: 40), parent: "window")
        card.offers = [cardType]
        try engine.register(card)
        return (engine, app)
    }

    private static func container(
        _ id: TargetID, _ frame: Rect, layout: InsertionLayout?, parent: TargetID = "window", clips: Bool = false
    ) -> DragTarget {
        var t = DragTarget(id: id, name: id.rawValue, frame: frame, parent: parent)
        t.accepts = [cardType]
        t.insertion = layout
        t.clipsChildren = clips
        return t
    }

    private static func item(_ id: TargetID, _ frame: Rect, in parent: TargetID, hidden: Bool = false) -> DragTarget {
        var t = DragTarget(id: id, name: id.rawValue, frame: frame, parent: parent)
        t.offers = [cardType]
        t.isHidden = hidden
        return t
    }

    /// Registers rows `r0`… of height 40 from y = `top` in `list` (x 0..<300), in the order
    /// `order` (not list order: the registry keeps no order, the frames say it).
    private static func registerRows(
        _ engine: DragEngine, in list: TargetID, count: Int, top: Double = 0, order: [Int]? = nil
    ) throws {
        for i in order ?? Array(0..<count) {
            try engine.register(
                item(TargetID("\(list)-r\(i)"), Rect(x: 0, y: top + Double(i) * 40, width: 300, height: 40), in: list))
        }
    }

    @Test(
        "F8: in a vertical list the engine's index changes as the pointer crosses row midpoints, registered in any order"
    )
    func verticalList() throws {
        let (engine, app) = try Self.engine()
        // Exactly at the midpoints: no hysteresis (DestinationFeedbackTests has the band).
        engine.configuration.insertionHysteresis = 0
        try engine.register(Self.container("list", Rect(x: 0, y: 0, width: 300, height: 600), layout: .vertical))
        try Self.registerRows(engine, in: "list", count: 5, order: [3, 0, 4, 1, 2])
        try engine.beginDrag(items: ["card"], at: Point(x: 950, y: 20))
        let steps: [(y: Double, index: Int?)] = [
            (10, 0), (19.9, nil), (20, 1), (59.9, nil), (60, 2), (140, 4), (179.9, nil), (180, 5), (590, nil),
            (100, 3),
        ]
        for step in steps {
            let mark = app.events.count
            engine.pointerMoved(to: Point(x: 100, y: step.y))
            #expect(app.insertions(since: mark) == step.index.map { ["list \($0)"] } ?? [], "at y = \(step.y)")
            #expect(
                engine.insertionIndex(in: "list", at: Point(x: 100, y: step.y)) == engine.currentSession?.insertionIndex
            )
        }
        engine.pointerUp(at: Point(x: 100, y: 100))
        #expect(app.dropped?.destination == "list")
        #expect(app.dropped?.index == 3)
        // The same index InsertionIndex finds among the frames in list order.
        let frames = (0..<5).map { Rect(x: 0, y: Double($0) * 40, width: 300, height: 40) }
        for y in stride(from: 0.0, through: 240, by: 7.5) {
            #expect(
                engine.insertionIndex(in: "list", at: Point(x: 100, y: y))
                    == InsertionIndex.compute(layout: .vertical, frames: frames, point: Point(x: 100, y: y)))
        }
    }

    @Test("F8: in a grid the engine's index follows reading order: rows first, then midpoints along the row")
    func grid() throws {
        let (engine, app) = try Self.engine()
        try engine.register(Self.container("grid", Rect(x: 0, y: 0, width: 300, height: 600), layout: .grid))
        // Three columns of 100 × 100, seven tiles: rows 0..<100 (t0-t2), 100..<200 (t3-t5), 200..<300 (t6).
        for i in [6, 2, 0, 5, 1, 3, 4] {
            let frame = Rect(x: Double(i % 3) * 100, y: Double(i / 3) * 100, width: 100, height: 100)
            try engine.register(Self.item(TargetID("t\(i)"), frame, in: "grid"))
        }
        let cases: [(Point, Int)] = [
            (Point(x: 10, y: 50), 0), (Point(x: 60, y: 50), 1), (Point(x: 290, y: 10), 3),
            (Point(x: 40, y: 150), 3), (Point(x: 160, y: 199), 5), (Point(x: 40, y: 250), 6),
            (Point(x: 60, y: 250), 7), (Point(x: 250, y: 250), 7), (Point(x: 10, y: 400), 7),
        ]
        for (point, index) in cases {
            #expect(engine.insertionIndex(in: "grid", at: point) == index, "at \(point)")
        }
        try engine.beginDrag(items: ["card"], at: Point(x: 950, y: 20))
        engine.pointerMoved(to: Point(x: 160, y: 150))
        #expect(app.insertions() == ["grid 5"])
        engine.pointerMoved(to: Point(x: 140, y: 150))
        #expect(app.insertions() == ["grid 5", "grid 4"])
        engine.pointerUp(at: Point(x: 140, y: 150))
        #expect(app.dropped?.index == 4)
    }

    @Test("F8: hidden children take no place; children clipped out of view (scrolled above) still count")
    func hiddenAndClipped() throws {
        let (engine, app) = try Self.engine()
        // A scroll view 100 high whose content is scrolled by 120: rows 0-2 lie above it.
        try engine.register(
            Self.container("list", Rect(x: 0, y: 200, width: 300, height: 100), layout: .vertical, clips: true))
        try Self.registerRows(engine, in: "list", count: 8, top: 80)  // rows at 80, 120, …, 360
        try engine.setHidden(true, for: "list-r4")  // at 240..<280, filtered out of view
        try engine.beginDrag(items: ["card"], at: Point(x: 950, y: 20))
        // At y 230: rows 0-2 (above the viewport, clipped) and row 3 (midpoint 220) are before it.
        engine.pointerMoved(to: Point(x: 100, y: 230))
        #expect(engine.currentSession?.destination == "list")
        #expect(app.insertions() == ["list 4"])
        // Past the hidden row's midpoint (260): it does not count, so no change.
        engine.pointerMoved(to: Point(x: 100, y: 270))
        #expect(app.insertions() == ["list 4"])
        // Shown again, it counts again.
        try engine.setHidden(false, for: "list-r4")
        engine.pointerMoved(to: Point(x: 100, y: 271))
        #expect(app.insertions() == ["list 4", "list 5"])
        engine.pointerUp(at: Point(x: 100, y: 271))
        #expect(app.dropped?.index == 5)
        // A keyboard drop (no point) lands after every shown child: 8 rows, one hidden.
        try engine.setHidden(true, for: "list-r4")
        #expect(engine.insertionIndex(in: "list", at: nil) == 7)
        #expect(engine.insertionIndex(in: "list", at: Point(x: 100, y: 1000)) == 7)
    }

    @Test("F8: an empty container's index is 0, for the pointer and for a keyboard drop")
    func emptyContainer() throws {
        let (engine, app) = try Self.engine()
        try engine.register(Self.container("empty", Rect(x: 0, y: 0, width: 300, height: 600), layout: .vertical))
        #expect(engine.insertionIndex(in: "empty", at: Point(x: 100, y: 300)) == 0)
        #expect(engine.insertionIndex(in: "empty", at: nil) == 0)
        try engine.beginKeyboardDrag(items: ["card"])
        #expect(engine.keyboardDropPoints.map(\.target) == ["empty"])
        #expect(engine.keyDown(.nextDropPoint) == .handled)
        #expect(app.insertions() == ["empty 0"])
        #expect(engine.keyDown(.drop) == .ended(.completed(destination: "empty", operation: .copy)))
        #expect(app.dropped?.destination == "empty")
        #expect(app.dropped?.index == 0)
    }

    @Test("F8, C4: a keyboard drop lands after the container's shown children")
    func keyboardDropAtEnd() throws {
        let (engine, app) = try Self.engine()
        try engine.register(Self.container("list", Rect(x: 0, y: 0, width: 300, height: 600), layout: .vertical))
        try Self.registerRows(engine, in: "list", count: 4)
        try engine.beginKeyboardDrag(items: ["card"])
        #expect(engine.keyDown(.nextDropPoint) == .handled)
        #expect(app.insertions() == ["list 4"])
        #expect(engine.keyDown(.drop).outcome == .completed(destination: "list", operation: .copy))
        #expect(app.dropped?.index == 4)
    }

    @Test("F8, F5: nested containers: only a container's own children count, the inner list is one item of the outer")
    func nested() throws {
        let (engine, app) = try Self.engine()
        try engine.register(Self.container("outer", Rect(x: 0, y: 0, width: 300, height: 600), layout: .vertical))
        try engine.register(Self.item("o0", Rect(x: 0, y: 0, width: 300, height: 40), in: "outer"))
        // The second item of the outer list is itself a list of three rows (y 40..<160).
        var inner = Self.container(
            "inner", Rect(x: 0, y: 40, width: 300, height: 120), layout: .vertical, parent: "outer")
        inner.offers = [Self.cardType]
        try engine.register(inner)
        try Self.registerRows(engine, in: "inner", count: 3, top: 40)
        try engine.register(Self.item("o2", Rect(x: 0, y: 160, width: 300, height: 40), in: "outer"))
        // The outer index counts o0, inner and o2 only, never the inner rows.
        #expect(engine.insertionIndex(in: "outer", at: Point(x: 100, y: 150)) == 2)
        #expect(engine.insertionIndex(in: "outer", at: Point(x: 100, y: 190)) == 3)
        #expect(engine.insertionIndex(in: "outer", at: nil) == 3)
        #expect(engine.insertionIndex(in: "inner", at: Point(x: 100, y: 105)) == 2)
        #expect(engine.insertionIndex(in: "inner", at: nil) == 3)
        try engine.beginDrag(items: ["card"], at: Point(x: 950, y: 20))
        engine.pointerMoved(to: Point(x: 100, y: 105))  // over the inner list: the innermost destination (F5)
        #expect(engine.currentSession?.destination == "inner")
        engine.pointerMoved(to: Point(x: 100, y: 190))  // below it, back in the outer list
        #expect(app.insertions() == ["inner 2", "inner nil", "outer 3"])
        engine.pointerUp(at: Point(x: 100, y: 190))
        #expect(app.dropped?.destination == "outer")
        #expect(app.dropped?.index == 3)
    }

    @Test("F8: no index for a container without an insertion layout or not registered")
    func noLayout() throws {
        let (engine, app) = try Self.engine()
        try engine.register(Self.container("pile", Rect(x: 0, y: 0, width: 300, height: 600), layout: nil))
        try Self.registerRows(engine, in: "pile", count: 3)
        #expect(engine.insertionIndex(in: "pile", at: Point(x: 100, y: 100)) == nil)
        #expect(engine.insertionIndex(in: "nowhere", at: nil) == nil)
        try engine.beginDrag(items: ["card"], at: Point(x: 950, y: 20))
        engine.pointerMoved(to: Point(x: 100, y: 590))
        #expect(engine.currentSession?.destination == "pile")
        #expect(app.insertions().isEmpty)
        engine.pointerUp(at: Point(x: 100, y: 590))
        #expect(app.dropped?.index == nil)
    }

    @Test("F8: a delegate that computes its own index (a model-backed list) decides, for the pointer and the drop")
    func delegateDecides() throws {
        let (engine, _) = try Self.engine()
        let model = ModelApp(index: 5000)
        engine.delegate = model
        var list = Self.container("files", Rect(x: 0, y: 0, width: 300, height: 600), layout: .vertical)
        list.modelItems = ModelItems(offers: [Self.cardType])
        try engine.register(list)
        try Self.registerRows(engine, in: "files", count: 3)
        try engine.beginDrag(items: ["card"], at: Point(x: 950, y: 20))
        engine.pointerMoved(to: Point(x: 100, y: 50))
        #expect(model.asked.last?.0 == "files")
        #expect(model.asked.last?.1 == Point(x: 100, y: 50))
        #expect(engine.currentSession?.insertionIndex == 5000)
        engine.pointerUp(at: Point(x: 100, y: 50))
        #expect(model.dropped?.index == 5000)
    }
}
