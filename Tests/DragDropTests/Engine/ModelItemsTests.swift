@_spi(Benchmarks) @testable import DragDrop
import DragDropTesting
import Testing

/// Virtualized lists (issue 12): a model-backed container registers only the rows on screen,
/// yet a selection reaching rows scrolled out of view drags whole (M1), named by the app, typed
/// by the container's ``ModelItems``; and target handles re-frame without identifier lookups.
@Suite("Engine: model-backed containers and target handles")
struct ModelItemsTests {
    private static let fileType: ContentType = "application/x-file"
    private static let rowHeight = 30.0

    /// Names items "File N" and records drops and feedback.
    private final class App: DragEngineDelegate {
        var dropped: DropRequest?
        var named: [TargetID] = []
        var events: [FeedbackEvent] = []

        func dragEngine(_ engine: DragEngine, nameOfItem item: TargetID, in container: TargetID) -> String? {
            named.append(item)
            return container == "archive" ? "File \(item.rawValue.dropFirst(1))" : nil
        }

        func dragEngine(_ engine: DragEngine, perform drop: DropRequest) -> DropResult {
            dropped = drop
            return .committed(undo: nil)
        }

        func dragEngine(_ engine: DragEngine, emitted event: FeedbackEvent) { events.append(event) }
    }

    /// A window with `archive` (x 0..<300), a model-backed list of `count` files of which rows
    /// 0..<`shown` are registered, and `inbox` (x 400..<700), which takes files.
    private static func engine(count: Int = 100, shown: Int = 3, movable: Bool = true) throws -> (DragEngine, App) {
        let engine = DragEngine(app: "Files", clock: VirtualClock())
        let app = App()
        engine.delegate = app
        try engine.register(DragTarget(id: "window", name: "Files", frame: Rect(x: 0, y: 0, width: 800, height: 600)))
        var archive = DragTarget(
            id: "archive", name: "Archive", frame: Rect(x: 0, y: 0, width: 300, height: 600), parent: "window")
        archive.accepts = [fileType]
        archive.insertion = .vertical
        archive.clipsChildren = true
        archive.modelItems = ModelItems(offers: [fileType], kind: Noun("file"), isMovable: movable)
        try engine.register(archive)
        for row in 0..<shown {
            var target = DragTarget(
                id: TargetID("f\(row)"), name: "File \(row)",
                frame: Rect(x: 0, y: Double(row) * rowHeight, width: 300, height: rowHeight), parent: "archive")
            target.offers = [fileType]
            target.kind = Noun("file")
            target.isMovable = movable
            try engine.register(target)
        }
        var inbox = DragTarget(
            id: "inbox", name: "Inbox", frame: Rect(x: 400, y: 0, width: 300, height: 600), parent: "window")
        inbox.accepts = [fileType]
        inbox.insertion = .vertical
        inbox.operationPolicy = .preferMove
        try engine.register(inbox)
        _ = count
        return (engine, app)
    }

    private static func ids(_ count: Int) -> [TargetID] { (0..<count).map { TargetID("f\($0)") } }

    @Test(
        "M1, S4: a selection reaching rows scrolled out of a virtualized list drags whole, named and typed by the app")
    func offScreenSelection() throws {
        let (engine, app) = try Self.engine()
        try engine.beginDrag(items: Self.ids(100), at: Point(x: 100, y: 15))
        let previews = app.events.compactMap { event -> Int? in
            if case .preview(let state) = event { return state.count }
            return nil
        }
        #expect(previews.first == 100)
        // Only the first item's name was needed to lift (it is registered: none asked).
        #expect(app.named.isEmpty)
        engine.pointerMoved(to: Point(x: 500, y: 40))
        #expect(app.named.isEmpty)
        #expect(engine.currentSession?.destination == "inbox")
        engine.pointerUp(at: Point(x: 500, y: 40))
        let drop = try #require(app.dropped)
        #expect(drop.items.count == 100)
        #expect(drop.items.map(\.id) == Self.ids(100))
        #expect(drop.items[0].name == "File 0")
        #expect(drop.items[99].name == "File 99")
        #expect(drop.items.allSatisfy { $0.sourceContainer == "archive" && $0.types == [Self.fileType] })
        #expect(drop.items.allSatisfy { $0.kind == Noun("file") && $0.app == "Files" })
        #expect(drop.operation == .move)
        // The 97 rows off screen were named by the app, the 3 on screen by their targets.
        #expect(Set(app.named) == Set(Self.ids(100)[3...]))
    }

    @Test(
        "C4: a keyboard pick-up of rows all off screen names the first one and reaches the destinations that take them")
    func keyboardOffScreen() throws {
        let (engine, app) = try Self.engine()
        let hidden = Array(Self.ids(100)[50..<60])
        try engine.beginKeyboardDrag(items: hidden, from: "archive")
        let lifted = app.events.compactMap { event -> [TargetID]? in
            if case .lifted(let items, _, _) = event { return items }
            return nil
        }
        #expect(lifted == [hidden])
        #expect(app.named.first == "f50")
        let announced = app.events.compactMap { event -> String? in
            if case .announcement(let announcement) = event { return announcement.text }
            return nil
        }
        #expect(announced.first?.hasPrefix("Picked up 10 files.") == true)
        // The files' type comes from the container's traits: both lists take them.
        #expect(engine.keyboardDropPoints.map(\.target) == ["archive", "inbox"])
    }

    @Test("M1: without a model-backed container, an item that is not registered is refused and nothing stays marked")
    func unknownItemRefused() throws {
        let (engine, _) = try Self.engine()
        #expect(throws: DragError.notDraggable("stray")) {
            try engine.beginDrag(items: ["f0", "stray"], at: Point(x: 100, y: 15), from: "inbox")
        }
        #expect(!engine.isDragging)
        let masks = engine.registry.masks(forOffered: [[Self.fileType]])
        // f0 is not left flagged as dragged: the archive under it is a destination again.
        #expect(engine.registry.resolve(at: Point(x: 100, y: 15), session: masks).destination == "archive")
    }

    @Test("S2: rows of a read-only model-backed list drag out as copies, on screen or not")
    func readOnlyCopies() throws {
        let (engine, app) = try Self.engine(movable: false)
        try engine.beginDrag(items: Self.ids(10), at: Point(x: 100, y: 15))
        engine.pointerMoved(to: Point(x: 500, y: 40))
        engine.pointerUp(at: Point(x: 500, y: 40))
        #expect(app.dropped?.operation == .copy)
    }

    @Test("F4, F6: a dragged row that scrolls into view during the drag is registered as dragged, never a destination")
    func rowRegisteredDuringDrag() throws {
        let (engine, _) = try Self.engine()
        try engine.beginDrag(items: Self.ids(100), at: Point(x: 100, y: 15))
        // Row 5 scrolls into view, as a sortable row that is also a destination.
        var row = DragTarget(
            id: "f5", name: "File 5", frame: Rect(x: 0, y: 5 * Self.rowHeight, width: 300, height: Self.rowHeight),
            parent: "archive")
        row.offers = [Self.fileType]
        row.accepts = [Self.fileType]
        try engine.register(row)
        let masks = engine.registry.masks(forOffered: [[Self.fileType]])
        #expect(engine.registry.resolve(at: Point(x: 100, y: 160), session: masks).destination == "archive")
        engine.cancelDrag()
        #expect(engine.registry.resolve(at: Point(x: 100, y: 160), session: masks).destination == "f5")
    }

    @Test("Layout churn: a handle moves its target without a lookup; once the target is gone the handle is stale")
    func handles() throws {
        let (engine, _) = try Self.engine()
        let handle = try #require(engine.handle(for: "f1"))
        try engine.setFrame(Rect(x: 0, y: 300, width: 300, height: Self.rowHeight), for: handle)
        #expect(engine.registry.resolve(at: Point(x: 100, y: 310)).topHit == "f1")
        #expect(engine.registry.resolve(at: Point(x: 100, y: 40)).topHit == "archive")
        #expect(throws: RegistryError.invalidFrame("f1", Rect(x: 0, y: 0, width: -1, height: 1))) {
            try engine.setFrame(Rect(x: 0, y: 0, width: -1, height: 1), for: handle)
        }
        try engine.unregister("f1")
        // Another row takes the freed slot: the old handle must not move it.
        var other = DragTarget(
            id: "g", name: "G", frame: Rect(x: 0, y: 450, width: 300, height: Self.rowHeight), parent: "archive")
        other.offers = [Self.fileType]
        try engine.register(other)
        #expect(throws: RegistryError.staleHandle) {
            try engine.setFrame(Rect(x: 0, y: 0, width: 10, height: 10), for: handle)
        }
        #expect(engine.registry.target("g")?.frame == Rect(x: 0, y: 450, width: 300, height: Self.rowHeight))
        #expect(engine.handle(for: "f1") == nil)
    }

    @Test("The registry rebuilds each descriptor as registered, the rare roles included")
    func descriptorsRoundTrip() throws {
        var registry = TargetRegistry(localApp: "Files")
        var root = DragTarget(id: "w", name: "Window", frame: Rect(x: 0, y: 0, width: 500, height: 500))
        root.app = "Other"
        root.clipsChildren = true
        try registry.register(root)
        var folder = DragTarget(
            id: "folder", name: "Folder", frame: Rect(x: 10, y: 10, width: 50, height: 50), parent: "w")
        folder.accepts = [Self.fileType]
        folder.offers = [Self.fileType, .utf8PlainText]
        folder.kind = Noun("folder")
        folder.isMovable = false
        folder.insertion = .grid
        folder.operationPolicy = .forbidden(reason: "Full.")
        folder.springLoading = SpringLoadingConfiguration()
        folder.autoscroll = AutoscrollConfiguration()
        folder.isHidden = true
        folder.confirmation = "Sure?"
        folder.modelItems = ModelItems(offers: [Self.fileType], kind: Noun("file"), isMovable: false)
        try registry.register(folder)
        let read = try #require(registry.target("folder"))
        #expect(read.id == "folder" && read.name == "Folder" && read.parent == "w")
        #expect(read.frame == folder.frame && read.accepts == folder.accepts && read.offers == folder.offers)
        #expect(read.kind == folder.kind && read.isMovable == false && read.insertion == .grid)
        #expect(read.operationPolicy == .forbidden(reason: "Full.") && read.springLoading != nil)
        #expect(read.autoscroll != nil && read.isHidden && read.confirmation == "Sure?")
        #expect(read.modelItems == folder.modelItems && read.app == nil)
        #expect(registry.app(of: "folder") == "Other")
        #expect(registry.target("w")?.app == "Other" && registry.target("w")?.clipsChildren == true)
        #expect(registry.allTargets.map(\.id).sorted() == ["folder", "w"])
        try registry.unregister("w")
        #expect(registry.count == 0 && registry.allTargets.isEmpty && registry.target("folder") == nil)
    }
}
