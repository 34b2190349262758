import DragDrop

/// What a scene node is.
public enum NodeRole: String, Sendable, Codable, Hashable {
    /// A window or panel: only groups other nodes.
    case group
    /// A list, grid or canvas holding items; usually a destination.
    case container
    /// A draggable item inside a container; a folder when it accepts drops.
    case item
    /// A place that takes drops but holds no items (an upload control, a recipient field).
    case dropPoint
    /// A button or segment; spring-loaded when it has spring loading.
    case control
}

/// One node of a test scene: a window, container, item, drop point or control.
public struct SceneNode: Sendable {
    public var id: TargetID
    public var name: String
    public var role: NodeRole
    /// Explicit frame; items in a container with a layout get theirs from the layout.
    public var frame: Rect?
    public var app: AppID?
    public var accepts: [ContentType] = []
    public var offers: [ContentType] = []
    public var kind: Noun = .item
    /// False for read-only content: it drags out as a copy (``DragTarget/isMovable``).
    public var isMovable = true
    public var layout: InsertionLayout?
    /// Row height (vertical), column width (horizontal) or item size (grid) for laid-out items.
    public var itemSize = Size(width: 0, height: 40)
    public var spacing: Double = 0
    public var padding: Double = 0
    public var policy: OperationPolicy = .automatic
    public var springLoading: SpringLoadingConfiguration?
    public var autoscroll: AutoscrollConfiguration?
    /// Height of the scrollable content (scroll containers only).
    public var contentHeight: Double?
    public var clipsChildren = false
    public var isHidden = false
    /// A drop here asks this question first (U2) and cannot be undone.
    public var confirmation: String?
    /// A drop here fails with this reason (an interrupted transfer).
    public var failure: String?
    /// A drop here offers this way to take it back (U3), for example "Stop Sharing"; such drops
    /// cannot be undone.
    public var cancellationTitle: String?
    /// A drop here loads slowly: placeholders appear at once and the items arrive when the
    /// simulated transfer ends (A4-A6).
    public var transfer: SimulatedTransfer?
    /// Nodes shown and hidden when this control activates (spring loading or click).
    public var showsOnActivate: [TargetID] = []
    public var hidesOnActivate: [TargetID] = []
    public var children: [SceneNode] = []

    public init(id: TargetID, name: String, role: NodeRole, frame: Rect? = nil) {
        self.id = id
        self.name = name
        self.role = role
        self.frame = frame
    }
}

/// Errors in building or changing a scene.
public enum SceneError: Error, Equatable, CustomStringConvertible {
    case duplicateID(TargetID, path: String)
    case missingFrame(TargetID, path: String)
    case itemOutsideContainer(TargetID, path: String)
    case unknownTarget(TargetID, path: String)
    case registry(String, path: String)

    public var description: String {
        switch self {
        case .duplicateID(let id, let path): "\(path): the id '\(id)' is used twice; ids must be unique."
        case .missingFrame(let id, let path):
            "\(path): '\(id)' needs a frame (only items of a container with a layout get one from it)."
        case .itemOutsideContainer(let id, let path): "\(path): item '\(id)' must be inside a container or a folder item."
        case .unknownTarget(let id, let path): "\(path): no node named '\(id)'."
        case .registry(let message, let path): "\(path): \(message)"
        }
    }
}

/// A transfer simulated on the virtual clock: progress in even steps over `duration`, failing
/// at `failAt` (a fraction) when set.
public struct SimulatedTransfer: Sendable, Hashable {
    /// How long the data takes to arrive.
    public var duration: Duration
    /// How many progress reports.
    public var steps: Int
    /// Where the transfer breaks (0...1), if it does.
    public var failAt: Double?

    /// Creates a simulated transfer.
    public init(duration: Duration, steps: Int = 4, failAt: Double? = nil) {
        self.duration = duration
        self.steps = max(1, steps)
        self.failAt = failAt
    }
}

/// A live test scene: the model of an app's containers, items and controls, kept registered in
/// a ``DragEngine``, and changed by drops exactly as a real app would (insert on commit, remove
/// moved items afterwards, undo by restoring exact positions).
public final class Scene {
    /// The current tree (items reorder, move and appear as drops happen).
    public private(set) var roots: [SceneNode]
    /// The current scroll offset of each scroll container.
    public private(set) var scrollOffsets: [TargetID: Double] = [:]
    /// Item ids selected for dragging together (M1), in selection order.
    public var selection: [TargetID] = []
    private var copyCounter = 0
    private var registered: Set<TargetID> = []

    /// Builds a scene from its root nodes, checking ids are unique and frames present.
    public init(_ roots: [SceneNode]) throws(SceneError) {
        self.roots = roots
        var seen = Set<TargetID>()
        for (i, root) in roots.enumerated() { try Self.check(root, path: "scene[\(i)]", parent: nil, seen: &seen) }
        for node in allNodes where node.contentHeight != nil { scrollOffsets[node.id] = 0 }
    }

    private static func check(_ node: SceneNode, path: String, parent: SceneNode?, seen: inout Set<TargetID>)
        throws(SceneError)
    {
        guard seen.insert(node.id).inserted else { throw .duplicateID(node.id, path: path) }
        if node.role == .item, parent?.role != .container, parent?.role != .item {
            throw .itemOutsideContainer(node.id, path: path)
        }
        // Items get their frame from their parent's layout: a container's, or a folder's (an item
        // with a layout), as the scenario format allows.
        if node.frame == nil, !(node.role == .item && (parent?.role == .container || parent?.layout != nil)) {
            throw .missingFrame(node.id, path: path)
        }
        for (i, child) in node.children.enumerated() {
            try check(child, path: "\(path).children[\(i)] '\(child.id)'", parent: node, seen: &seen)
        }
    }

    // MARK: Reading the model

    /// Every node, depth first in paint order (parents before children, earlier siblings first).
    public var allNodes: [SceneNode] {
        var result: [SceneNode] = []
        func walk(_ n: SceneNode) {
            result.append(n)
            n.children.forEach(walk)
        }
        roots.forEach(walk)
        return result
    }

    /// The node named `id`.
    public func node(_ id: TargetID) -> SceneNode? { find(id).map { $0.node } }

    /// The ids of `id`'s ancestors, nearest first.
    public func ancestors(of id: TargetID) -> [TargetID] {
        guard let path = find(id)?.path else { return [] }
        var result: [TargetID] = []
        var nodes = roots
        var chain: [TargetID] = []
        for index in path {
            let n = nodes[index]
            chain.append(n.id)
            nodes = n.children
        }
        chain.removeLast()
        result = chain.reversed()
        return result
    }

    /// The current frame of every node, laid out (items in containers, scroll offsets applied).
    public func layoutFrames() -> [TargetID: Rect] {
        var frames: [TargetID: Rect] = [:]
        func walk(_ n: SceneNode, _ frame: Rect) {
            frames[n.id] = frame
            let offset = scrollOffsets[n.id] ?? 0
            let laidOut = n.layout.map { layoutItems(in: n, frame: frame, layout: $0) } ?? [:]
            for child in n.children {
                var childFrame = laidOut[child.id] ?? child.frame ?? .zero
                if laidOut[child.id] == nil { childFrame = childFrame.offset(by: Vector(dx: 0, dy: -offset)) }
                walk(child, childFrame)
            }
        }
        for root in roots { walk(root, root.frame ?? .zero) }
        return frames
    }

    private func layoutItems(in n: SceneNode, frame: Rect, layout: InsertionLayout) -> [TargetID: Rect] {
        var result: [TargetID: Rect] = [:]
        let offset = scrollOffsets[n.id] ?? 0
        let items = n.children.filter { $0.role == .item }
        let inner = frame.insetBy(dx: n.padding, dy: n.padding)
        let w = n.itemSize.width > 0 ? n.itemSize.width : inner.width
        let h = n.itemSize.height
        let columns = max(1, Int((inner.width + n.spacing) / (w + n.spacing)))
        for (i, item) in items.enumerated() {
            let x: Double
            let y: Double
            switch layout {
            case .vertical:
                x = inner.minX
                y = inner.minY + Double(i) * (h + n.spacing)
            case .horizontal:
                x = inner.minX + Double(i) * (w + n.spacing)
                y = inner.minY
            case .grid:
                x = inner.minX + Double(i % columns) * (w + n.spacing)
                y = inner.minY + Double(i / columns) * (h + n.spacing)
            }
            result[item.id] = Rect(x: x, y: y - offset, width: w, height: h)
        }
        return result
    }

    /// The item ids of each container and folder, and what each drop point received: the data
    /// a drop changes, for asserting outcomes and undo.
    public func snapshot() -> [TargetID: [TargetID]] {
        var result: [TargetID: [TargetID]] = [:]
        for n in allNodes where n.role == .container || n.role == .dropPoint || (n.role == .item && !n.accepts.isEmpty) {
            result[n.id] = n.children.filter { $0.role == .item }.map(\.id)
        }
        return result
    }

    /// Whether `id` and all its ancestors are shown.
    public func isShown(_ id: TargetID) -> Bool {
        guard let n = node(id), !n.isHidden else { return false }
        return ancestors(of: id).allSatisfy { node($0)?.isHidden == false }
    }

    // MARK: Registration

    /// Registers every shown and hidden node with `engine`, replacing what this scene registered
    /// before. Called after every change to the model.
    public func sync(into engine: DragEngine) throws(SceneError) {
        for root in roots where registered.contains(root.id) {
            do { try engine.unregister(root.id) } catch { throw .registry(error.description, path: "sync") }
        }
        registered.removeAll()
        let frames = layoutFrames()
        func register(_ n: SceneNode, parent: TargetID?) throws(SceneError) {
            var t = DragTarget(id: n.id, name: n.name, frame: frames[n.id] ?? .zero, parent: parent)
            t.app = n.app
            t.accepts = n.accepts
            t.offers = n.offers
            t.kind = n.kind
            t.isMovable = n.isMovable
            t.insertion = n.layout
            t.operationPolicy = n.policy
            t.springLoading = n.springLoading
            t.autoscroll = n.autoscroll
            t.clipsChildren = n.clipsChildren || n.contentHeight != nil
            t.isHidden = n.isHidden
            t.confirmation = n.confirmation
            do { try engine.register(t) } catch { throw .registry(error.description, path: "sync '\(n.id)'") }
            for child in n.children { try register(child, parent: n.id) }
        }
        for root in roots {
            try register(root, parent: nil)
            registered.insert(root.id)
        }
    }

    // MARK: Changes

    /// Shows and hides what a control reveals when it activates (spring loading or a click).
    public func activate(_ id: TargetID) {
        guard let n = node(id) else { return }
        for shown in n.showsOnActivate { mutate(shown) { $0.isHidden = false } }
        for hidden in n.hidesOnActivate { mutate(hidden) { $0.isHidden = true } }
    }

    /// Scrolls a scroll container, clamped to its content; returns the delta applied.
    public func scroll(_ id: TargetID, by delta: Vector) -> Vector {
        guard let n = node(id), let content = n.contentHeight, let frame = n.frame else { return .zero }
        let current = scrollOffsets[id] ?? 0
        let limit = max(0, content - frame.height)
        let next = min(limit, max(0, current + delta.dy))
        scrollOffsets[id] = next
        return Vector(dx: 0, dy: next - current)
    }

    /// The insertion index for a drop at `point` in a laid-out container (end when nil).
    public func insertionIndex(in container: TargetID, at point: Point?) -> Int? {
        guard let n = node(container), let layout = n.layout else { return nil }
        let items = n.children.filter { $0.role == .item }
        guard let point else { return items.count }
        let frames = layoutFrames()
        return InsertionIndex.compute(layout: layout, frames: items.map { frames[$0.id] ?? .zero }, point: point)
    }

    /// The items a drag starting on `item` carries: the selection if it includes `item` (M1).
    public func itemsForDrag(startingAt item: TargetID) -> [TargetID] {
        selection.contains(item) ? selection : [item]
    }

    /// Performs a drop as an app would: inserts the items (copies get new ids), and returns how
    /// to undo it; fails, changing nothing, where the node is set to fail.
    public func perform(_ request: DropRequest) -> DropResult {
        guard let dest = node(request.destination) else {
            return .failed(DropFailure(.failed, "'\(request.destination)' no longer exists."))
        }
        if dest.transfer == nil, let failure = dest.failure { return .failed(DropFailure(.failed, failure)) }
        let before = dest.children
        let at = childPosition(forItemIndex: request.index, in: before)
        if dest.transfer != nil {
            // A slow transfer: placeholders at the drop index at once (A4).
            let placeholders = request.items.indices.map { i in
                SceneNode(id: TargetID("placeholder-\(request.token.rawValue)-\(i + 1)"), name: "Loading…", role: .item)
            }
            mutate(dest.id) { $0.children.insert(contentsOf: placeholders, at: at) }
            deferred[request.token] = (request, before, at)
            return .deferred(placeholders: placeholders.count)
        }
        return insert(request, into: dest, before: before, at: at)
    }

    /// The simulated transfer of a deferred drop ended: the placeholders become the items, or
    /// go away with the reason (A6). Returns what to tell the engine.
    public func finishDeferred(_ token: DropToken, succeeded: Bool) -> DropResult? {
        guard let (request, before, at) = deferred.removeValue(forKey: token), let dest = node(request.destination)
        else { return nil }
        let prefix = "placeholder-\(token.rawValue)-"
        mutate(dest.id) { $0.children.removeAll { $0.id.rawValue.hasPrefix(prefix) } }
        guard succeeded else {
            return .failed(DropFailure(.failed, dest.failure ?? "The transfer was interrupted."))
        }
        return insert(request, into: dest, before: before, at: at)
    }

    /// A deferred drop was cancelled while loading: its placeholders go, nothing else changes.
    public func cancelDeferred(_ token: DropToken) {
        guard let (request, _, _) = deferred.removeValue(forKey: token) else { return }
        let prefix = "placeholder-\(token.rawValue)-"
        mutate(request.destination) { $0.children.removeAll { $0.id.rawValue.hasPrefix(prefix) } }
    }

    /// The drops waiting for their simulated transfer.
    public var deferredDrops: [DropToken] { deferred.keys.sorted { $0.rawValue < $1.rawValue } }

    private var deferred: [DropToken: (DropRequest, [SceneNode], Int)] = [:]

    /// The index in `children` where the item at `index` (among items only) goes.
    private func childPosition(forItemIndex index: Int?, in children: [SceneNode]) -> Int {
        let positions = children.indices.filter { children[$0].role == .item }
        let itemIndex = min(index ?? positions.count, positions.count)
        return itemIndex < positions.count ? positions[itemIndex] : (positions.last.map { $0 + 1 } ?? children.count)
    }

    /// Inserts the dropped items at `at` (copies get new ids) and returns the committed result,
    /// undoable back to `before`.
    private func insert(_ request: DropRequest, into dest: SceneNode, before: [SceneNode], at: Int) -> DropResult {
        var arriving: [SceneNode] = []
        for item in request.items {
            var copy = node(item.id) ?? SceneNode(id: item.id, name: item.name, role: .item)
            copy.role = .item
            copy.frame = nil
            if request.operation != .move || item.sourceContainer == nil { copy = renamedCopy(copy) }
            copy.offers = copy.offers.isEmpty ? item.types : copy.offers
            copy.kind = item.kind
            arriving.append(copy)
        }
        mutate(dest.id) { $0.children.insert(contentsOf: arriving, at: min(at, $0.children.count)) }
        lastArrival = (dest.id, at..<(at + arriving.count))
        let after = node(dest.id)?.children ?? []
        // A destination that asks first (U2) or offers a way out afterwards (U3) is one where
        // undo is impossible: its drops register no undo.
        let irreversible = dest.confirmation != nil || dest.cancellationTitle != nil
        let undo =
            irreversible
            ? nil
            : UndoableAction(
                undo: { [weak self] in self?.mutate(dest.id) { $0.children = before } },
                redo: { [weak self] in self?.mutate(dest.id) { $0.children = after } })
        var cancellation: DropCancellation?
        if let title = dest.cancellationTitle {
            cancellation = DropCancellation(title: title) { [weak self] in self?.mutate(dest.id) { $0.children = before } }
        }
        return .committed(undo: undo, cancellation: cancellation)
    }

    /// Where the last drop inserted its items, so a move can tell them from the originals.
    private var lastArrival: (host: TargetID, range: Range<Int>)?

    /// Removes moved items from their sources after the destination committed them (S4).
    public func removeMoved(_ items: [DragItem]) -> UndoableAction? {
        let ids = Set(items.map(\.id))
        let arrival = lastArrival
        lastArrival = nil
        var befores: [(TargetID, [SceneNode])] = []
        var afters: [(TargetID, [SceneNode])] = []
        // Every host holding an original: remove the originals, keep the arrivals.
        for n in allNodes where n.children.contains(where: { ids.contains($0.id) }) {
            befores.append((n.id, n.children))
            let arrived = n.id == arrival?.host ? arrival?.range ?? 0..<0 : 0..<0
            let kept = n.children.enumerated().filter { i, child in !ids.contains(child.id) || arrived.contains(i) }
                .map(\.element)
            mutate(n.id) { $0.children = kept }
            afters.append((n.id, kept))
        }
        guard !befores.isEmpty else { return nil }
        return UndoableAction(
            undo: { [weak self] in for (id, children) in befores { self?.mutate(id) { $0.children = children } } },
            redo: { [weak self] in for (id, children) in afters { self?.mutate(id) { $0.children = children } } })
    }

    private func renamedCopy(_ node: SceneNode) -> SceneNode {
        var copy = node
        repeat {
            copyCounter += 1
            copy.id = TargetID("\(node.id.rawValue)-copy\(copyCounter)")
        } while self.node(copy.id) != nil
        copy.children = copy.children.map(renamedCopy)
        return copy
    }

    // MARK: Tree plumbing

    private func find(_ id: TargetID) -> (node: SceneNode, path: [Int])? {
        func search(_ nodes: [SceneNode], _ path: [Int]) -> (SceneNode, [Int])? {
            for (i, n) in nodes.enumerated() {
                if n.id == id { return (n, path + [i]) }
                if let found = search(n.children, path + [i]) { return found }
            }
            return nil
        }
        return search(roots, [])
    }

    private func mutate(_ id: TargetID, _ change: (inout SceneNode) -> Void) {
        guard let path = find(id)?.path else { return }
        func apply(_ nodes: inout [SceneNode], _ path: ArraySlice<Int>) {
            guard let first = path.first else { return }
            if path.count == 1 {
                change(&nodes[first])
            } else {
                apply(&nodes[first].children, path.dropFirst())
            }
        }
        apply(&roots, path[...])
    }
}
