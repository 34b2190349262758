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
    /// With the move modifier, another app's content moves here (``DragTarget/takesMovesFromOtherApps``).
    public var takesMovesFromOtherApps = false
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
    public private(set) var roots: [SceneNode] { didSet { revision &+= 1 } }
    /// The current scroll offset of each scroll container.
    public private(set) var scrollOffsets: [TargetID: Double] = [:] { didSet { revision &+= 1 } }
    /// Changes whenever the tree or a scroll offset changes (a drop, undo, a list shown, a
    /// scroll): checkers that read the scene recompute only when it moved on.
    public private(set) var revision = 0
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
        // Everything registered before goes, even after a sync that failed halfway (its root is
        // recorded before its subtree is registered), so one bad sync does not poison the next.
        for id in registered.sorted() where engine.registry.contains(id) {
            do { try engine.unregister(id) } catch { throw .registry(error.description, path: "sync") }
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
            t.takesMovesFromOtherApps = n.takesMovesFromOtherApps
            t.springLoading = n.springLoading
            t.autoscroll = n.autoscroll
            t.clipsChildren = n.clipsChildren || n.contentHeight != nil
            t.isHidden = n.isHidden
            t.confirmation = n.confirmation
            do { try engine.register(t) } catch { throw .registry(error.description, path: "sync '\(n.id)'") }
            for child in n.children { try register(child, parent: n.id) }
        }
        for root in roots {
            registered.insert(root.id)
            try register(root, parent: nil)
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

    /// The items a drag starting on `item` carries: the selection if it includes `item` (M1).
    public func itemsForDrag(startingAt item: TargetID) -> [TargetID] {
        selection.contains(item) ? selection : [item]
    }

    /// Performs a drop as an app would: inserts the items (copies get new ids) at the drop index,
    /// and returns how to undo exactly that; fails, changing nothing, where the node is set to
    /// fail. A destination with a `transfer` shows placeholders instead and completes later
    /// (``finishDeferred(_:succeeded:)``).
    public func perform(_ request: DropRequest) -> DropResult {
        guard let dest = node(request.destination) else {
            return .failed(DropFailure(.failed, "'\(request.destination)' no longer exists."))
        }
        if dest.transfer == nil, let failure = dest.failure { return .failed(DropFailure(.failed, failure)) }
        let at = childPosition(forItemIndex: request.index, in: dest.children)
        if dest.transfer != nil {
            // A slow transfer: placeholders at the drop index at once (A4). They are not data:
            // undo and redo never touch them, and the items arrive where they are then.
            let placeholders = request.items.indices.map { i in
                SceneNode(id: TargetID("placeholder-\(request.token.rawValue)-\(i + 1)"), name: "Loading…", role: .item)
            }
            mutate(dest.id) { $0.children.insert(contentsOf: placeholders, at: min(at, $0.children.count)) }
            for p in placeholders { placeholderTokens[p.id] = request.token }
            deferred[request.token] = request
            return .deferred(placeholders: placeholders.count)
        }
        return insert(request, into: dest.id, at: at)
    }

    /// The simulated transfer of a deferred drop ended: the placeholders become the items, where
    /// the placeholders are now (other drops and undo may have moved them), or go away with the
    /// reason (A6). Returns what to tell the engine; a destination that no longer exists (its
    /// folder was undone meanwhile) fails the drop, losing nothing.
    func finishDeferred(_ token: DropToken, succeeded: Bool) -> DropResult? {
        guard let request = deferred.removeValue(forKey: token) else { return nil }
        let placeholderPosition = removePlaceholders(of: token)
        guard let dest = node(request.destination) else {
            return .failed(DropFailure(.failed, "'\(request.destination)' is no longer there."))
        }
        guard succeeded else {
            return .failed(DropFailure(.failed, dest.failure ?? "The transfer was interrupted."))
        }
        let at =
            placeholderPosition.flatMap { $0.host == dest.id ? $0.index : nil }
            ?? childPosition(forItemIndex: request.index, in: dest.children)
        return insert(request, into: dest.id, at: at)
    }

    /// A deferred drop was cancelled while loading: its placeholders go, nothing else changes.
    public func cancelDeferred(_ token: DropToken) {
        guard deferred.removeValue(forKey: token) != nil else { return }
        removePlaceholders(of: token)
    }

    /// The drops waiting for their simulated transfer.
    public var deferredDrops: [DropToken] { deferred.keys.sorted { $0.rawValue < $1.rawValue } }

    /// Whether `id` names a placeholder of a drop still loading, or one that was.
    public func isPlaceholder(_ id: TargetID) -> Bool { placeholderTokens[id] != nil }

    private var deferred: [DropToken: DropRequest] = [:]
    /// Every placeholder made, with its drop.
    private var placeholderTokens: [TargetID: DropToken] = [:]

    /// Placeholders are not data but the view of the loads in progress, as an app draws them:
    /// after undo, redo or a cancellation moved nodes around, each load still running shows
    /// exactly its placeholders in its destination (where they were, else at its drop index),
    /// and no other placeholder is left.
    private func reconcilePlaceholders() {
        var seen = Set<TargetID>()
        func clean(_ n: SceneNode) -> SceneNode {
            var copy = n
            copy.children = n.children.compactMap { child in
                if let token = placeholderTokens[child.id] {
                    guard deferred[token] != nil, seen.insert(child.id).inserted else { return nil }
                }
                return clean(child)
            }
            return copy
        }
        roots = roots.map(clean)
        for (token, request) in deferred.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            let ids = request.items.indices.map { TargetID("placeholder-\(token.rawValue)-\($0 + 1)") }
            let missing = ids.filter { !seen.contains($0) }
            guard !missing.isEmpty, let dest = node(request.destination) else { continue }
            let present = dest.children.firstIndex { placeholderTokens[$0.id] == token }
            let at = present ?? childPosition(forItemIndex: request.index, in: dest.children)
            let nodes = missing.map { SceneNode(id: $0, name: "Loading…", role: .item) }
            mutate(dest.id) { $0.children.insert(contentsOf: nodes, at: min(at, $0.children.count)) }
        }
    }

    /// Removes the placeholders of `token` wherever they are; returns where the first one was.
    @discardableResult
    private func removePlaceholders(of token: DropToken) -> (host: TargetID, index: Int)? {
        let prefix = "placeholder-\(token.rawValue)-"
        var found: (host: TargetID, index: Int)?
        for n in allNodes {
            guard let i = n.children.firstIndex(where: { $0.id.rawValue.hasPrefix(prefix) }) else { continue }
            if found == nil { found = (n.id, i) }
            mutate(n.id) { $0.children.removeAll { $0.id.rawValue.hasPrefix(prefix) } }
        }
        return found
    }

    /// Whether a child is an item of the data (not a placeholder).
    private func isRealItem(_ n: SceneNode) -> Bool { n.role == .item && placeholderTokens[n.id] == nil }

    /// The index in `children` where the item at `index` (among items, placeholders included:
    /// what the person sees) goes.
    private func childPosition(forItemIndex index: Int?, in children: [SceneNode]) -> Int {
        let positions = children.indices.filter { children[$0].role == .item }
        let itemIndex = min(index ?? positions.count, positions.count)
        return itemIndex < positions.count ? positions[itemIndex] : (positions.last.map { $0 + 1 } ?? children.count)
    }

    /// How many real items come before `position` in `children`.
    private func realIndex(of position: Int, in children: [SceneNode]) -> Int {
        children[..<min(position, children.count)].filter(isRealItem).count
    }

    /// The index in `children` of the real item number `k` (after the last real item when `k` is
    /// past them): undo and redo place items among the data, whatever placeholders sit around.
    private func position(ofRealIndex k: Int, in children: [SceneNode]) -> Int {
        var seen = 0
        var afterLast: Int?
        for (i, child) in children.enumerated() where isRealItem(child) {
            if seen == k { return i }
            seen += 1
            afterLast = i + 1
        }
        return afterLast ?? (children.firstIndex { $0.role == .item } ?? children.count)
    }

    /// What one drop did, so that undo, redo and a cancellation take back exactly that and
    /// nothing else: no other drop, no placeholder of a load still running.
    ///
    /// Undo and redo move the very nodes (a folder keeps what was dropped into it since), and
    /// only those still where the drop (or its undo) left them: an item something else moved
    /// since (a drop that cannot be undone) stays where it is, so no undo or redo ever puts an
    /// item in two places or loses one.
    private final class DropRecord {
        let destination: TargetID
        /// Where the first arrived item is among the destination's real items, once the drop is
        /// complete (for a move, after its originals left).
        var realIndex: Int
        /// The arrived items in order; a moved item keeps its id, a copy has its own. The node
        /// is what undo took out, for redo to bring back (copies).
        var arrivals: [(id: TargetID, node: SceneNode)]
        /// Where each moved item came from: its host and position among the host's real items
        /// before the drop; a folder before the items that were inside it.
        var sources: [(id: TargetID, host: TargetID, realIndex: Int)] = []
        /// The arrivals the last undo took back (redo brings back only those).
        var undone: Set<TargetID> = []
        /// The moved items the source side of the current undo already put back.
        var movedBack: Set<TargetID> = []

        init(destination: TargetID, arrivals: [SceneNode], realIndex: Int) {
            self.destination = destination
            self.arrivals = arrivals.map { ($0.id, $0) }
            self.realIndex = realIndex
        }
    }

    /// Inserts the dropped items at child position `at` of `destination` (copies get new ids;
    /// a move keeps them, its originals leave in ``removeMoved(_:)``) and returns the committed
    /// result, whose undo takes out exactly these items.
    private func insert(_ request: DropRequest, into destination: TargetID, at: Int) -> DropResult {
        lastArrival = nil
        guard let dest = node(destination) else {
            return .failed(DropFailure(.failed, "'\(destination)' no longer exists."))
        }
        let movedIDs = Set(
            request.operation == .move ? request.items.filter { $0.sourceContainer != nil }.map(\.id) : [])
        var arriving: [SceneNode] = []
        for item in request.items {
            var copy = node(item.id) ?? SceneNode(id: item.id, name: item.name, role: .item)
            copy.role = .item
            copy.frame = nil
            // Items moved themselves arrive on their own, not also inside a moved folder; a copy
            // of a folder does not copy the placeholders of loads into it (they stay with the
            // load, in the original).
            if movedIDs.contains(item.id) {
                copy.children = stripped(copy.children, removing: movedIDs, placeholders: false)
            } else {
                copy.children = stripped(copy.children, removing: movedIDs, placeholders: true)
                copy = renamedCopy(copy)
            }
            copy.offers = copy.offers.isEmpty ? item.types : copy.offers
            copy.kind = item.kind
            arriving.append(copy)
        }
        let clamped = min(at, dest.children.count)
        let record = DropRecord(
            destination: destination, arrivals: arriving, realIndex: realIndex(of: clamped, in: dest.children))
        mutate(destination) { $0.children.insert(contentsOf: arriving, at: clamped) }
        lastArrival = (destination, clamped..<(clamped + arriving.count), record)
        // A destination that asks first (U2) or offers a way out afterwards (U3) is one where
        // undo is impossible: its drops register no undo.
        let irreversible = dest.confirmation != nil || dest.cancellationTitle != nil
        let undo =
            irreversible
            ? nil
            : UndoableAction(
                undo: { [weak self] in self?.takeBack(record) },
                redo: { [weak self] in self?.bringBack(record) })
        var cancellation: DropCancellation?
        if let title = dest.cancellationTitle {
            cancellation = DropCancellation(title: title) { [weak self] in self?.takeBack(record) }
        }
        return .committed(undo: undo, cancellation: cancellation)
    }

    /// `nodes` without the nodes named in `ids` (and without placeholders if asked), at every depth.
    private func stripped(_ nodes: [SceneNode], removing ids: Set<TargetID>, placeholders: Bool) -> [SceneNode] {
        nodes.compactMap { n in
            if ids.contains(n.id) || (placeholders && placeholderTokens[n.id] != nil) { return nil }
            var copy = n
            copy.children = stripped(n.children, removing: ids, placeholders: placeholders)
            return copy
        }
    }

    /// Takes the nodes named in `ids` out of the tree, wherever they are, each without the others
    /// inside it (a moved card inside a moved folder comes out on its own).
    private func extract(_ ids: Set<TargetID>) -> [TargetID: SceneNode] {
        var found: [TargetID: SceneNode] = [:]
        func walk(_ nodes: [SceneNode]) -> [SceneNode] {
            nodes.compactMap { n in
                var copy = n
                copy.children = walk(n.children)
                if ids.contains(n.id) {
                    found[n.id] = copy
                    return nil
                }
                return copy
            }
        }
        roots = walk(roots)
        return found
    }

    /// The direct children of `id`.
    private func childIDs(_ id: TargetID) -> Set<TargetID> { Set((node(id)?.children ?? []).map(\.id)) }

    /// Undoes a move's source side: the moved items still in the destination go back to where
    /// they came from, in order, a folder with what it holds now.
    private func restoreRemoved(_ record: DropRecord) {
        let inDestination = childIDs(record.destination)
        var back = Set(record.sources.map(\.id).filter(inDestination.contains))
        // One whose source is gone (and is not coming back with it) stays rather than being lost.
        for entry in record.sources where back.contains(entry.id) {
            if node(entry.host) == nil, !back.contains(entry.host) { back.remove(entry.id) }
        }
        let nodes = extract(back)
        for entry in record.sources where back.contains(entry.id) {
            guard let n = nodes[entry.id] else { continue }
            mutate(entry.host) { h in
                h.children.insert(n, at: min(self.position(ofRealIndex: entry.realIndex, in: h.children), h.children.count))
            }
        }
        record.movedBack = back
        reconcilePlaceholders()
    }

    /// Undoes the destination's side of a drop: takes the arrived items still there out of it
    /// (a move's originals went back already).
    private func takeBack(_ record: DropRecord) {
        let inDestination = childIDs(record.destination)
        let out = Set(record.arrivals.map(\.id).filter { inDestination.contains($0) && !record.movedBack.contains($0) })
        var taken: [TargetID: SceneNode] = [:]
        mutate(record.destination) { dest in
            dest.children.removeAll { child in
                guard out.contains(child.id) else { return false }
                taken[child.id] = child
                return true
            }
        }
        for i in record.arrivals.indices { if let n = taken[record.arrivals[i].id] { record.arrivals[i].node = n } }
        record.undone = out.union(record.movedBack)
        record.movedBack = []
        reconcilePlaceholders()
    }

    /// Redoes a drop: the items the undo took back arrive again where they were, in order: a
    /// moved item from its source (if it is still there), a copy if it is not back already.
    private func bringBack(_ record: DropRecord) {
        var sourceOf: [TargetID: TargetID] = [:]
        for entry in record.sources { sourceOf[entry.id] = entry.host }
        var present = Set<TargetID>()
        for n in allNodes where n.role == .item { present.insert(n.id) }
        var moving = Set<TargetID>()
        var adding = Set<TargetID>()
        for arrival in record.arrivals where record.undone.contains(arrival.id) {
            if let host = sourceOf[arrival.id] {
                if childIDs(host).contains(arrival.id) { moving.insert(arrival.id) }
            } else if !present.contains(arrival.id) {
                adding.insert(arrival.id)
            }
        }
        let moved = extract(moving)
        let nodes = record.arrivals.compactMap { arrival -> SceneNode? in
            if let n = moved[arrival.id] { return n }
            return adding.contains(arrival.id) ? arrival.node : nil
        }
        mutate(record.destination) { dest in
            let at = self.position(ofRealIndex: record.realIndex, in: dest.children)
            dest.children.insert(contentsOf: nodes, at: min(at, dest.children.count))
        }
        record.undone = []
        reconcilePlaceholders()
    }

    /// Where the last drop inserted its items, so a move can tell them from the originals.
    private var lastArrival: (host: TargetID, range: Range<Int>, record: DropRecord)?

    /// Removes moved items from their sources after the destination committed them (S4): every
    /// node with a moved id, wherever it is, except the arrived ones. Returns how to put them
    /// back exactly where they were (the redo is the destination's: it moves them again).
    func removeMoved(_ items: [DragItem]) -> UndoableAction? {
        let ids = Set(items.map(\.id))
        guard let arrival = lastArrival else { return nil }
        lastArrival = nil
        var sources: [(id: TargetID, host: TargetID, realIndex: Int)] = []
        /// Records where the moved items inside a removed node were (they arrived on their own).
        func recordInside(_ n: SceneNode) {
            let real = n.children.filter(isRealItem)
            for child in n.children {
                if ids.contains(child.id), let i = real.firstIndex(where: { $0.id == child.id }) {
                    sources.append((child.id, n.id, i))
                }
                recordInside(child)
            }
        }
        func strip(_ host: SceneNode) -> SceneNode {
            var copy = host
            var kept: [SceneNode] = []
            var real = 0  // real items before this child, not counting the arrived ones
            for (i, child) in host.children.enumerated() {
                let arrived = host.id == arrival.host && arrival.range.contains(i)
                if arrived {
                    kept.append(child)  // left as it came
                    continue
                }
                if ids.contains(child.id), child.role == .item {
                    sources.append((child.id, host.id, real))
                    recordInside(child)
                } else {
                    kept.append(strip(child))
                }
                if isRealItem(child) { real += 1 }
            }
            copy.children = kept
            return copy
        }
        roots = roots.map(strip)
        guard !sources.isEmpty else { return nil }
        let record = arrival.record
        record.sources = sources
        // The arrival's place once the originals left (redo puts it back there).
        if let dest = node(record.destination), let firstID = record.arrivals.first?.id,
            let first = dest.children.firstIndex(where: { $0.id == firstID })
        {
            record.realIndex = realIndex(of: first, in: dest.children)
        }
        return UndoableAction(undo: { [weak self] in self?.restoreRemoved(record) }, redo: {})
    }

    /// Takes items another app took with a move out of the scene, wherever they are (no undo:
    /// the other app owns them now); returns the identifiers of those it found.
    func removeLeaving(_ items: [DragItem]) -> [TargetID] {
        let ids = Set(items.map(\.id))
        var removed: [TargetID] = []
        func strip(_ node: SceneNode) -> SceneNode {
            var copy = node
            copy.children = node.children.compactMap { child in
                if ids.contains(child.id), child.role == .item {
                    removed.append(child.id)
                    return nil
                }
                return strip(child)
            }
            return copy
        }
        let stripped = roots.map(strip)
        if !removed.isEmpty { roots = stripped }
        return removed
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
