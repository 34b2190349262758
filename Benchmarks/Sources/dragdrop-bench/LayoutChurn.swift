import BenchGeometry
import BenchmarkSupport
import DragDrop
import DragDropTesting

/// Scenario 3: keeping the index up to date while the layout changes under a drag.
///
/// - Sortable: 10k items in a grid, reordered on every move (the placeholder jumps to a new
///   index and the items in between shift by one cell), and the app hands the engine every
///   item's frame again with `setFrame` (most are unchanged; a real layout pass does not know
///   which), in one `setFrames` pass through each item's `TargetHandle`, so no identifier is
///   looked up. Baseline: rebuilding the flat array of 10k rectangles, the least a scan-based
///   library does when the layout changes (dnd-kit re-measures every droppable).
/// - Virtualized: a 100,000-row list showing about 30 rows; the drag holds the pointer in the
///   bottom edge zone, so the engine's autoscroll scrolls it every 1/60 s, and the app moves the
///   registered rows (`offsetDescendants`), unregisters the rows that scrolled out and registers
///   those that scrolled in. Cost per frame of those registry calls. Baseline: rebuilding the
///   flat array of the rows on screen.
enum LayoutChurnScenario {
    static func run(_ suite: Suite) throws {
        suite.log("Layout churn")
        try sortable(suite)
        try virtualized(suite)
    }

    // MARK: Sortable grid

    static let items = 10_000
    static let frames = 600

    static func sortable(_ suite: Suite) throws {
        let columns = 100
        let pitch = 44.0
        func frame(_ index: Int) -> Rect {
            Rect(x: 4 + Double(index % columns) * pitch, y: 4 + Double(index / columns) * pitch, width: 40, height: 40)
        }
        let clock = VirtualClock()
        let engine = DragEngine(app: "Grid", clock: clock)
        let app = CountingApp()
        engine.delegate = app
        var window = DragTarget(id: "window", name: "Window", frame: Rect(x: 0, y: 0, width: 4_500, height: 4_500))
        window.accepts = [SceneTargets.cardType]
        window.insertion = .grid
        try engine.register(window)
        let ids = (0..<items).map { TargetID("i\($0)") }
        for (i, id) in ids.enumerated() {
            var t = DragTarget(id: id, name: "Item \(i)", frame: frame(i), parent: "window")
            t.accepts = [SceneTargets.cardType]
            t.offers = [SceneTargets.cardType]
            try engine.register(t)
        }
        // The app keeps each item's handle, so a layout pass sets frames without a lookup.
        let handles = ids.map { engine.handle(for: $0)! }
        // Drag item 0; `order` is the displayed order, the dragged item's slot is the placeholder.
        engine.pointerDown(at: frame(0).center)
        engine.pointerMoved(to: Point(x: frame(0).center.x + 5, y: frame(0).center.y))
        precondition(engine.isDragging)
        var order = Array(0..<items)
        var rng = SplitMix64(seed: 7)
        let targets = (0..<frames * 2).map { _ in Int(rng.next() % UInt64(items)) }

        /// Moves the dragged item (item 0) to display position `to`; the others close up.
        func reorder(_ k: Int) {
            let from = order.firstIndex(of: 0)!
            order.remove(at: from)
            order.insert(0, at: targets[k])
        }

        var shifted = 0
        var k = 0
        let ours = Bench.measure(suite.plan(warmup: 50, samples: frames, minimumSamples: 100, budget: 3)) { _ in
            reorder(k)
            k = (k + 1) % targets.count
            let t0 = Ticks.now()
            try? engine.setFrames { set in
                for (position, item) in order.enumerated() { set(handles[item], frame(position)) }
            }
            shifted &+= Int(Ticks.now() - t0)
        }
        blackHole(shifted)

        var scan = LinearScan()
        let baseline = Bench.measure(suite.plan(warmup: 50, samples: frames, minimumSamples: 100, budget: 3)) { _ in
            reorder(k)
            k = (k + 1) % targets.count
            scan.removeAll(keepingCapacity: true)
            for (position, item) in order.enumerated() {
                let f = frame(position)
                scan.append(node: item, frame: Box(x: f.minX, y: f.minY, width: f.width, height: f.height), depth: 1)
            }
        }
        blackHole(scan.count)
        engine.cancelDrag()
        // Both timings include the reorder of the app's own array (the same work); report it.
        let reorderOnly = Bench.measure(suite.plan(warmup: 50, samples: frames, minimumSamples: 100, budget: 1)) { _ in
            reorder(k)
            k = (k + 1) % targets.count
        }
        suite.add(
            Row(
                scenario: "Layout churn: \(sizeLabel(items)) sortable items, all frames set per move",
                ours: Format.duration(ours.median - reorderOnly.median), oursP99: Format.duration(ours.p99 - reorderOnly.median),
                baseline: "rebuild flat array of \(sizeLabel(items)) rects", baselineMedian: Format.duration(baseline.median - reorderOnly.median),
                baselineP99: Format.duration(baseline.p99 - reorderOnly.median),
                ratio: Format.ratio((baseline.median - reorderOnly.median) / (ours.median - reorderOnly.median)),
                target: Verdict.check(
                    ours.median - reorderOnly.median <= 2 * (baseline.median - reorderOnly.median),
                    "median ≤ 2 × the rebuild")))
        suite.log(String(format: "    (the app's own reorder, %@ per move, is subtracted from both; %.2f allocations per move with it)",
            Format.duration(reorderOnly.median), ours.allocationsPerOp ?? -1))
    }

    // MARK: Virtualized list

    static let rows = 100_000
    static let rowHeight = 28.0
    static let viewport = 840.0
    static let overscan = 4

    static func virtualized(_ suite: Suite) throws {
        let clock = VirtualClock()
        let engine = DragEngine(app: "List", clock: clock)
        let app = VirtualListApp(rows: rows, rowHeight: rowHeight, viewport: viewport, overscan: overscan)
        engine.delegate = app
        app.engine = engine
        try app.registerAll()
        // Drag a row from the first screen down into the bottom edge zone and hold it there.
        let start = Point(x: 100, y: 100)
        engine.pointerDown(at: start)
        clock.advance(by: .milliseconds(16))
        engine.pointerMoved(to: Point(x: 100, y: 106))
        precondition(engine.isDragging)
        let edge = Point(x: 100, y: viewport - 4)
        var frame = 0
        func nextFrame() {
            clock.advance(by: .nanoseconds(16_666_667))
            frame += 1
            engine.pointerMoved(to: Point(x: edge.x + (frame % 2 == 0 ? 1 : -1), y: edge.y))
            var ticks = 0
            while let due = engine.nextDeadline, due <= clock.now, ticks < 8 {
                engine.tick()
                ticks += 1
            }
        }
        // Warm-up until autoscroll has ramped up to full speed, then time 1,200 frames.
        for _ in 0..<120 { nextFrame() }
        let framesToTime = suite.options.quick ? 300 : 1_200
        app.recorder = Recorder()
        app.measuring = true
        AllocationTrace.begin(label: "virtualized list")
        if Allocations.available { Allocations.start() }
        for _ in 0..<framesToTime { nextFrame() }
        let allocations = Allocations.available ? Allocations.stop() : 0
        AllocationTrace.end()
        app.measuring = false
        let ours = app.recorder.stats(allocationsPerOp: Double(allocations) / Double(framesToTime))
        let scrolled = app.offset
        engine.cancelDrag()

        // Baseline: per frame, the rectangles of the rows on screen, rebuilt.
        var scan = LinearScan()
        var offset = 0.0
        let step = ours.count > 0 ? scrolled / Double(app.recorder.count) : 25
        let baseline = Bench.measure(SamplePlan(warmup: 100, samples: framesToTime, minimumSamples: 100, budget: 1)) { _ in
            offset += step
            let first = max(0, Int(offset / rowHeight) - overscan)
            let last = min(rows - 1, Int((offset + viewport) / rowHeight) + overscan)
            scan.removeAll(keepingCapacity: true)
            for row in first...last {
                scan.append(node: row, frame: Box(x: 0, y: Double(row) * rowHeight - offset, width: 400, height: rowHeight), depth: 2)
            }
        }
        blackHole(scan.count)
        suite.add(
            Row(
                scenario: "Layout churn: \(sizeLabel(rows))-row virtualized list, autoscroll, per frame",
                ours: Format.duration(ours.median), oursP99: Format.duration(ours.p99),
                baseline: "rebuild flat array of the rows on screen", baselineMedian: Format.duration(baseline.median),
                baselineP99: Format.duration(baseline.p99), ratio: Format.ratio(baseline.median / ours.median)))
        suite.log(
            String(
                format: "    %d frames scrolled %.0f points (%d rows registered and unregistered); %@ allocations per frame",
                ours.count, scrolled, app.registrations, allocs(ours)))
    }
}

/// A delegate that only counts feedback.
final class CountingApp: DragEngineDelegate {
    private(set) var events = 0
    func dragEngine(_ engine: DragEngine, perform drop: DropRequest) -> DropResult { .committed(undo: nil) }
    func dragEngine(_ engine: DragEngine, emitted event: FeedbackEvent) { events += 1 }
}

/// A list of `rows` rows of which only those on screen (plus overscan) are registered, as a
/// virtualized list view does; it scrolls when the engine asks (autoscroll).
final class VirtualListApp: DragEngineDelegate {
    weak var engine: DragEngine?
    let rows: Int
    let rowHeight: Double
    let viewport: Double
    let overscan: Int
    private(set) var offset = 0.0
    private var first = 0
    private var last = -1
    var recorder = Recorder()
    var measuring = false
    private(set) var registrations = 0
    private var incoming: [DragTarget] = []

    init(rows: Int, rowHeight: Double, viewport: Double, overscan: Int) {
        self.rows = rows
        self.rowHeight = rowHeight
        self.viewport = viewport
        self.overscan = overscan
    }

    static func rowID(_ row: Int) -> TargetID { TargetID("r\(row)") }

    func row(_ r: Int) -> DragTarget {
        var t = DragTarget(
            id: Self.rowID(r), name: "Row \(r)", frame: Rect(x: 0, y: Double(r) * rowHeight - offset, width: 400, height: rowHeight),
            parent: "content")
        t.offers = Self.offers
        return t
    }

    /// Shared by every row, so describing a row allocates nothing.
    static let offers = [SceneTargets.cardType]

    func visibleRange() -> (Int, Int) {
        (max(0, Int(offset / rowHeight) - overscan), min(rows - 1, Int((offset + viewport) / rowHeight) + overscan))
    }

    func registerAll() throws {
        guard let engine else { return }
        try engine.register(DragTarget(id: "window", name: "Window", frame: Rect(x: 0, y: 0, width: 400, height: viewport)))
        var scroll = DragTarget(id: "scroll", name: "List", frame: Rect(x: 0, y: 0, width: 400, height: viewport), parent: "window")
        scroll.clipsChildren = true
        scroll.autoscroll = AutoscrollConfiguration()
        try engine.register(scroll)
        var content = DragTarget(
            id: "content", name: "Rows", frame: Rect(x: 0, y: 0, width: 400, height: Double(rows) * rowHeight), parent: "scroll")
        content.accepts = [SceneTargets.cardType]
        content.insertion = .vertical
        try engine.register(content)
        (first, last) = visibleRange()
        for r in first...last { try engine.register(row(r)) }
    }

    func dragEngine(_ engine: DragEngine, perform drop: DropRequest) -> DropResult { .committed(undo: nil) }

    func dragEngine(_ engine: DragEngine, insertionIndexIn container: TargetID, at point: Point?) -> Int? {
        guard let point else { return nil }
        return min(rows, max(0, Int(((point.y + offset) / rowHeight).rounded())))
    }

    func dragEngine(_ engine: DragEngine, scroll container: TargetID, by delta: Vector) -> Vector {
        let limit = Double(rows) * rowHeight - viewport
        let new = min(limit, max(0, offset + delta.dy))
        let applied = new - offset
        guard applied != 0 else { return .zero }
        offset = new
        let (newFirst, newLast) = visibleRange()
        // The app's own work, not timed: describing the rows that scroll in.
        incoming.removeAll(keepingCapacity: true)
        for r in newFirst...newLast where r < first || r > last { incoming.append(row(r)) }
        let t0 = Ticks.now()
        try? engine.offsetDescendants(of: "scroll", by: Vector(dx: 0, dy: -applied))
        // Rows that scrolled out go, rows that scrolled in come.
        for r in first...last where r < newFirst || r > newLast { try? engine.unregister(Self.rowID(r)) }
        for target in incoming { try? engine.register(target) }
        let t1 = Ticks.now()
        registrations += incoming.count
        (first, last) = (newFirst, newLast)
        if measuring {
            let elapsed = t1 &- t0
            recorder.record(elapsed > Bench.clockOverhead ? elapsed - Bench.clockOverhead : 0)
        }
        return Vector(dx: 0, dy: applied)
    }
}
