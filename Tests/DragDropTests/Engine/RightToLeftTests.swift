import DragDrop
import DragDropTesting
import Testing

/// Right-to-left layouts mirror (L3): a horizontal list's first item is on the right, a grid
/// fills each row from the right, and keyboard drop points are read right to left; nothing
/// changes in a left-to-right layout (the default).
@Suite("Engine: right-to-left layouts mirror")
struct RightToLeftTests {
    private static let cardType: ContentType = "application/x-card"

    private final class App: DragEngineDelegate {
        var dropped: DropRequest?
        func dragEngine(_ engine: DragEngine, perform drop: DropRequest) -> DropResult {
            dropped = drop
            return .committed(undo: nil)
        }
    }

    /// A window 0..<1000 × 0..<600 (direction `window`, nil: the engine's) with a draggable card
    /// at x 900..<1000, y 500..<540.
    private static func engine(window: LayoutDirection? = nil) throws -> (DragEngine, App) {
        let engine = DragEngine(app: "Cards", clock: VirtualClock())
        let app = App()
        engine.delegate = app
        var root = DragTarget(id: "window", name: "Cards", frame: Rect(x: 0, y: 0, width: 1000, height: 600))
        root.layoutDirection = window
        try engine.register(root)
        var card = DragTarget(
            id: "card", name: "Card", frame: Rect(x: 900, y: 500, width: 100, height: 40), parent: "window")
        card.offers = [cardType]
        try engine.register(card)
        return (engine, app)
    }

    private static func container(
        _ id: TargetID, _ frame: Rect, layout: InsertionLayout, direction: LayoutDirection? = nil
    ) -> DragTarget {
        var t = DragTarget(id: id, name: id.rawValue, frame: frame, parent: "window")
        t.accepts = [cardType]
        t.insertion = layout
        t.layoutDirection = direction
        return t
    }

    private static func item(_ id: TargetID, _ frame: Rect, in parent: TargetID) -> DragTarget {
        var t = DragTarget(id: id, name: id.rawValue, frame: frame, parent: parent)
        t.offers = [cardType]
        return t
    }

    /// Five columns of 100 drawn right to left: c0 at x 400..<500, c4 at x 0..<100.
    private static let rightToLeftColumns = (0..<5).map { Rect(x: Double(4 - $0) * 100, y: 0, width: 100, height: 80) }

    @Test(
        "L3: in a right-to-left horizontal list a point maps to the index drawn under it: right of the first column's centre is 0, left of the last's is the end"
    )
    func horizontalList() throws {
        let (engine, app) = try Self.engine()
        engine.configuration.insertionHysteresis = 0
        try engine.register(
            Self.container(
                "strip", Rect(x: 0, y: 0, width: 500, height: 80), layout: .horizontal, direction: .rightToLeft))
        // Registered in any order: the frames decide.
        for i in [3, 0, 4, 2, 1] {
            try engine.register(Self.item(TargetID("c\(i)"), Self.rightToLeftColumns[i], in: "strip"))
        }
        // Centres at x 450 (c0), 350 (c1), 250, 150, 50 (c4).
        let cases: [(x: Double, index: Int)] = [
            (490, 0), (451, 0), (449, 1), (360, 1), (340, 2), (260, 2), (240, 3), (140, 4), (60, 4), (40, 5), (1, 5),
        ]
        for (x, index) in cases {
            let point = Point(x: x, y: 40)
            #expect(engine.insertionIndex(in: "strip", at: point) == index, "at x = \(x)")
            // The same index InsertionIndex finds among the frames in list order.
            #expect(
                InsertionIndex.compute(
                    layout: .horizontal, frames: Self.rightToLeftColumns, point: point, direction: .rightToLeft)
                    == index, "at x = \(x)")
        }
        // A real drag: the drop between c1 (centre 350) and c2 (centre 250) lands at 2.
        try engine.beginDrag(items: ["card"], at: Point(x: 950, y: 520))
        engine.pointerMoved(to: Point(x: 300, y: 40))
        #expect(engine.currentSession?.insertionIndex == 2)
        engine.pointerUp(at: Point(x: 300, y: 40))
        #expect(app.dropped?.destination == "strip")
        #expect(app.dropped?.index == 2)
    }

    @Test("L3: a left-to-right horizontal list (the default) keeps its order: the same frames read from the left")
    func horizontalListLeftToRightUnchanged() throws {
        let (engine, _) = try Self.engine()
        try engine.register(Self.container("strip", Rect(x: 0, y: 0, width: 500, height: 80), layout: .horizontal))
        for i in 0..<5 {
            try engine.register(
                Self.item(TargetID("c\(i)"), Rect(x: Double(i) * 100, y: 0, width: 100, height: 80), in: "strip"))
        }
        #expect(engine.registry.layoutDirection(of: "strip") == .leftToRight)
        let indexes = [10.0, 60, 240, 260, 490].map { engine.insertionIndex(in: "strip", at: Point(x: $0, y: 40)) }
        #expect(indexes == [0, 1, 2, 3, 5])
        let frames = (0..<5).map { Rect(x: Double($0) * 100, y: 0, width: 100, height: 80) }
        #expect(InsertionIndex.compute(layout: .horizontal, frames: frames, point: Point(x: 260, y: 40)) == 3)
    }

    @Test(
        "L3: in a right-to-left grid rows still go top to bottom and each row fills from the right; the drop lands at the index drawn under the pointer"
    )
    func grid() throws {
        let (engine, app) = try Self.engine(window: .rightToLeft)
        // The grid inherits the window's direction. Three columns of 100 × 100, seven tiles:
        // t0 at the top right (x 200..<300), t2 at the top left, t3 starts the second row on the right.
        try engine.register(Self.container("grid", Rect(x: 0, y: 0, width: 300, height: 400), layout: .grid))
        #expect(engine.registry.layoutDirection(of: "grid") == .rightToLeft)
        var frames: [Rect] = []
        for i in 0..<7 {
            frames.append(Rect(x: Double(2 - i % 3) * 100, y: Double(i / 3) * 100, width: 100, height: 100))
        }
        for i in [6, 2, 0, 5, 1, 3, 4] { try engine.register(Self.item(TargetID("t\(i)"), frames[i], in: "grid")) }
        let cases: [(Point, Int)] = [
            (Point(x: 290, y: 50), 0), (Point(x: 240, y: 50), 1), (Point(x: 160, y: 50), 1), (Point(x: 10, y: 10), 3),
            (Point(x: 260, y: 150), 3), (Point(x: 140, y: 199), 5), (Point(x: 260, y: 250), 6),
            (Point(x: 240, y: 250), 7), (Point(x: 50, y: 250), 7), (Point(x: 10, y: 390), 7),
        ]
        for (point, index) in cases {
            #expect(engine.insertionIndex(in: "grid", at: point) == index, "at \(point)")
            #expect(
                InsertionIndex.compute(layout: .grid, frames: frames, point: point, direction: .rightToLeft) == index,
                "at \(point)")
        }
        try engine.beginDrag(items: ["card"], at: Point(x: 950, y: 520))
        engine.pointerMoved(to: Point(x: 140, y: 150))
        #expect(engine.currentSession?.insertionIndex == 5)
        engine.pointerMoved(to: Point(x: 160, y: 150))
        #expect(engine.currentSession?.insertionIndex == 4)
        engine.pointerUp(at: Point(x: 160, y: 150))
        #expect(app.dropped?.index == 4)
    }

    @Test(
        "L3: the engine's direction reaches every root that sets none, and a container can be switched while registered"
    )
    func directionInheritanceAndChange() throws {
        let (engine, _) = try Self.engine()
        try engine.register(Self.container("strip", Rect(x: 0, y: 0, width: 500, height: 80), layout: .horizontal))
        for i in 0..<5 { try engine.register(Self.item(TargetID("c\(i)"), Self.rightToLeftColumns[i], in: "strip")) }
        let point = Point(x: 440, y: 40)  // between the centres of c1 (350) and c0 (450)
        #expect(engine.insertionIndex(in: "strip", at: point) == 4)  // read from the left: c4…c1 are before it
        engine.layoutDirection = .rightToLeft
        #expect(engine.registry.layoutDirection(of: "strip") == .rightToLeft)
        #expect(engine.insertionIndex(in: "strip", at: point) == 1)
        try engine.setLayoutDirection(.leftToRight, for: "strip")
        #expect(engine.insertionIndex(in: "strip", at: point) == 4)
        try engine.setLayoutDirection(nil, for: "strip")
        #expect(engine.insertionIndex(in: "strip", at: point) == 1)
        #expect(engine.registry.target("strip")?.layoutDirection == nil)
        #expect(throws: RegistryError.self) { try engine.setLayoutDirection(.rightToLeft, for: "nowhere") }
    }

    @Test(
        "L3: keyboard drop points are read right to left in a right-to-left layout (rows still top to bottom), left to right otherwise"
    )
    func keyboardReadingOrder() throws {
        for direction in [LayoutDirection.leftToRight, .rightToLeft] {
            let (engine, _) = try Self.engine(window: direction)
            // A row of three albums (different widths, so left and right edges both matter) and
            // one below them.
            let albums: [(TargetID, Rect)] = [
                ("left", Rect(x: 0, y: 0, width: 150, height: 100)),
                ("middle", Rect(x: 200, y: 0, width: 100, height: 100)),
                ("right", Rect(x: 350, y: 0, width: 250, height: 100)),
                ("below", Rect(x: 0, y: 200, width: 600, height: 100)),
            ]
            for (id, frame) in albums.shuffled() {
                var album = DragTarget(id: id, name: id.rawValue, frame: frame, parent: "window")
                album.accepts = [Self.cardType]
                try engine.register(album)
            }
            try engine.beginKeyboardDrag(items: ["card"])
            let order = engine.keyboardDropPoints.map(\.target)
            #expect(
                order
                    == (direction == .rightToLeft
                        ? ["right", "middle", "left", "below"] : ["left", "middle", "right", "below"]),
                "\(direction)")
            // Next focuses the first in reading order.
            #expect(engine.keyDown(.nextDropPoint) == .handled)
            #expect(engine.currentSession?.destination == (direction == .rightToLeft ? "right" : "left"))
            _ = engine.cancelDrag()
        }
    }
}

extension RightToLeftTests {
    @Test(
        "L3, T1: in a right-to-left outline rows are indented from the right, so the pointer's distance from the right edge picks the depth between two rows"
    )
    func outlineDepthFromTheRight() throws {
        try Localization.withLanguage("en") {
            let mail = try OutlineEngineTests.Mail()
            mail.engine.layoutDirection = .rightToLeft
            // The outline is 300 wide: depth d is picked at x(d) points from its right edge.
            mail.drag("sent", to: mail.point("budget", 0.9, x: 300 - OutlineTests.x(2)))
            #expect(mail.points().last == .between(parent: "projects", index: 2, depth: 2))
            mail.engine.pointerMoved(to: mail.point("notes", 0.1, x: 300 - OutlineTests.x(1)))
            #expect(mail.points().last == .between(parent: "work", index: 1, depth: 1))
            // Where a left-to-right outline would read depth 1, this one reads the deepest the gap allows.
            mail.engine.pointerMoved(to: mail.point("budget", 0.9, x: OutlineTests.x(1)))
            #expect(mail.points().last == .between(parent: "projects", index: 2, depth: 2))
        }
    }
}
