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
    /// A ``TargetHandle`` whose target was unregistered since.
    case staleHandle

    public var description: String {
        switch self {
        case .duplicateID(let id): "A target named '\(id)' is already registered."
        case .unknownTarget(let id): "No target named '\(id)' is registered."
        case .unknownParent(let id, let parent):
            "Target '\(id)' names parent '\(parent)', which is not registered; register parents first."
        case .invalidFrame(let id, let frame):
            "Target '\(id)' has an invalid frame \(frame): sizes must be finite and not negative."
        case .types(let error): error.description
        case .staleHandle: "The target handle is stale: its target was unregistered."
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
/// Per-target data is kept in parallel arrays indexed by a slot number (struct of arrays): hot
/// data (tree links, flags, type masks) beside the compact cold data a descriptor is rebuilt
/// from (identifier, name, and indexes into tables of the distinct type lists, kinds and apps;
/// the rarely set roles, such as spring loading or a confirmation, live in a side table only for
/// the targets that have them). Identifiers map to slots through `IdentifierTable`; frames
/// live in the `SpatialIndex`. About 150 bytes per target (see `Benchmarks/`).
///
/// Costs: register, update and unregister are O(1) expected (plus O(children) to cascade an
/// unregister); `resolve(at:session:)` is O(occupied index levels + hits × depth);
/// `setFrame(_:for:)` with a `TargetHandle` skips even the identifier lookup.
public struct TargetRegistry {
    /// Per slot, what resolution and tree walks read: links, flags and type-list indexes, side
    /// by side (a walk up the tree reads one element per step).
    struct Node {
        var parent: Int32 = -1
        /// -1 for a free slot.
        var depth: Int32 = 0
        var order: UInt64 = 0
        var flags: UInt8 = 0
        /// Index into ``acceptMasks`` (-1: not a destination).
        var accept: Int32 = -1
        /// Index into the distinct offer lists (-1: not a source).
        var offers: Int32 = -1
        var firstChild: Int32 = -1
        var nextSibling: Int32 = -1
        var prevSibling: Int32 = -1
    }

    /// Per slot, what a descriptor is rebuilt from, and the lift's bookkeeping.
    struct Cold {
        var id: TargetID
        var name: String = ""
        /// Index into ``kinds``.
        var kind: Int32 = 0
        /// Index into ``appTable``: the app the target belongs to (its own or inherited).
        var app: Int32 = 0
        /// Index into ``extras`` (-1: none of the rare roles).
        var extra: Int32 = -1
        /// Bumped when the slot is freed, so handles to its old target go stale.
        var generation: UInt32 = 0
        /// The pass of ``beginDrag(of:modelContainer:name:)`` that last saw the slot, to drop
        /// duplicate items without hashing them again.
        var visit: UInt32 = 0
    }

    var nodes: ContiguousArray<Node> = []
    var cold: ContiguousArray<Cold> = []
    var visitPass: UInt32 = 0

    /// What few targets have: set roles that are not flags, and an app named explicitly.
    struct Extras {
        var app: AppID?
        var insertion: InsertionLayout?
        var layoutDirection: LayoutDirection?
        var outline: OutlineLayout?
        var operationPolicy: OperationPolicy
        var takesMovesFromOtherApps: Bool
        var springLoading: SpringLoadingConfiguration?
        var autoscroll: AutoscrollConfiguration?
        var confirmation: String?
        var modelItems: ModelItems?
        /// The offer list of ``modelItems`` (index into the distinct offer lists), or -1.
        var modelOfferList: Int32
    }
    var extras: ContiguousArray<Extras?> = []
    private var freeExtras: [Int32] = []

    var slotTable = IdentifierTable()
    private var freeSlots: [Int32] = []
    private var nextOrder: UInt64 = 0
    var index = SpatialIndex()

    /// Distinct accepted-type lists and their masks, shared by the targets that accept the same.
    private var acceptLists: [[ContentType]] = []
    var acceptMasks: ContiguousArray<TypeMask> = []
    private var acceptListIndex: [[ContentType]: Int32] = [:]
    /// Distinct offered-type lists, shared by the many items that offer the same types.
    var distinctOffers: [[ContentType]] = []
    private var offerListIndex: [[ContentType]: Int32] = [:]
    var offerMasks: [TypeMask] = []
    var offerMasksGeneration = -1
    /// The last offer list interned and its index: rows registered one after another offer the
    /// same list, recognized by its storage without hashing it.
    private var lastOffers: (list: [ContentType], index: Int32)?
    /// Distinct kinds and apps.
    var kinds: [Noun] = [.item]
    private var kindIndex: [Noun: Int32] = [.item: 0]
    private var lastKind: Int32 = 0
    var appTable: [AppID] = []
    private var appIndex: [AppID: Int32] = [:]

    /// Accepted types and conformance.
    private(set) var types: TypeUniverse
    /// The app that owns targets registered without an app.
    public let localApp: AppID
    /// The direction of targets that neither have one nor inherit one (L3).
    var defaultLayoutDirection: LayoutDirection = .leftToRight

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
    @_spi(Benchmarks) public init(localApp: AppID, conformance: TypeConformance = TypeConformance()) {
        self.localApp = localApp
        self.types = TypeUniverse(conformance: conformance)
        _ = internApp(localApp)
    }

    /// Number of registered targets.
    public var count: Int { slotTable.count }

    /// Approximate heap bytes used, for the memory benchmark: every per-slot array's capacity,
    /// the identifier table and the spatial index (not the identifiers' and names' own storage,
    /// which short strings do not have).
    @_spi(Benchmarks) public var approximateMemoryFootprint: Int {
        nodes.capacity * MemoryLayout<Node>.stride + cold.capacity * MemoryLayout<Cold>.stride
            + extras.capacity * MemoryLayout<Extras?>.stride
            + slotTable.approximateMemoryFootprint + index.approximateMemoryFootprint
    }

    // MARK: Identifiers

    /// The slot of `id`, or nil. O(1) expected.
    @inline(__always) func slot(of id: TargetID) -> Int32? {
        let hash = IdentifierTable.hash(id)
        return cold.withUnsafeBufferPointer { slotTable.slot(of: id, hash: hash, in: $0) }
    }

    // MARK: Registration

    /// Adds a target. Its parent, if any, must already be registered.
    @_spi(Benchmarks) public mutating func register(_ target: DragTarget) throws(RegistryError) {
        let hash = IdentifierTable.hash(target.id)
        guard cold.withUnsafeBufferPointer({ slotTable.slot(of: target.id, hash: hash, in: $0) }) == nil else {
            throw .duplicateID(target.id)
        }
        try Self.validate(target.frame, target.id)
        var parentSlot: Int32 = -1
        if let parent = target.parent {
            guard let p = slot(of: parent) else { throw .unknownParent(target.id, parent: parent) }
            parentSlot = p
        }
        let accept = target.accepts.isEmpty ? -1 : try internAccepts(target.accepts)

        let slot: Int32
        if let reused = freeSlots.popLast() {
            slot = reused
        } else {
            slot = Int32(nodes.count)
            nodes.append(Node())
            cold.append(Cold(id: target.id))
        }
        let s = Int(slot)
        nodes[s].parent = parentSlot
        nodes[s].depth = parentSlot < 0 ? 0 : nodes[Int(parentSlot)].depth + 1
        nextOrder += 1
        nodes[s].order = nextOrder
        nodes[s].flags = Self.flags(of: target)
        nodes[s].accept = accept
        nodes[s].offers = target.offers.isEmpty ? -1 : internOffers(target.offers)
        nodes[s].firstChild = -1
        nodes[s].prevSibling = -1
        nodes[s].nextSibling = -1
        if parentSlot >= 0 {
            let head = nodes[Int(parentSlot)].firstChild
            nodes[s].nextSibling = head
            if head >= 0 { nodes[Int(head)].prevSibling = slot }
            nodes[Int(parentSlot)].firstChild = slot
        }
        cold[s].id = target.id
        cold[s].name = target.name
        cold[s].kind = internKind(target.kind)
        cold[s].app = target.app.map { internApp($0) } ?? (parentSlot >= 0 ? cold[Int(parentSlot)].app : 0)
        cold[s].extra = storeExtras(of: target)
        slotTable.insert(slot: slot, hash: hash)
        index.insert(slot, frame: target.frame)
    }

    /// Removes a target and all its descendants.
    mutating func unregister(_ id: TargetID) throws(RegistryError) {
        guard let slot = slot(of: id) else { throw .unknownTarget(id) }
        let s = Int(slot)
        // Unlink from the parent's child list.
        let prev = nodes[s].prevSibling
        let next = nodes[s].nextSibling
        if prev >= 0 {
            nodes[Int(prev)].nextSibling = next
        } else if nodes[s].parent >= 0 {
            nodes[Int(nodes[s].parent)].firstChild = next
        }
        if next >= 0 { nodes[Int(next)].prevSibling = prev }
        removeSubtree(slot)
    }

    private mutating func removeSubtree(_ slot: Int32) {
        var child = nodes[Int(slot)].firstChild
        while child >= 0 {
            let next = nodes[Int(child)].nextSibling
            removeSubtree(child)
            child = next
        }
        let s = Int(slot)
        index.remove(slot, frame: index.frame(of: slot))
        slotTable.remove(slot: slot, hash: IdentifierTable.hash(cold[s].id))
        if cold[s].extra >= 0 {
            extras[Int(cold[s].extra)] = nil
            freeExtras.append(cold[s].extra)
            cold[s].extra = -1
        }
        cold[s].id = ""
        cold[s].name = ""
        nodes[s].flags = 0
        nodes[s].depth = -1
        nodes[s].parent = -1
        nodes[s].firstChild = -1
        cold[s].generation &+= 1
        freeSlots.append(slot)
    }

    /// Moves or resizes a target (layout, scrolling, rows making room). O(1) expected.
    mutating func setFrame(_ frame: Rect, for id: TargetID) throws(RegistryError) {
        guard let slot = slot(of: id) else { throw .unknownTarget(id) }
        try Self.validate(frame, id)
        index.move(slot, to: frame)
    }

    /// The handle of a registered target, for `setFrame(_:for:)` with a `TargetHandle`.
    func handle(for id: TargetID) -> TargetHandle? {
        guard let slot = slot(of: id) else { return nil }
        return TargetHandle(slot: slot, generation: cold[Int(slot)].generation)
    }

    /// Moves or resizes the target `handle` names without looking its identifier up: a layout
    /// pass that hands the engine thousands of frames per move (most unchanged) pays a few
    /// nanoseconds for each. Throws ``RegistryError/staleHandle`` when the target was
    /// unregistered since the handle was made.
    mutating func setFrame(_ frame: Rect, for handle: TargetHandle) throws(RegistryError) {
        let s = Int(handle.slot)
        // A freed slot's generation moved on, so a handle to a live slot is current.
        guard s < cold.count, cold[s].generation == handle.generation else { throw .staleHandle }
        guard Self.isValid(frame) else { throw .invalidFrame(cold[s].id, frame) }
        index.move(handle.slot, to: frame)
    }

    /// Moves or resizes many targets in one pass (a layout pass handing the engine every frame
    /// after a reorder): `body` calls `set(handle, frame)` for each. Like
    /// `setFrame(_:for:)` with a `TargetHandle` without the per-call overhead; a stale handle or an
    /// invalid frame is skipped and the first such error is thrown after the pass.
    ///
    /// ```swift
    /// try registry.setFrames { set in
    ///     for (position, item) in order.enumerated() { set(handles[item], layout.frame(at: position)) }
    /// }
    /// ```
    mutating func setFrames(_ body: (_ set: (TargetHandle, Rect) -> Void) -> Void) throws(RegistryError) {
        var failure: RegistryError?
        body { handle, frame in
            let s = Int(handle.slot)
            guard s < cold.count, cold[s].generation == handle.generation else {
                if failure == nil { failure = .staleHandle }
                return
            }
            guard Self.isValid(frame) else {
                if failure == nil { failure = .invalidFrame(cold[s].id, frame) }
                return
            }
            index.move(handle.slot, to: frame)
        }
        if let failure { throw failure }
    }

    /// Moves the descendants of a target by `delta` (a scroll container scrolling; the target
    /// itself stays). O(descendants), and it does not allocate: the subtree is walked through
    /// the child, sibling and parent links instead of a work list, since autoscroll calls this
    /// on every step of a drag.
    mutating func offsetDescendants(of id: TargetID, by delta: Vector) throws(RegistryError) {
        guard let root = slot(of: id) else { throw .unknownTarget(id) }
        var node = nodes[Int(root)].firstChild
        while node >= 0 {
            let s = Int(node)
            index.offset(node, by: delta)
            // Pre-order: down to the first child, else to the next sibling of the nearest
            // node on the way back up to the root that has one.
            if nodes[s].firstChild >= 0 {
                node = nodes[s].firstChild
                continue
            }
            while node != root, nodes[Int(node)].nextSibling < 0 { node = nodes[Int(node)].parent }
            node = node == root ? -1 : nodes[Int(node)].nextSibling
        }
    }

    /// Hides or shows a target and, with it, its descendants.
    mutating func setHidden(_ hidden: Bool, for id: TargetID) throws(RegistryError) {
        guard let slot = slot(of: id) else { throw .unknownTarget(id) }
        let s = Int(slot)
        if hidden { nodes[s].flags |= Self.hiddenFlag } else { nodes[s].flags &= ~Self.hiddenFlag }
    }

    /// Tells a target which way its horizontal orders read (L3); nil takes its parent's.
    mutating func setLayoutDirection(_ direction: LayoutDirection?, for id: TargetID) throws(RegistryError) {
        guard let slot = slot(of: id) else { throw .unknownTarget(id) }
        let s = Int(slot)
        if cold[s].extra >= 0, extras[Int(cold[s].extra)] != nil {
            extras[Int(cold[s].extra)]!.layoutDirection = direction
        } else if direction != nil {
            var target = DragTarget(id: id, name: "", frame: .zero)
            target.layoutDirection = direction
            cold[s].extra = storeExtras(of: target)
        }
    }

    /// The direction of slot `s`: its own, else its nearest ancestor's, else the registry's
    /// ``defaultLayoutDirection``. O(depth).
    func layoutDirection(ofSlot s: Int32) -> LayoutDirection {
        var slot = s
        while slot >= 0 {
            let extra = cold[Int(slot)].extra
            if extra >= 0, let direction = extras[Int(extra)]?.layoutDirection { return direction }
            slot = nodes[Int(slot)].parent
        }
        return defaultLayoutDirection
    }

    /// The direction of `id` (its own or inherited, L3); the default when it is not registered.
    package func layoutDirection(of id: TargetID) -> LayoutDirection {
        slot(of: id).map(layoutDirection(ofSlot:)) ?? defaultLayoutDirection
    }

    /// Puts a target above its siblings (a window brought to the front).
    mutating func bringToFront(_ id: TargetID) throws(RegistryError) {
        guard let slot = slot(of: id) else { throw .unknownTarget(id) }
        nextOrder += 1
        nodes[Int(slot)].order = nextOrder
    }

    /// Declares the conformance table (an app's own types).
    mutating func setConformance(_ table: TypeConformance) {
        types.setConformance(table)
        // Accepted types are canonicalized through the table: lists registered from now on
        // are interned again.
        acceptListIndex = [:]
    }

    // MARK: Queries

    /// The registered descriptor for `id`, with its current frame.
    public func target(_ id: TargetID) -> DragTarget? {
        guard let slot = slot(of: id) else { return nil }
        return descriptor(Int(slot))
    }

    /// The descriptor of the target in slot `s`, rebuilt from the slot's data.
    func descriptor(_ s: Int) -> DragTarget {
        var target = DragTarget(
            id: cold[s].id, name: cold[s].name, frame: index.frame(of: Int32(s)),
            parent: nodes[s].parent >= 0 ? cold[Int(nodes[s].parent)].id : nil)
        let f = nodes[s].flags
        if nodes[s].accept >= 0 { target.accepts = acceptLists[Int(nodes[s].accept)] }
        if nodes[s].offers >= 0 { target.offers = distinctOffers[Int(nodes[s].offers)] }
        target.kind = kinds[Int(cold[s].kind)]
        target.isMovable = f & Self.immovableFlag == 0
        target.clipsChildren = f & Self.clipsFlag != 0
        target.isHidden = f & Self.hiddenFlag != 0
        if cold[s].extra >= 0, let extra = extras[Int(cold[s].extra)] {
            target.app = extra.app
            target.insertion = extra.insertion
            target.layoutDirection = extra.layoutDirection
            target.outline = extra.outline
            target.operationPolicy = extra.operationPolicy
            target.takesMovesFromOtherApps = extra.takesMovesFromOtherApps
            target.springLoading = extra.springLoading
            target.autoscroll = extra.autoscroll
            target.confirmation = extra.confirmation
            target.modelItems = extra.modelItems
        }
        return target
    }

    /// Whether `id` is registered.
    public func contains(_ id: TargetID) -> Bool { slot(of: id) != nil }

    /// The app a target belongs to.
    public func app(of id: TargetID) -> AppID? { slot(of: id).map { appTable[Int(cold[Int($0)].app)] } }

    /// Whether the target and all its ancestors are shown.
    public func isShown(_ id: TargetID) -> Bool {
        guard var slot = slot(of: id) else { return false }
        while slot >= 0 {
            if nodes[Int(slot)].flags & Self.hiddenFlag != 0 { return false }
            slot = nodes[Int(slot)].parent
        }
        return true
    }

    /// The identifiers of `id`'s ancestors, nearest first.
    public func ancestors(of id: TargetID) -> [TargetID] {
        guard let slot = slot(of: id) else { return [] }
        var result: [TargetID] = []
        var p = nodes[Int(slot)].parent
        while p >= 0 {
            result.append(cold[Int(p)].id)
            p = nodes[Int(p)].parent
        }
        return result
    }

    /// The identifiers of `id`'s descendants (children, their children…), in no particular
    /// order; O(descendants), through the child and sibling links.
    public func descendants(of id: TargetID) -> [TargetID] {
        guard let root = slot(of: id) else { return [] }
        var result: [TargetID] = []
        var pending = [nodes[Int(root)].firstChild]
        while let first = pending.popLast() {
            var node = first
            while node >= 0 {
                result.append(cold[Int(node)].id)
                pending.append(nodes[Int(node)].firstChild)
                node = nodes[Int(node)].nextSibling
            }
        }
        return result
    }

    /// The nearest model-backed container (``DragTarget/modelItems`` set) at or above `id`.
    package func modelContainer(of id: TargetID) -> TargetID? {
        guard var slot = slot(of: id) else { return nil }
        while slot >= 0 {
            if let extra = cold[Int(slot)].extra >= 0 ? extras[Int(cold[Int(slot)].extra)] : nil,
                extra.modelItems != nil
            {
                return cold[Int(slot)].id
            }
            slot = nodes[Int(slot)].parent
        }
        return nil
    }

    /// The model-backed container of the first of `ids` that is registered (see
    /// ``modelContainer(of:)``): where the others, if not registered, come from.
    package func modelContainer(ofFirstRegistered ids: [TargetID]) -> TargetID? {
        for id in ids where slot(of: id) != nil { return modelContainer(of: id) }
        return nil
    }

    /// Every registered target, in no particular order.
    public var allTargets: [DragTarget] {
        var result: [DragTarget] = []
        result.reserveCapacity(count)
        // Free slots have depth -1.
        for s in nodes.indices where nodes[s].depth >= 0 { result.append(descriptor(s)) }
        return result
    }

    /// The types offered by a source target.
    public func offers(of id: TargetID) -> [ContentType] { target(id)?.offers ?? [] }

    // MARK: Resolution (the pointer-move hot path)

    /// What lies under `point` (no drag in progress, so no destination): the topmost visible
    /// hit in paint order, and walking up from it the innermost spring-loaded target,
    /// autoscrolling container and draggable item.
    public func resolve(at point: Point) -> Resolution { resolve(at: point, session: []) }

    /// Finds what lies under `point`: the topmost visible hit in paint order (children above
    /// parents, later siblings above earlier ones), then, walking up from it, the innermost
    /// destination accepting every mask in `session`, the innermost spring-loaded target, the
    /// innermost autoscrolling container and the innermost draggable item. Items flagged as in
    /// the session (see `markInSession(_:_:)`) are never destinations. Does not allocate.
    @_spi(Benchmarks) public func resolve(at point: Point, session masks: [TypeMask]) -> Resolution {
        let top = topHitSlot(at: point)
        var result = Resolution()
        guard top >= 0 else { return result }
        result.topHit = cold[Int(top)].id
        // Targets inside a dragged item (and the item itself) are never destinations or springs:
        // find the outermost dragged target on the chain first.
        var outermostDragged: Int32 = -1
        var walk = top
        while walk >= 0 {
            if nodes[Int(walk)].flags & Self.inSessionFlag != 0 { outermostDragged = walk }
            walk = nodes[Int(walk)].parent
        }
        var insideDragged = outermostDragged >= 0
        var slot = top
        while slot >= 0 {
            let s = Int(slot)
            let f = nodes[s].flags
            if !insideDragged {
                if result.destination == nil, !masks.isEmpty, accepts(slot: s, masks) {
                    result.destination = cold[s].id
                }
                if result.springLoaded == nil, f & Self.springFlag != 0 { result.springLoaded = cold[s].id }
            }
            if slot == outermostDragged { insideDragged = false }
            if result.scrollContainer == nil, f & Self.scrollFlag != 0 { result.scrollContainer = cold[s].id }
            if result.source == nil, f & Self.sourceFlag != 0 { result.source = cold[s].id }
            slot = nodes[s].parent
        }
        return result
    }

    @inline(__always) private func accepts(slot s: Int, _ masks: [TypeMask]) -> Bool {
        let i = nodes[s].accept
        if i < 0 { return false }
        let accept = acceptMasks[Int(i)]
        if accept.isEmpty { return false }
        for mask in masks where !mask.intersects(accept) { return false }
        return true
    }

    /// Whether a destination accepts content with these offer masks (every item must be accepted).
    func accepts(_ id: TargetID, masks: [TypeMask]) -> Bool {
        guard let slot = slot(of: id), !masks.isEmpty else { return false }
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
        if nodes[Int(slot)].flags & Self.hiddenFlag != 0 { return false }
        var p = nodes[Int(slot)].parent
        while p >= 0 {
            let f = nodes[Int(p)].flags
            if f & Self.hiddenFlag != 0 { return false }
            if f & Self.clipsFlag != 0, !index.frame(of: p).contains(point) { return false }
            p = nodes[Int(p)].parent
        }
        return true
    }

    /// Whether `a` paints above `b`: a descendant is above its ancestors; otherwise the later of
    /// the two sibling subtrees under their common ancestor (or of two roots) is above.
    @inline(__always) func isAbove(_ a: Int32, _ b: Int32) -> Bool {
        var x = a
        var y = b
        var dx = nodes[Int(x)].depth
        var dy = nodes[Int(y)].depth
        while dx > dy {
            let px = nodes[Int(x)].parent
            if px == y { return true }
            x = px
            dx -= 1
        }
        while dy > dx {
            let py = nodes[Int(y)].parent
            if py == x { return false }
            y = py
            dy -= 1
        }
        if x == y { return false }
        while nodes[Int(x)].parent != nodes[Int(y)].parent {
            x = nodes[Int(x)].parent
            y = nodes[Int(y)].parent
        }
        return nodes[Int(x)].order > nodes[Int(y)].order
    }

    // MARK: Interning

    private mutating func internAccepts(_ list: [ContentType]) throws(RegistryError) -> Int32 {
        if let existing = acceptListIndex[list] { return existing }
        let mask: TypeMask
        do { mask = try types.acceptMask(for: list) } catch { throw .types(error) }
        let index = Int32(acceptLists.count)
        acceptLists.append(list)
        acceptMasks.append(mask)
        acceptListIndex[list] = index
        return index
    }

    mutating func internOffers(_ list: [ContentType]) -> Int32 {
        if let last = lastOffers,
            last.list.withUnsafeBufferPointer({ a in
                list.withUnsafeBufferPointer { b in a.baseAddress == b.baseAddress && a.count == b.count }
            })
        {
            return last.index
        }
        let index: Int32
        if let existing = offerListIndex[list] {
            index = existing
        } else {
            index = Int32(distinctOffers.count)
            distinctOffers.append(list)
            offerListIndex[list] = index
            offerMasks.append(types.offerMask(for: list))
        }
        lastOffers = (list, index)
        return index
    }

    mutating func internKind(_ kind: Noun) -> Int32 {
        if kind == kinds[Int(lastKind)] { return lastKind }
        if let existing = kindIndex[kind] {
            lastKind = existing
            return existing
        }
        let index = Int32(kinds.count)
        kinds.append(kind)
        kindIndex[kind] = index
        lastKind = index
        return index
    }

    private mutating func internApp(_ app: AppID) -> Int32 {
        if let existing = appIndex[app] { return existing }
        let index = Int32(appTable.count)
        appTable.append(app)
        appIndex[app] = index
        return index
    }

    /// Stores the rare roles of `target` in the side table; -1 when it has none.
    private mutating func storeExtras(of target: DragTarget) -> Int32 {
        guard
            target.app != nil || target.insertion != nil || target.layoutDirection != nil || target.outline != nil
                || target.operationPolicy != .automatic
                || target.takesMovesFromOtherApps || target.springLoading != nil || target.autoscroll != nil
                || target.confirmation != nil
                || target.modelItems != nil
        else { return -1 }
        let extra = Extras(
            app: target.app, insertion: target.insertion, layoutDirection: target.layoutDirection,
            outline: target.outline,
            operationPolicy: target.operationPolicy,
            takesMovesFromOtherApps: target.takesMovesFromOtherApps, springLoading: target.springLoading,
            autoscroll: target.autoscroll, confirmation: target.confirmation,
            modelItems: target.modelItems,
            modelOfferList: target.modelItems.map { internOffers($0.offers) } ?? -1)
        if let reused = freeExtras.popLast() {
            extras[Int(reused)] = extra
            return reused
        }
        extras.append(extra)
        return Int32(extras.count - 1)
    }

    /// The model items' traits of the container in slot `s`, if it is model-backed.
    func modelExtras(_ s: Int) -> Extras? {
        guard cold[s].extra >= 0, let extra = extras[Int(cold[s].extra)], extra.modelItems != nil else {
            return nil
        }
        return extra
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

    static func validate(_ frame: Rect, _ id: TargetID) throws(RegistryError) {
        if !isValid(frame) { throw .invalidFrame(id, frame) }
    }

    /// Whether a frame has a finite origin and a finite size that is not negative.
    @inline(__always) static func isValid(_ frame: Rect) -> Bool {
        frame.minX.isFinite && frame.minY.isFinite && frame.width.isFinite && frame.height.isFinite
            && frame.width >= 0 && frame.height >= 0
    }
}
