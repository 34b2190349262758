/// Errors from registering, updating and removing targets.
public enum RegistryError: Error, Equatable, CustomStringConvertible {
    /// A target with this identifier is already registered.
    case duplicateID(TargetID)
    /// The identifier names no registered target.
    case unknownTarget(TargetID)
    /// The parent must be registered before its children.
    case unknownParent(TargetID, parent: TargetID)
    /// A frame with a negative or non-finite size or origin.
    case invalidFrame(TargetID, Rect)
    /// Declaring the accepted types failed.
    case types(TypeMaskError)

    public var description: String {
        switch self {
        case .duplicateID(let id): "A target named '\(id)' is already registered."
        case .unknownTarget(let id): "No target named '\(id)' is registered."
        case .unknownParent(let id, let parent):
            "Target '\(id)' names parent '\(parent)', which is not registered; register parents first."
        case .invalidFrame(let id, let frame):
            "Target '\(id)' has an invalid frame \(frame): sizes must be finite and not negative."
        case .types(let error): error.description
        }
    }
}

/// Where a pointer position lands: the roles found walking up from the topmost hit.
public struct Resolution: Equatable, Sendable {
    /// The topmost visible target under the pointer, if any.
    public var topHit: TargetID?
    /// The innermost destination that accepts every item of the session (F5).
    public var destination: TargetID?
    /// The innermost spring-loaded target (SP1).
    public var springLoaded: TargetID?
    /// The innermost scroll container with autoscroll (A1).
    public var scrollContainer: TargetID?
    /// The innermost draggable item.
    public var source: TargetID?
}

/// The registered targets: a tree of frames with a spatial index, so that finding the target
/// under the pointer never scans every target.
///
/// Hot per-target data is kept in parallel arrays indexed by a slot number (struct of arrays);
/// identifiers map to slots through one dictionary used only when registering and updating.
///
/// Costs: register, update and unregister are O(1) expected (plus O(children) to cascade an
/// unregister); ``resolve(at:)`` is O(occupied index levels + hits × depth).
public struct TargetRegistry {
    // Per-slot hot data.
    @usableFromInline var frames: ContiguousArray<Rect> = []
    var parents: ContiguousArray<Int32> = []
    var depths: ContiguousArray<Int32> = []
    var orders: ContiguousArray<UInt64> = []
    var flags: ContiguousArray<UInt8> = []
    var acceptMasks: ContiguousArray<TypeMask> = []
    var offerLists: ContiguousArray<Int32> = []
    var firstChild: ContiguousArray<Int32> = []
    var nextSibling: ContiguousArray<Int32> = []
    var prevSibling: ContiguousArray<Int32> = []
    // Per-slot cold data.
    var descriptors: ContiguousArray<DragTarget?> = []
    var apps: ContiguousArray<AppID> = []

    private var slotOf: [TargetID: Int32] = [:]
    /// Per slot: the pass of ``beginDrag(of:)`` that last saw it, to drop duplicate items
    /// without hashing them again.
    private var visits: ContiguousArray<UInt32> = []
    private var visitPass: UInt32 = 0
    private var freeSlots: [Int32] = []
    private var nextOrder: UInt64 = 0
    private var index = SpatialIndex()

    /// Distinct offered-type lists, shared by the many items that offer the same types.
    private var distinctOffers: [[ContentType]] = []
    private var offerListIndex: [[ContentType]: Int32] = [:]
    private var offerMasks: [TypeMask] = []
    private var offerMasksGeneration = -1

    /// Accepted types and conformance.
    public private(set) var types: TypeUniverse
    /// The app that owns targets registered without an app.
    public let localApp: AppID

    static let hiddenFlag: UInt8 = 1
    static let clipsFlag: UInt8 = 2
    static let sourceFlag: UInt8 = 4
    static let springFlag: UInt8 = 8
    static let scrollFlag: UInt8 = 16
    static let inSessionFlag: UInt8 = 32
    static let destinationFlag: UInt8 = 64
    /// ``DragTarget/isMovable`` false: read at lift without touching the descriptor.
    static let immovableFlag: UInt8 = 128

    /// Creates an empty registry for `localApp`.
    public init(localApp: AppID, conformance: TypeConformance = TypeConformance()) {
        self.localApp = localApp
        self.types = TypeUniverse(conformance: conformance)
    }

    /// Number of registered targets.
    public var count: Int { slotOf.count }

    /// Approximate heap bytes used, for the memory benchmark.
    public var approximateMemoryFootprint: Int {
        let perSlot =
            MemoryLayout<Rect>.stride + 3 * 4 + 8 + 1 + MemoryLayout<TypeMask>.stride + 4 * 4
            + MemoryLayout<DragTarget?>.stride + MemoryLayout<AppID>.stride
        return frames.capacity * perSlot + slotOf.capacity * (MemoryLayout<TargetID>.stride + 4)
            + index.approximateMemoryFootprint
    }

    // MARK: Registration

    /// Adds a target. Its parent, if any, must already be registered.
    public mutating func register(_ target: DragTarget) throws(RegistryError) {
        guard slotOf[target.id] == nil else { throw .duplicateID(target.id) }
        try Self.validate(target.frame, target.id)
        var parentSlot: Int32 = -1
        if let parent = target.parent {
            guard let p = slotOf[parent] else { throw .unknownParent(target.id, parent: parent) }
            parentSlot = p
        }
        let accept: TypeMask
        do { accept = try types.acceptMask(for: target.accepts) } catch { throw .types(error) }

        let slot: Int32
        if let reused = freeSlots.popLast() {
            slot = reused
        } else {
            slot = Int32(frames.count)
            frames.append(.zero)
            parents.append(-1)
            depths.append(0)
            orders.append(0)
            flags.append(0)
            acceptMasks.append(TypeMask())
            offerLists.append(-1)
            firstChild.append(-1)
            nextSibling.append(-1)
            prevSibling.append(-1)
            descriptors.append(nil)
            apps.append(localApp)
            visits.append(0)
        }
        let s = Int(slot)
        frames[s] = target.frame
        parents[s] = parentSlot
        depths[s] = parentSlot < 0 ? 0 : depths[Int(parentSlot)] + 1
        nextOrder += 1
        orders[s] = nextOrder
        flags[s] = Self.flags(of: target)
        acceptMasks[s] = accept
        offerLists[s] = target.offers.isEmpty ? -1 : internOffers(target.offers)
        firstChild[s] = -1
        prevSibling[s] = -1
        nextSibling[s] = -1
        if parentSlot >= 0 {
            let head = firstChild[Int(parentSlot)]
            nextSibling[s] = head
            if head >= 0 { prevSibling[Int(head)] = slot }
            firstChild[Int(parentSlot)] = slot
        }
        apps[s] = target.app ?? (parentSlot >= 0 ? apps[Int(parentSlot)] : localApp)
        descriptors[s] = target
        slotOf[target.id] = slot
        index.insert(slot, frame: target.frame)
    }

    /// Removes a target and all its descendants.
    public mutating func unregister(_ id: TargetID) throws(RegistryError) {
        guard let slot = slotOf[id] else { throw .unknownTarget(id) }
        let s = Int(slot)
        // Unlink from the parent's child list.
        let prev = prevSibling[s]
        let next = nextSibling[s]
        if prev >= 0 { nextSibling[Int(prev)] = next } else if parents[s] >= 0 { firstChild[Int(parents[s])] = next }
        if next >= 0 { prevSibling[Int(next)] = prev }
        removeSubtree(slot)
    }

    private mutating func removeSubtree(_ slot: Int32) {
        var child = firstChild[Int(slot)]
        while child >= 0 {
            let next = nextSibling[Int(child)]
            removeSubtree(child)
            child = next
        }
        let s = Int(slot)
        index.remove(slot, frame: frames[s])
        if let id = descriptors[s]?.id { slotOf[id] = nil }
        descriptors[s] = nil
        flags[s] = 0
        parents[s] = -1
        firstChild[s] = -1
        freeSlots.append(slot)
    }

    /// Moves or resizes a target (layout, scrolling, rows making room). O(1) expected.
    public mutating func setFrame(_ frame: Rect, for id: TargetID) throws(RegistryError) {
        guard let slot = slotOf[id] else { throw .unknownTarget(id) }
        try Self.validate(frame, id)
        let s = Int(slot)
        let old = frames[s]
        guard old != frame else { return }
        index.update(slot, from: old, to: frame)
        frames[s] = frame
        descriptors[s]?.frame = frame
    }

    /// Moves the descendants of a target by `delta` (a scroll container scrolling; the target
    /// itself stays). O(descendants), and it does not allocate: the subtree is walked through
    /// the child, sibling and parent links instead of a work list, since autoscroll calls this
    /// on every step of a drag.
    public mutating func offsetDescendants(of id: TargetID, by delta: Vector) throws(RegistryError) {
        guard let root = slotOf[id] else { throw .unknownTarget(id) }
        var node = firstChild[Int(root)]
        while node >= 0 {
            let s = Int(node)
            let moved = frames[s].offset(by: delta)
            index.update(node, from: frames[s], to: moved)
            frames[s] = moved
            descriptors[s]?.frame = moved
            // Pre-order: down to the first child, else to the next sibling of the nearest
            // node on the way back up to the root that has one.
            if firstChild[s] >= 0 {
                node = firstChild[s]
                continue
            }
            while node != root, nextSibling[Int(node)] < 0 { node = parents[Int(node)] }
            node = node == root ? -1 : nextSibling[Int(node)]
        }
    }

    /// Hides or shows a target and, with it, its descendants.
    public mutating func setHidden(_ hidden: Bool, for id: TargetID) throws(RegistryError) {
        guard let slot = slotOf[id] else { throw .unknownTarget(id) }
        let s = Int(slot)
        if hidden { flags[s] |= Self.hiddenFlag } else { flags[s] &= ~Self.hiddenFlag }
        descriptors[s]?.isHidden = hidden
    }

    /// Puts a target above its siblings (a window brought to the front).
    public mutating func bringToFront(_ id: TargetID) throws(RegistryError) {
        guard let slot = slotOf[id] else { throw .unknownTarget(id) }
        nextOrder += 1
        orders[Int(slot)] = nextOrder
    }

    /// Declares the conformance table (an app's own types).
    public mutating func setConformance(_ table: TypeConformance) { types.setConformance(table) }

    // MARK: Queries

    /// The registered descriptor for `id`, with its current frame.
    public func target(_ id: TargetID) -> DragTarget? {
        guard let slot = slotOf[id] else { return nil }
        return descriptors[Int(slot)]
    }

    /// Whether `id` is registered.
    public func contains(_ id: TargetID) -> Bool { slotOf[id] != nil }

    /// The app a target belongs to.
    public func app(of id: TargetID) -> AppID? { slotOf[id].map { apps[Int($0)] } }

    /// Whether the target and all its ancestors are shown.
    public func isShown(_ id: TargetID) -> Bool {
        guard var slot = slotOf[id] else { return false }
        while slot >= 0 {
            if flags[Int(slot)] & Self.hiddenFlag != 0 { return false }
            slot = parents[Int(slot)]
        }
        return true
    }

    /// The identifiers of `id`'s ancestors, nearest first.
    public func ancestors(of id: TargetID) -> [TargetID] {
        guard let slot = slotOf[id] else { return [] }
        var result: [TargetID] = []
        var p = parents[Int(slot)]
        while p >= 0 {
            if let d = descriptors[Int(p)] { result.append(d.id) }
            p = parents[Int(p)]
        }
        return result
    }

    /// The identifiers of `id`'s descendants (children, their children…), in no particular
    /// order; O(descendants), through the child and sibling links.
    public func descendants(of id: TargetID) -> [TargetID] {
        guard let root = slotOf[id] else { return [] }
        var result: [TargetID] = []
        var pending = [firstChild[Int(root)]]
        while let first = pending.popLast() {
            var node = first
            while node >= 0 {
                if let d = descriptors[Int(node)] { result.append(d.id) }
                pending.append(firstChild[Int(node)])
                node = nextSibling[Int(node)]
            }
        }
        return result
    }

    /// Every registered target, in no particular order.
    public var allTargets: [DragTarget] { descriptors.compactMap { $0 } }

    /// The types offered by a source target.
    public func offers(of id: TargetID) -> [ContentType] { target(id)?.offers ?? [] }

    // MARK: Resolution (the pointer-move hot path)

    /// Finds what lies under `point`: the topmost visible hit in paint order (children above
    /// parents, later siblings above earlier ones), then, walking up from it, the innermost
    /// destination accepting every mask in `session`, the innermost spring-loaded target, the
    /// innermost autoscrolling container and the innermost draggable item. Items flagged as in
    /// the session (see ``markInSession(_:_:)``) are never destinations. Does not allocate.
    public func resolve(at point: Point, session masks: [TypeMask] = []) -> Resolution {
        let top = topHitSlot(at: point)
        var result = Resolution()
        guard top >= 0 else { return result }
        result.topHit = descriptors[Int(top)]?.id
        // Targets inside a dragged item (and the item itself) are never destinations or springs:
        // find the outermost dragged target on the chain first.
        var outermostDragged: Int32 = -1
        var walk = top
        while walk >= 0 {
            if flags[Int(walk)] & Self.inSessionFlag != 0 { outermostDragged = walk }
            walk = parents[Int(walk)]
        }
        var insideDragged = outermostDragged >= 0
        var slot = top
        while slot >= 0 {
            let s = Int(slot)
            let f = flags[s]
            if !insideDragged {
                if result.destination == nil, !masks.isEmpty, accepts(slot: s, masks) {
                    result.destination = descriptors[s]?.id
                }
                if result.springLoaded == nil, f & Self.springFlag != 0 { result.springLoaded = descriptors[s]?.id }
            }
            if slot == outermostDragged { insideDragged = false }
            if result.scrollContainer == nil, f & Self.scrollFlag != 0 { result.scrollContainer = descriptors[s]?.id }
            if result.source == nil, f & Self.sourceFlag != 0 { result.source = descriptors[s]?.id }
            slot = parents[s]
        }
        return result
    }

    @inline(__always) private func accepts(slot s: Int, _ masks: [TypeMask]) -> Bool {
        let accept = acceptMasks[s]
        if accept.isEmpty { return false }
        for mask in masks where !mask.intersects(accept) { return false }
        return true
    }

    /// Whether a destination accepts content with these offer masks (every item must be accepted).
    public func accepts(_ id: TargetID, masks: [TypeMask]) -> Bool {
        guard let slot = slotOf[id], !masks.isEmpty else { return false }
        return accepts(slot: Int(slot), masks)
    }

    func topHitSlot(at point: Point) -> Int32 {
        var best: Int32 = -1
        index.forEachHit(at: point) { slot in
            guard isVisible(slot, at: point) else { return }
            if best < 0 || isAbove(slot, best) { best = slot }
        }
        return best
    }

    /// Hidden targets, and targets clipped away by an ancestor at `point`, are not hit.
    @inline(__always) private func isVisible(_ slot: Int32, at point: Point) -> Bool {
        if flags[Int(slot)] & Self.hiddenFlag != 0 { return false }
        var p = parents[Int(slot)]
        while p >= 0 {
            let f = flags[Int(p)]
            if f & Self.hiddenFlag != 0 { return false }
            if f & Self.clipsFlag != 0, !frames[Int(p)].contains(point) { return false }
            p = parents[Int(p)]
        }
        return true
    }

    /// Whether `a` paints above `b`: a descendant is above its ancestors; otherwise the later of
    /// the two sibling subtrees under their common ancestor (or of two roots) is above.
    @inline(__always) func isAbove(_ a: Int32, _ b: Int32) -> Bool {
        var x = a
        var y = b
        var dx = depths[Int(x)]
        var dy = depths[Int(y)]
        while dx > dy {
            let px = parents[Int(x)]
            if px == y { return true }
            x = px
            dx -= 1
        }
        while dy > dx {
            let py = parents[Int(y)]
            if py == x { return false }
            y = py
            dy -= 1
        }
        if x == y { return false }
        while parents[Int(x)] != parents[Int(y)] {
            x = parents[Int(x)]
            y = parents[Int(y)]
        }
        return orders[Int(x)] > orders[Int(y)]
    }

    // MARK: Sessions

    /// The offer mask of each distinct offered-type list among `items`, deduplicated: what a
    /// destination must intersect to accept all of them.
    public mutating func sessionMasks(for items: [TargetID]) -> [TypeMask] {
        refreshOfferMasks()
        var seen = Set<Int32>()
        var masks: [TypeMask] = []
        for id in items {
            guard let slot = slotOf[id] else { continue }
            let list = offerLists[Int(slot)]
            if list >= 0, seen.insert(list).inserted { masks.append(offerMasks[Int(list)]) }
        }
        return masks
    }

    /// The offer masks for items that are not registered here (a drag from another app).
    public func masks(forOffered lists: [[ContentType]]) -> [TypeMask] {
        var masks: [TypeMask] = []
        for list in lists {
            let mask = types.offerMask(for: list)
            if !masks.contains(mask) { masks.append(mask) }
        }
        return masks
    }

    /// What ``beginDrag(of:)`` gathers for a new session.
    struct DragStart {
        /// The items' identifiers, in order, without duplicates.
        var ids: [TargetID]
        /// The items' slots, in the same order: ``dragItems(slots:ids:)`` builds the items from
        /// them while nothing has been unregistered since.
        var slots: [Int32]
        /// The offer mask of each distinct offered-type list (see ``sessionMasks(for:)``).
        var masks: [TypeMask]
        /// The distinct source containers, in order of first appearance (nil: no container).
        var containers: [TargetID?]
        /// The distinct apps of the items, in order of first appearance.
        var apps: [AppID]
        /// The kind every item shares, or nil for a mix (to name them: "3 photos").
        var sharedKind: Noun?
        /// The first item's name.
        var firstName: String
        /// Whether every item may leave its place (``DragTarget/isMovable``).
        var movable: Bool
    }

    /// Starts a drag of `ids`: each item is checked to be a registered draggable target and
    /// flagged as in the session (see ``markInSession(_:_:)``), duplicates are dropped, and what
    /// the session needs at once is gathered: offer masks, distinct source containers and apps,
    /// and how to name the items. The ``DragItem`` values themselves are built later, when
    /// something needs them (``dragItems(slots:ids:)``): nothing on the move path does.
    ///
    /// One identifier lookup per item and nothing else hashed: containers are found by walking
    /// parent slots, duplicates are dropped by stamping slots, and the registry is accessed once
    /// for the whole selection. Lifting 50,000 selected items must show its preview within a
    /// frame (F1; see `Benchmarks/`). O(items × depth).
    ///
    /// Throws ``DragError/notDraggable(_:)`` for the first identifier that is not a registered
    /// draggable item; nothing is flagged then.
    mutating func beginDrag(of ids: [TargetID]) throws(DragError) -> DragStart {
        refreshOfferMasks()
        visitPass &+= 1
        if visitPass == 0 {
            // Wrapped around: forget every old pass so none can be mistaken for this one.
            for i in visits.indices { visits[i] = 0 }
            visitPass = 1
        }
        let pass = visitPass
        var slots: [Int32] = []
        slots.reserveCapacity(ids.count)
        // The identifiers without duplicates: `ids` itself unless one turns up.
        var kept: [TargetID]?
        var masks: [TypeMask] = []
        var containers: [TargetID?] = []
        var apps: [AppID] = []
        var sharedKind: Noun?
        var mixedKinds = false
        var movable = true
        var lists: [Int32] = []
        var containerSlots: [Int32] = []
        var failed: TargetID?
        // Reads of the (large) optional descriptors go through a read-only buffer: no copy of
        // each descriptor. Every write (flags, visits) stays a checked array access; the
        // mutable-buffer variant moved the arrays' storage aside while the loop also read
        // `self`, and corrupted memory.
        descriptors.withUnsafeBufferPointer { descriptors in
            for (index, id) in ids.enumerated() {
                guard let slot = slotOf[id], flags[Int(slot)] & Self.sourceFlag != 0 else {
                    failed = id
                    break
                }
                let s = Int(slot)
                if visits[s] == pass {
                    if kept == nil { kept = Array(ids[..<index]) }
                    continue
                }
                visits[s] = pass
                kept?.append(id)
                flags[s] |= Self.inSessionFlag
                slots.append(slot)
                var containerSlot: Int32 = -1
                var p = parents[s]
                while p >= 0 {
                    if flags[Int(p)] & Self.destinationFlag != 0 {
                        containerSlot = p
                        break
                    }
                    p = parents[Int(p)]
                }
                if !containerSlots.contains(containerSlot) {
                    containerSlots.append(containerSlot)
                    containers.append(containerSlot >= 0 ? descriptors[Int(containerSlot)]?.id : nil)
                }
                if apps.last != self.apps[s], !apps.contains(self.apps[s]) { apps.append(self.apps[s]) }
                let list = offerLists[s]
                if list >= 0, !lists.contains(list) {
                    lists.append(list)
                    masks.append(offerMasks[Int(list)])
                }
                if flags[s] & Self.immovableFlag != 0 { movable = false }
                if !mixedKinds {
                    let kind = descriptors[s]?.kind
                    if sharedKind == nil {
                        sharedKind = kind
                    } else if sharedKind != kind {
                        mixedKinds = true
                    }
                }
            }
        }
        if let failed {
            for slot in slots { flags[Int(slot)] &= ~Self.inSessionFlag }
            throw .notDraggable(failed)
        }
        let firstName = slots.first.flatMap { descriptors[Int($0)]?.name } ?? ""
        return DragStart(
            ids: kept ?? ids, slots: slots, masks: masks, containers: containers, apps: apps,
            sharedKind: mixedKinds ? nil : sharedKind, firstName: firstName, movable: movable)
    }

    /// The drag items for the slots and identifiers ``beginDrag(of:)`` returned, provided
    /// nothing was unregistered since (slots are reused). O(items × depth).
    func dragItems(slots: [Int32], ids: [TargetID]) -> [DragItem] {
        var items: [DragItem] = []
        items.reserveCapacity(slots.count)
        // Items mostly share their container: its identifier is looked up once per run.
        var lastContainerSlot: Int32 = -2
        var lastContainer: TargetID?
        for (slot, id) in zip(slots, ids) {
            let s = Int(slot)
            var containerSlot: Int32 = -1
            var p = parents[s]
            while p >= 0 {
                if flags[Int(p)] & Self.destinationFlag != 0 {
                    containerSlot = p
                    break
                }
                p = parents[Int(p)]
            }
            if containerSlot != lastContainerSlot {
                lastContainerSlot = containerSlot
                lastContainer = containerSlot >= 0 ? descriptors[Int(containerSlot)]?.id : nil
            }
            guard let target = descriptors[s] else { continue }
            items.append(
                DragItem(
                    id: id, name: target.name, kind: target.kind, types: target.offers, sourceContainer: lastContainer,
                    app: apps[s]))
        }
        return items
    }

    /// Flags items as being dragged (they and their descendants are never destinations).
    public mutating func markInSession(_ items: [TargetID], _ inSession: Bool) {
        for id in items {
            guard let slot = slotOf[id] else { continue }
            if inSession { flags[Int(slot)] |= Self.inSessionFlag } else { flags[Int(slot)] &= ~Self.inSessionFlag }
        }
    }

    /// Generation of the accepted-type table; a session refreshes its masks when it moves.
    public var typesGeneration: Int { types.generation }

    private mutating func internOffers(_ list: [ContentType]) -> Int32 {
        if let existing = offerListIndex[list] { return existing }
        let index = Int32(distinctOffers.count)
        distinctOffers.append(list)
        offerListIndex[list] = index
        offerMasks.append(types.offerMask(for: list))
        return index
    }

    private mutating func refreshOfferMasks() {
        guard offerMasksGeneration != types.generation else { return }
        for (i, list) in distinctOffers.enumerated() { offerMasks[i] = types.offerMask(for: list) }
        offerMasksGeneration = types.generation
    }

    private static func flags(of target: DragTarget) -> UInt8 {
        var f: UInt8 = 0
        if target.isHidden { f |= hiddenFlag }
        if target.clipsChildren { f |= clipsFlag }
        if target.isSource { f |= sourceFlag }
        if target.springLoading != nil { f |= springFlag }
        if target.autoscroll != nil { f |= scrollFlag }
        if target.isDestination { f |= destinationFlag }
        if !target.isMovable { f |= immovableFlag }
        return f
    }

    private static func validate(_ frame: Rect, _ id: TargetID) throws(RegistryError) {
        let values = [frame.minX, frame.minY, frame.width, frame.height]
        if values.contains(where: { !$0.isFinite }) || frame.width < 0 || frame.height < 0 {
            throw .invalidFrame(id, frame)
        }
    }
}
