import BenchGeometry
import BenchmarkSupport
import DragDrop
import DragDropTesting

/// Scenario 2: 1,200 pointer moves at 120 Hz over a board of 10k cards (50 columns of 200 in
/// scroll views 800 points tall that clip and autoscroll, spring-loaded column headers), slow
/// and fast, on a virtual clock advanced by 1/120 s per move with `tick()` called whenever
/// `nextDeadline` is due. Cost per move (the move and any ticks due at its instant) and
/// allocations per move, beside a naive engine loop that resolves the same moves by scanning
/// every target.
enum DragPathScenario {
    static let cards = 10_000
    static let viewport = 800.0
    static let moves = 1_200
    static let interval: Duration = .nanoseconds(8_333_333)

    static func run(_ suite: Suite) throws {
        suite.log("Drag path")
        let scene = BenchScene.board(cards: cards, viewportHeight: viewport)
        for (name, path) in [("slow", slowPath()), ("fast", fastPath())] {
            let ours = try measureEngine(suite, scene: scene, path: path, name: name)
            let naive = measureNaive(scene: scene, path: path)
            let label = "Drag path, \(name), \(sizeLabel(cards)) targets"
            suite.add(
                Row(
                    scenario: label + ": time per move", ours: Format.duration(ours.time.median),
                    oursP99: "\(Format.duration(ours.time.p99)) (max \(Format.duration(ours.time.max)))",
                    baseline: "naive loop, linear scan of \(Format.count(scene.nodes.count)) targets",
                    baselineMedian: Format.duration(naive.median),
                    baselineP99: "\(Format.duration(naive.p99)) (max \(Format.duration(naive.max)))",
                    ratio: Format.ratio(naive.median / ours.time.median),
                    target: Verdict.check(ours.time.p99 <= 50_000, "p99 ≤ 50 µs")))
            let allocationText: String
            let met: Bool
            if let timed = ours.time.allocationsPerOp {
                let perMove = Double(ours.steadyAllocations) / Double(moves)
                allocationText = "\(perMove == 0 ? "0" : String(format: "%.3f", perMove)) (\(ours.allocatingMoves) of \(moves) moves)"
                met = ours.steadyAllocations == 0
                if timed > 0 {
                    suite.note(
                        "\(label): the timed pass (the second over the path) made \(Int((timed * Double(moves)).rounded())) allocations in \(moves) moves, the third (steady state, counted move by move) \(ours.steadyAllocations).")
                }
            } else {
                allocationText = "n/a"
                met = false
            }
            suite.add(
                Row(
                    scenario: label + ": allocations per move", ours: allocationText, oursP99: "max \(ours.mostAllocations) in a move",
                    baseline: "naive loop", baselineMedian: naive.allocationsPerOp.map { $0 == 0 ? "0" : String(format: "%.2f", $0) } ?? "n/a",
                    baselineP99: "", ratio: "", target: Verdict.check(met, "0 in steady state")))
            suite.log(
                "    \(name): \(ours.events) feedback events, \(ours.scrolls) scroll steps, \(ours.activations) spring activations, \(ours.destinationChanges) destination changes per pass")
        }
    }

    // MARK: Paths

    /// Column `c`'s horizontal centre.
    static func columnX(_ c: Int) -> Double { 20 + Double(c) * BenchScene.BoardMetrics.columnPitch + BenchScene.BoardMetrics.columnWidth / 2 }

    /// Straight segments between waypoints, `steps` moves each; a segment from a point to itself
    /// is a hold with a one-point wobble (a hand never holds perfectly still).
    static func path(_ segments: [(to: Point, steps: Int)], from start: Point) -> [Point] {
        var points: [Point] = []
        var current = start
        for segment in segments {
            for k in 1...segment.steps {
                let t = Double(k) / Double(segment.steps)
                var p = Point(x: current.x + (segment.to.x - current.x) * t, y: current.y + (segment.to.y - current.y) * t)
                if segment.to == current { p.x += k % 2 == 0 ? 1 : -1 }
                points.append(p)
            }
            current = segment.to
        }
        return points
    }

    /// Where the drag starts: a card of column 2, lifted there before the measured moves.
    static let start = Point(x: columnX(2), y: 300)

    /// About 300 points per second, lingering where things happen: down into column 2's bottom
    /// edge zone and held there (autoscroll, 2 s), up to its header and held (spring loading
    /// activates after 0.7 s), across to column 3, then down to column 4's bottom edge.
    static func slowPath() -> [Point] {
        let top = BenchScene.BoardMetrics.top
        let bottomEdge = top + BenchScene.BoardMetrics.headerHeight + viewport - 20
        let edge = Point(x: columnX(2), y: bottomEdge)
        let header = Point(x: columnX(2), y: top + 20)
        let result = path(
            [
                (edge, 240), (edge, 240), (header, 120), (header, 120), (Point(x: columnX(3), y: 400), 240),
                (Point(x: columnX(4), y: bottomEdge), 240),
            ], from: start)
        precondition(result.count == moves)
        return result
    }

    /// About 3,000 points per second between random places on the board: destinations change
    /// every few moves, headers and edge zones are crossed without lingering.
    static func fastPath() -> [Point] {
        var rng = SplitMix64(seed: 42)
        var segments: [(to: Point, steps: Int)] = []
        var current = start
        var total = 0
        let top = BenchScene.BoardMetrics.top
        while total < moves {
            let to = Point(x: 30 + rng.nextUnit() * 2_400, y: top + 5 + rng.nextUnit() * (viewport + 30))
            let length = ((to.x - current.x) * (to.x - current.x) + (to.y - current.y) * (to.y - current.y)).squareRoot()
            let steps = min(moves - total, max(1, Int((length / 25).rounded())))
            segments.append((to, steps))
            total += steps
            current = to
        }
        return path(segments, from: start)
    }

    // MARK: The engine

    struct EngineResult {
        var time: Stats
        /// Allocations in the third pass over the path, counted move by move.
        var steadyAllocations: Int
        var allocatingMoves: Int
        var mostAllocations: Int
        var events: Int
        var scrolls: Int
        var activations: Int
        var destinationChanges: Int
    }

    static func measureEngine(_ suite: Suite, scene: BenchScene, path: [Point], name: String) throws -> EngineResult {
        let clock = VirtualClock()
        let engine = DragEngine(app: "Board", clock: clock)
        let app = BoardApp(scene: scene, viewport: viewport)
        engine.delegate = app
        app.engine = engine
        for i in scene.nodes.indices { try engine.register(SceneTargets.target(scene, i, clipsScrollViews: true)) }

        /// One move: the pointer event, then every tick due at its instant.
        func step(_ p: Point) {
            engine.pointerMoved(to: p)
            var ticks = 0
            while let due = engine.nextDeadline, due <= clock.now, ticks < 8 {
                engine.tick()
                ticks += 1
            }
        }

        /// Lifts at the start, with the scroll views back at the top.
        func lift() {
            app.resetScrolling()
            engine.pointerDown(at: start)
            clock.advance(by: interval)
            engine.pointerMoved(to: Point(x: start.x + 4, y: start.y))
            precondition(engine.isDragging, "the drag did not start")
        }

        func end() {
            engine.cancelDrag()
            clock.advance(by: .seconds(1))
        }

        // Warm-up pass: the same moves, untimed.
        lift()
        for p in path {
            clock.advance(by: interval)
            step(p)
        }
        end()

        // Timed pass.
        app.resetCounters()
        lift()
        var recorder = Recorder()
        let overhead = Bench.clockOverhead
        let counting = Allocations.available
        AllocationTrace.begin(label: "\(name), timed pass")
        if counting { Allocations.start() }
        for p in path {
            clock.advance(by: interval)
            let t0 = Ticks.now()
            step(p)
            let t1 = Ticks.now()
            let elapsed = t1 &- t0
            recorder.record(elapsed > overhead ? elapsed - overhead : 0)
        }
        let allocations = counting ? Allocations.stop() : 0
        AllocationTrace.end()
        let events = app.events
        let scrolls = app.scrolls
        let activations = app.activations
        let changes = app.destinationChanges
        end()

        // Allocation detail pass: which moves allocate, and how much.
        var allocatingMoves = 0
        var most = 0
        var steady = 0
        if counting {
            lift()
            for (k, p) in path.enumerated() {
                clock.advance(by: interval)
                AllocationTrace.begin(label: "\(name) move \(k)")
                Allocations.start()
                step(p)
                let n = Allocations.stop()
                AllocationTrace.end()
                if n > 0 { allocatingMoves += 1 }
                steady += n
                most = max(most, n)
            }
            end()
        }
        let stats = recorder.stats(allocationsPerOp: counting ? Double(allocations) / Double(path.count) : nil)
        return EngineResult(
            time: stats, steadyAllocations: steady, allocatingMoves: allocatingMoves, mostAllocations: most, events: events, scrolls: scrolls,
            activations: activations, destinationChanges: changes)
    }

    // MARK: The baseline

    static func measureNaive(scene: BenchScene, path: [Point]) -> Stats {
        var naive = NaiveEngine(scene: scene, viewport: viewport)
        var now = 0.0
        naive.reset()
        for p in path {  // warm-up
            now += 1.0 / 120
            naive.move(to: p, now: now)
        }
        naive.reset()
        var recorder = Recorder()
        let overhead = Bench.clockOverhead
        let counting = Allocations.available
        if counting { Allocations.start() }
        for p in path {
            now += 1.0 / 120
            let t0 = Ticks.now()
            naive.move(to: p, now: now)
            let t1 = Ticks.now()
            let elapsed = t1 &- t0
            recorder.record(elapsed > overhead ? elapsed - overhead : 0)
        }
        let allocations = counting ? Allocations.stop() : 0
        blackHole(naive.events)
        return recorder.stats(allocationsPerOp: counting ? Double(allocations) / Double(path.count) : nil)
    }
}

/// The app behind the board: scroll offsets per column, insertion indexes by arithmetic, and
/// counters instead of a recorded timeline (recording would allocate and is not the engine's
/// cost).
final class BoardApp: DragEngineDelegate {
    typealias M = BenchScene.BoardMetrics
    weak var engine: DragEngine?
    let viewport: Double
    let contentHeight: Double
    /// Column of each scroll view, by identifier.
    private var columnOfScroll: [TargetID: Int] = [:]
    /// Lists and sections: column, content-space top, header height, card count.
    private var lists: [TargetID: (column: Int, top: Double, header: Double, count: Int)] = [:]
    private var offsets: [Double]
    private(set) var events = 0
    private(set) var scrolls = 0
    private(set) var activations = 0
    private(set) var destinationChanges = 0

    init(scene: BenchScene, viewport: Double) {
        self.viewport = viewport
        offsets = Array(repeating: 0, count: M.columns)
        var column = -1
        var content = 0.0
        for (i, node) in scene.nodes.enumerated() {
            switch node.kind {
            case .column: column += 1
            case .scroll: columnOfScroll[SceneTargets.id(i)] = column
            case .list:
                let sectionCount = scene.nodes.filter { $0.parent == Int32(i) && $0.kind == .card }.count
                let isSection = scene.nodes[Int(node.parent)].kind == .list
                lists[SceneTargets.id(i)] = (column, node.frame.y, isSection ? M.sectionHeader : 0, sectionCount)
                if !isSection { content = node.frame.height }
            default: break
            }
        }
        contentHeight = content
    }

    func resetCounters() {
        events = 0
        scrolls = 0
        activations = 0
        destinationChanges = 0
    }

    /// Scrolls every column back to the top.
    func resetScrolling() {
        for (id, column) in columnOfScroll where offsets[column] != 0 {
            try? engine?.offsetDescendants(of: id, by: Vector(dx: 0, dy: offsets[column]))
            offsets[column] = 0
        }
    }

    func dragEngine(_ engine: DragEngine, perform drop: DropRequest) -> DropResult { .committed(undo: nil) }

    func dragEngine(_ engine: DragEngine, insertionIndexIn container: TargetID, at point: Point?) -> Int? {
        guard let point, let list = lists[container] else { return nil }
        if list.count == 0 { return 0 }
        let y = point.y - (list.top - offsets[list.column]) - list.header
        return min(list.count, max(0, Int((y / M.cardPitch).rounded())))
    }

    func dragEngine(_ engine: DragEngine, scroll container: TargetID, by delta: Vector) -> Vector {
        guard let column = columnOfScroll[container] else { return .zero }
        let limit = max(0, contentHeight - viewport)
        let new = min(limit, max(0, offsets[column] + delta.dy))
        let applied = new - offsets[column]
        guard applied != 0 else { return .zero }
        offsets[column] = new
        try? engine.offsetDescendants(of: container, by: Vector(dx: 0, dy: -applied))
        scrolls += 1
        return Vector(dx: 0, dy: applied)
    }

    func dragEngine(_ engine: DragEngine, activate target: TargetID, explicit: Bool) { activations += 1 }

    func dragEngine(_ engine: DragEngine, emitted event: FeedbackEvent) {
        events += 1
        if case .proposal = event { destinationChanges += 1 }
    }
}

/// The baseline engine loop: every move scans every target for the innermost destination,
/// spring-loaded header and scroll view containing the pointer (honouring the scroll views'
/// clipping), then does what the engine does with the answers: feedback when the destination
/// changes (with an insertion index for lists), spring loading after 0.7 s of hovering, and
/// autoscroll in the 48-point edge zones every 1/60 s, moving the scrolled targets' rectangles.
struct NaiveEngine {
    private var minX: ContiguousArray<Double> = []
    private var minY: ContiguousArray<Double> = []
    private var maxX: ContiguousArray<Double> = []
    private var maxY: ContiguousArray<Double> = []
    /// The clip rectangle's vertical span (the scroll view), or infinite.
    private var clipMinY: ContiguousArray<Double> = []
    private var clipMaxY: ContiguousArray<Double> = []
    private var depth: ContiguousArray<Int32> = []
    private var roles: ContiguousArray<UInt8> = []
    /// For scroll views: the range of their descendants (contiguous in registration order).
    private var descendants: [Int: Range<Int>] = [:]
    private var offsets: [Int: Double] = [:]
    private let contentLimit: Double
    private let origin: [(minY: Double, maxY: Double, clipMinY: Double, clipMaxY: Double)]

    static let destination: UInt8 = 1
    static let spring: UInt8 = 2
    static let scroll: UInt8 = 4
    static let list: UInt8 = 8

    private var current: Int32 = -1
    private var springTarget: Int32 = -1
    private var springSince = 0.0
    private var springFired = false
    private var lastScroll = 0.0
    private(set) var events = 0

    init(scene: BenchScene, viewport: Double) {
        var clips: [(Double, Double)] = []
        var origin: [(Double, Double, Double, Double)] = []
        var content = 0.0
        for (i, node) in scene.nodes.enumerated() {
            let f = node.frame
            minX.append(f.x)
            minY.append(f.y)
            maxX.append(f.x + f.width)
            maxY.append(f.y + f.height)
            var clip = node.parent >= 0 ? clips[Int(node.parent)] : (-Double.infinity, Double.infinity)
            if node.kind == .scroll { clip = (max(clip.0, f.y), min(clip.1, f.y + f.height)) }
            clips.append(clip)
            // A node's own clip is its parent's (a scroll view is not clipped by itself).
            let own = node.parent >= 0 ? clips[Int(node.parent)] : (-Double.infinity, Double.infinity)
            clipMinY.append(own.0)
            clipMaxY.append(own.1)
            origin.append((f.y, f.y + f.height, own.0, own.1))
            depth.append(Int32(scene.depth(of: i)))
            var r: UInt8 = 0
            if node.accepts { r |= Self.destination }
            if node.kind == .header { r |= Self.spring }
            if node.kind == .scroll { r |= Self.scroll }
            if node.kind == .list { r |= Self.list }
            if node.kind == .list, scene.nodes[Int(node.parent)].kind == .scroll { content = f.height }
            roles.append(r)
        }
        for (i, node) in scene.nodes.enumerated() where node.kind == .scroll {
            var end = i + 1
            while end < scene.nodes.count, Self.isDescendant(end, of: i, scene) { end += 1 }
            descendants[i] = (i + 1)..<end
            offsets[i] = 0
        }
        contentLimit = max(0, content - viewport)
        self.origin = origin
    }

    private static func isDescendant(_ node: Int, of ancestor: Int, _ scene: BenchScene) -> Bool {
        var p = scene.nodes[node].parent
        while p >= 0 {
            if Int(p) == ancestor { return true }
            p = scene.nodes[Int(p)].parent
        }
        return false
    }

    /// Back to the unscrolled layout, no destination.
    mutating func reset() {
        for i in origin.indices {
            minY[i] = origin[i].minY
            maxY[i] = origin[i].maxY
        }
        for key in offsets.keys { offsets[key] = 0 }
        current = -1
        springTarget = -1
        springFired = false
        events = 0
    }

    mutating func move(to p: Point, now: Double) {
        var best: (destination: Int32, spring: Int32, scroll: Int32) = (-1, -1, -1)
        var bestDepth: (Int32, Int32, Int32) = (-1, -1, -1)
        let x = p.x
        let y = p.y
        for k in 0..<minX.count
        where x >= minX[k] && y >= minY[k] && x < maxX[k] && y < maxY[k] && y >= clipMinY[k] && y < clipMaxY[k] {
            let r = roles[k]
            let d = depth[k]
            if r & Self.destination != 0, d >= bestDepth.0 { (best.destination, bestDepth.0) = (Int32(k), d) }
            if r & Self.spring != 0, d >= bestDepth.1 { (best.spring, bestDepth.1) = (Int32(k), d) }
            if r & Self.scroll != 0, d >= bestDepth.2 { (best.scroll, bestDepth.2) = (Int32(k), d) }
        }
        if best.destination != current {
            current = best.destination
            events += 1
            if current >= 0, roles[Int(current)] & Self.list != 0 {
                // The insertion index, by the same arithmetic as the engine's app.
                events += Int(((y - minY[Int(current)]) / BenchScene.BoardMetrics.cardPitch).rounded())
            }
        }
        if best.spring != springTarget {
            springTarget = best.spring
            springSince = now
            springFired = false
        } else if springTarget >= 0, !springFired, now - springSince >= 0.7 {
            springFired = true
            events += 1
        }
        if best.scroll >= 0 {
            let s = Int(best.scroll)
            let inZone = y >= maxY[s] - 48 || y < minY[s] + 48
            if inZone, now - lastScroll >= 1.0 / 60 {
                lastScroll = now
                let down = y >= maxY[s] - 48
                let old = offsets[s] ?? 0
                let new = min(contentLimit, max(0, old + (down ? 10 : -10)))
                let applied = new - old
                if applied != 0, let range = descendants[s] {
                    offsets[s] = new
                    for k in range {
                        minY[k] -= applied
                        maxY[k] -= applied
                    }
                }
            }
        }
    }
}
