import BenchmarkSupport
import DragDrop
import DragDropTesting
import Foundation

/// Issue 23, T7: a pointer move over an outline of 100,000 items (wide: 1,000 mailboxes of 99;
/// deep: 5,000 chains 20 levels deep; every row open) costs what it costs over a flat list of
/// 100,000 rows. Both are model-backed as a virtualized view registers them: the 40 rows on
/// screen (from row 50,000) are registered, the rest live in the model; one row with nothing
/// inside it is dragged.
/// The same path of moves, across the rows and the depths, in both; the baseline is the same
/// engine over the flat list, whose insertion index comes from the model's frames.
enum OutlineScenario {
    static let count = 100_000
    static let shown = 40
    static let first = 50_000
    static let rowHeight = 24.0
    static let type: ContentType = "application/x-bench-mailbox"

    static func run(_ suite: Suite) throws {
        suite.log("Outline: pointer moves over 100,000 items (T7)")
        let flat = try measure(suite, tree: nil)
        // DRAGDROP_BENCH_OUTLINE=wide (or deep) measures one shape only (for a profiler).
        let only = ProcessInfo.processInfo.environment["DRAGDROP_BENCH_OUTLINE"]
        for (shape, make) in [("wide", wide), ("deep", deep)] where only == nil || only == shape {
            let tree = make()
            let outline = try measure(suite, tree: tree)
            suite.add(
                Row(
                    scenario: "Outline, 100k items (\(shape), all open): one pointer move over the rows",
                    ours: Format.duration(outline.median), oursP99: Format.duration(outline.p99),
                    baseline: "the same moves over a flat list of 100k rows",
                    baselineMedian: Format.duration(flat.median), baselineP99: Format.duration(flat.p99),
                    ratio: Format.ratio(flat.median / outline.median),
                    target: Verdict.check(outline.median <= 1.25 * flat.median, "median ≤ 1.25× the flat list")))
        }
    }

    /// 1,000 mailboxes of 99 each.
    static func wide() -> OutlineTree {
        var tree = OutlineTree()
        for m in 0..<1_000 {
            let box = TargetID("m\(m)")
            try? tree.append(box, name: "Mailbox \(m)", canHoldChildren: true)
            for c in 0..<99 {
                try? tree.append(TargetID("m\(m)-\(c)"), name: "Item \(c)", under: box, canHoldChildren: true)
            }
        }
        tree.expanded = Set(tree.containers)
        return tree
    }

    /// 5,000 chains of 20 nested mailboxes.
    static func deep() -> OutlineTree {
        var tree = OutlineTree()
        for c in 0..<5_000 {
            var parent: TargetID?
            for level in 0..<20 {
                let id = TargetID("c\(c)-\(level)")
                try? tree.append(id, name: "Level \(level)", under: parent, canHoldChildren: true)
                parent = id
            }
        }
        tree.expanded = Set(tree.containers)
        return tree
    }

    /// The median and p99 of one pointer move along a path over the rows on screen, with `tree`
    /// as an outline, or (nil) over a flat list of as many rows.
    static func measure(_ suite: Suite, tree: OutlineTree?) throws -> Stats {
        let clock = VirtualClock()
        let engine = DragEngine(app: "Mail", clock: clock)
        let app = OutlineBenchApp(tree: tree)
        engine.delegate = app
        try engine.register(DragTarget(id: "window", name: "Mail", frame: Rect(x: 0, y: 0, width: 800, height: 1_000)))
        var list = DragTarget(
            id: "list", name: "Mailboxes", frame: Rect(x: 0, y: 0, width: 400, height: Double(shown) * rowHeight),
            parent: "window")
        list.accepts = [type]
        list.insertion = .vertical
        list.modelItems = ModelItems(offers: [type])
        if tree != nil { list.outline = OutlineLayout(indent: 16) }
        try engine.register(list)
        let outlineRows = tree?.rows()
        let ids = outlineRows?.map(\.id) ?? (0..<count).map { TargetID("r\($0)") }
        app.ids = ids
        for position in first..<(first + shown) {
            var row = DragTarget(
                id: ids[position], name: "Row \(position)",
                frame: Rect(x: 0, y: Double(position - first) * rowHeight, width: 400, height: rowHeight),
                parent: "list")
            row.offers = [type]
            try engine.register(row)
        }
        // Lift the first row on screen with nothing inside it (so the path crosses rows the
        // drop may go to, not a dragged subtree), then wander across the rows and the depths.
        let rows = outlineRows
        let lifted =
            (first..<(first + shown)).first { p in
                guard let rows else { return true }
                return p + 1 >= rows.count || rows[p + 1].depth <= rows[p].depth
            } ?? first
        let liftY = (Double(lifted - first) + 0.5) * rowHeight
        engine.pointerDown(at: Point(x: 200, y: liftY))
        engine.pointerMoved(to: Point(x: 200, y: liftY + 6))
        var path: [Point] = []
        for step in 0..<400 {
            let y = Double((step * 37) % (shown * Int(rowHeight)))
            let x = Double((step * 13) % 330) + 4
            path.append(Point(x: x, y: y))
        }
        let stats = Bench.measure(suite.plan(warmup: 200, samples: 20_000, minimumSamples: 400, budget: 1.5)) { i in
            engine.pointerMoved(to: path[i % path.count])
        }
        precondition(tree == nil || app.outlinePoints > 0, "the outline placed no drop")
        _ = engine.cancelDrag()
        suite.log(
            "    \(tree == nil ? "flat list" : "outline"): median \(Format.duration(stats.median)), p99 \(Format.duration(stats.p99)), \(allocs(stats)) allocations a move"
        )
        return stats
    }
}

/// The app behind the scenario: the tree (an outline) or the flat list's model frames.
final class OutlineBenchApp: DragEngineDelegate {
    let tree: OutlineTree?
    var ids: [TargetID] = []
    var outlinePoints = 0

    init(tree: OutlineTree?) { self.tree = tree }

    func dragEngine(_ engine: DragEngine, outlineOf container: TargetID) -> OutlineTree? { tree }

    func dragEngine(_ engine: DragEngine, insertionIndexIn container: TargetID, at point: Point?) -> Int? {
        // A virtualized list's index: from the model's frames, by binary search (as
        // DragCollectionView does).
        guard let point else { return ids.count }
        let frames = (0..<ids.count).lazy.map {
            Rect(
                x: 0, y: Double($0 - OutlineScenario.first) * OutlineScenario.rowHeight, width: 400,
                height: OutlineScenario.rowHeight)
        }
        return InsertionIndex.compute(layout: .vertical, frames: frames, point: point)
    }

    func dragEngine(_ engine: DragEngine, nameOfItem item: TargetID, in container: TargetID) -> String? {
        item.rawValue
    }

    func dragEngine(_ engine: DragEngine, perform drop: DropRequest) -> DropResult { .committed(undo: nil) }

    func dragEngine(_ engine: DragEngine, emitted event: FeedbackEvent) {
        if case .outlineDrop(_, .some) = event { outlinePoints += 1 }
    }
}
