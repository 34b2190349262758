import BenchGeometry
@_spi(Benchmarks) import DragDrop

/// The engine's side of a ``BenchGeometry/BenchScene``: one ``DragTarget`` per node.
enum SceneTargets {
    static let cardType: ContentType = "application/x-card"

    /// Type lists shared by every target, as an app would share them (one array, not one per
    /// target).
    static let cardTypes = [cardType]

    /// The identifier of node `i`: short, so it is stored inline (no heap string).
    static func id(_ i: Int) -> TargetID { TargetID("t\(i)") }

    /// The target for node `i` of `scene`. `clipsScrollViews` makes scroll views clip their
    /// content, as real ones do (the lookup scenes leave it off so that the linear scan, which
    /// knows nothing of clipping, must find the same answers).
    static func target(_ scene: BenchScene, _ i: Int, clipsScrollViews: Bool = false) -> DragTarget {
        let node = scene.nodes[i]
        let f = node.frame
        var t = DragTarget(
            id: id(i), name: "Node \(i)", frame: Rect(x: f.x, y: f.y, width: f.width, height: f.height),
            parent: node.parent >= 0 ? id(Int(node.parent)) : nil)
        switch node.kind {
        case .window, .container: break
        case .column: t.accepts = cardTypes
        case .header: t.springLoading = SpringLoadingConfiguration()
        case .scroll:
            t.autoscroll = AutoscrollConfiguration()
            t.clipsChildren = clipsScrollViews
        case .list:
            t.accepts = cardTypes
            t.insertion = .vertical
        case .card:
            t.accepts = cardTypes
            t.offers = cardTypes
        }
        return t
    }

    /// A registry holding every node of `scene`.
    static func registry(_ scene: BenchScene) throws -> TargetRegistry {
        var registry = TargetRegistry(localApp: "Bench")
        for i in scene.nodes.indices { try registry.register(target(scene, i)) }
        return registry
    }

    /// The index of the first card of `scene`.
    static func firstCard(_ scene: BenchScene) -> Int { scene.nodes.firstIndex { $0.kind == .card }! }
}

/// The baseline for lookups: what a scan-based library such as dnd-kit does on every pointer
/// move. dnd-kit keeps every droppable's rectangle and, for each pointer position, tests every
/// one of them (`pointerWithin`: is the pointer inside this rect?), then picks among the hits.
/// Here the picking is "innermost wins" (deepest, and the later one among equals), so it returns
/// the same destination as the engine on these scenes (checked before timing). It is a lean
/// scan: contiguous arrays of the droppables only, no allocation, no sorting, so it is a floor
/// for what scanning costs, not a reproduction of JavaScript's overheads.
struct LinearScan {
    private var minX: ContiguousArray<Double> = []
    private var minY: ContiguousArray<Double> = []
    private var maxX: ContiguousArray<Double> = []
    private var maxY: ContiguousArray<Double> = []
    private var depth: ContiguousArray<Int32> = []
    /// The scene node of each droppable.
    private(set) var node: ContiguousArray<Int32> = []

    init(_ scene: BenchScene) {
        for i in scene.nodes.indices where scene.nodes[i].accepts {
            append(node: i, frame: scene.nodes[i].frame, depth: scene.depth(of: i))
        }
    }

    init() {}

    var count: Int { node.count }

    mutating func append(node i: Int, frame f: Box, depth d: Int) {
        minX.append(f.x)
        minY.append(f.y)
        maxX.append(f.x + f.width)
        maxY.append(f.y + f.height)
        depth.append(Int32(d))
        node.append(Int32(i))
    }

    mutating func removeAll(keepingCapacity: Bool) {
        minX.removeAll(keepingCapacity: keepingCapacity)
        minY.removeAll(keepingCapacity: keepingCapacity)
        maxX.removeAll(keepingCapacity: keepingCapacity)
        maxY.removeAll(keepingCapacity: keepingCapacity)
        depth.removeAll(keepingCapacity: keepingCapacity)
        node.removeAll(keepingCapacity: keepingCapacity)
    }

    /// Moves droppable `k` by `dy` (a scroll).
    mutating func offset(_ k: Int, dy: Double) {
        minY[k] += dy
        maxY[k] += dy
    }

    /// The scene node of the innermost droppable containing the point, or -1.
    func destination(_ x: Double, _ y: Double) -> Int32 {
        var best: Int32 = -1
        var bestDepth: Int32 = -1
        minX.withUnsafeBufferPointer { minX in
            minY.withUnsafeBufferPointer { minY in
                maxX.withUnsafeBufferPointer { maxX in
                    maxY.withUnsafeBufferPointer { maxY in
                        depth.withUnsafeBufferPointer { depth in
                            for k in 0..<minX.count
                            where x >= minX[k] && y >= minY[k] && x < maxX[k] && y < maxY[k] && depth[k] >= bestDepth {
                                best = Int32(k)
                                bestDepth = depth[k]
                            }
                        }
                    }
                }
            }
        }
        return best < 0 ? -1 : node[Int(best)]
    }
}
