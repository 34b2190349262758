/// What the registry does for a drag session: the lift of a selection (one pass, one lookup per
/// item), the items built when first needed, and the offer masks destinations are tested with.
extension TargetRegistry {
    /// The offer mask of each distinct offered-type list among `items`, deduplicated: what a
    /// destination must intersect to accept all of them. Items that are not registered count as
    /// items of `modelContainer` when it is model-backed (``DragTarget/modelItems``), and are
    /// skipped otherwise.
    @_spi(Benchmarks) public mutating func sessionMasks(for items: [TargetID], modelContainer: TargetID? = nil) -> [TypeMask] {
        refreshOfferMasks()
        let modelList = modelContainer.flatMap { slot(of: $0) }.flatMap { modelExtras(Int($0))?.modelOfferList } ?? -1
        var seen = Set<Int32>()
        var masks: [TypeMask] = []
        for id in items {
            let list = slot(of: id).map { nodes[Int($0)].offers } ?? modelList
            if list >= 0, seen.insert(list).inserted { masks.append(offerMasks[Int(list)]) }
        }
        return masks
    }

    /// The offer masks for items that are not registered here (a drag from another app).
    func masks(forOffered lists: [[ContentType]]) -> [TypeMask] {
        var masks: [TypeMask] = []
        for list in lists {
            let mask = types.offerMask(for: list)
            if !masks.contains(mask) { masks.append(mask) }
        }
        return masks
    }

    /// What ``beginDrag(of:modelContainer:name:)`` gathers for a new session.
    struct DragStart {
        /// The items' identifiers, in order, without duplicates.
        var ids: [TargetID]
        /// The items' slots, in the same order: ``dragItems(slots:ids:name:)`` builds the items
        /// from them while nothing has been unregistered since. An item of a model-backed
        /// container that is not registered has `-1 - (the container's slot)`.
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

    /// Starts a drag of `ids`: each item is checked to be a registered draggable target, or an
    /// item of `modelContainer` (a registered container with ``DragTarget/modelItems``, whose
    /// rows off screen are not registered), and flagged as in the session (see
    /// ``markInSession(_:_:)``); duplicates are dropped, and what the session needs at once is
    /// gathered: offer masks, distinct source containers and apps, and how to name the items
    /// (`name` names an unregistered model item, called for the first item only). The
    /// ``DragItem`` values themselves are built later, when something needs them
    /// (``dragItems(slots:ids:name:)``): nothing on the move path does.
    ///
    /// One identifier lookup per item (``IdentifierTable``) and nothing else hashed: containers
    /// are found by walking parent slots, duplicates are dropped by stamping slots, consecutive
    /// items sharing a container, an app, a type list or a kind are compared by index, and the
    /// per-slot arrays are read and written through buffers. Lifting 50,000 selected items costs
    /// a few times copying their identifiers (see `Benchmarks/`). O(items × depth).
    ///
    /// Throws ``DragError/notDraggable(_:)`` for the first identifier that is not a registered
    /// draggable item (nor an item of `modelContainer`); nothing is flagged then.
    mutating func beginDrag(
        of ids: [TargetID], modelContainer: TargetID?, name: (_ item: TargetID, _ container: TargetID) -> String
    ) throws(DragError) -> DragStart {
        refreshOfferMasks()
        visitPass &+= 1
        if visitPass == 0 {
            // Wrapped around: forget every old pass so none can be mistaken for this one.
            for i in cold.indices { cold[i].visit = 0 }
            visitPass = 1
        }
        let pass = visitPass
        // The model-backed container unregistered items may belong to, with their traits.
        var modelSlot: Int32 = -1
        var modelList: Int32 = -1
        var modelKind: Int32 = 0
        var modelMovable = true
        if let modelContainer, let slot = slot(of: modelContainer), let extra = modelExtras(Int(slot)),
            let traits = extra.modelItems
        {
            modelSlot = slot
            modelList = extra.modelOfferList
            modelKind = internKind(traits.kind)
            modelMovable = traits.isMovable
        }

        var slots: [Int32] = []
        slots.reserveCapacity(ids.count)
        // The identifiers without duplicates: `ids` itself unless one turns up.
        var kept: [TargetID]?
        var modelSeen: Set<TargetID>?
        var lists: [Int32] = []
        var containerSlots: [Int32] = []
        var appsSeen: [Int32] = []
        var sharedKind: Int32 = -1
        var mixedKinds = false
        var movable = true
        var failed: TargetID?

        // The per-slot records are read and written through buffers: the arrays are moved out
        // of `self` for the loop (and back by the defer), so no write checks uniqueness and no
        // read of `self` inside can see them half-moved.
        do {
            var nodesOut = ContiguousArray<Node>()
            var coldOut = ContiguousArray<Cold>()
            swap(&nodesOut, &nodes)
            swap(&coldOut, &cold)
            defer {
                swap(&nodesOut, &nodes)
                swap(&coldOut, &cold)
            }
            let table = slotTable
            nodesOut.withUnsafeMutableBufferPointer { nodeOf in
                coldOut.withUnsafeMutableBufferPointer { coldOf in
                    let records = UnsafeBufferPointer(coldOf)
                    var lastContainer: Int32 = -2
                    var lastApp: Int32 = -1
                    var lastList: Int32 = -2
                    // A selection usually lists rows in the order they were registered: the slot
                    // after the last one found is tried first, so the items are read in memory order
                    // and the table (random buckets) only for the others.
                    var guess = -1
                    for (position, id) in ids.enumerated() {
                        let found: Int32?
                        let next = guess + 1
                        if next < coldOf.count, coldOf[next].id == id, nodeOf[next].depth >= 0 {
                            found = Int32(next)
                        } else {
                            found = table.slot(of: id, hash: IdentifierTable.hash(id), in: records)
                        }
                        var container: Int32
                        var app: Int32
                        var list: Int32
                        var kind: Int32
                        if let slot = found {
                            guess = Int(slot)
                            let s = Int(slot)
                            let f = nodeOf[s].flags
                            guard f & Self.sourceFlag != 0 else {
                                failed = id
                                break
                            }
                            if coldOf[s].visit == pass {
                                if kept == nil { kept = Array(ids[..<position]) }
                                continue
                            }
                            coldOf[s].visit = pass
                            nodeOf[s].flags = f | Self.inSessionFlag
                            slots.append(slot)
                            if f & Self.immovableFlag != 0 { movable = false }
                            container = nodeOf[s].parent
                            while container >= 0, nodeOf[Int(container)].flags & Self.destinationFlag == 0 {
                                container = nodeOf[Int(container)].parent
                            }
                            app = coldOf[s].app
                            list = nodeOf[s].offers
                            kind = coldOf[s].kind
                        } else if modelSlot >= 0 {
                            if modelSeen == nil { modelSeen = [] }
                            guard modelSeen!.insert(id).inserted else {
                                if kept == nil { kept = Array(ids[..<position]) }
                                continue
                            }
                            slots.append(-1 - modelSlot)
                            if !modelMovable { movable = false }
                            container = modelSlot
                            app = coldOf[Int(modelSlot)].app
                            list = modelList
                            kind = modelKind
                        } else {
                            failed = id
                            break
                        }
                        kept?.append(id)
                        if container != lastContainer {
                            lastContainer = container
                            if !containerSlots.contains(container) { containerSlots.append(container) }
                        }
                        if app != lastApp {
                            lastApp = app
                            if !appsSeen.contains(app) { appsSeen.append(app) }
                        }
                        if list != lastList {
                            lastList = list
                            if list >= 0, !lists.contains(list) { lists.append(list) }
                        }
                        if sharedKind < 0 {
                            sharedKind = kind
                        } else if kind != sharedKind {
                            mixedKinds = true
                        }
                    }
                    if failed != nil {
                        for slot in slots where slot >= 0 { nodeOf[Int(slot)].flags &= ~Self.inSessionFlag }
                    }
                }
            }
        }
        if let failed { throw .notDraggable(failed) }
        let finalIDs = kept ?? ids
        let firstName: String
        if let first = slots.first {
            firstName = first >= 0 ? cold[Int(first)].name : name(finalIDs[0], self.cold[Int(-1 - first)].id)
        } else {
            firstName = ""
        }
        return DragStart(
            ids: finalIDs, slots: slots, masks: lists.map { offerMasks[Int($0)] },
            containers: containerSlots.map { $0 >= 0 ? self.cold[Int($0)].id : nil },
            apps: appsSeen.map { appTable[Int($0)] },
            sharedKind: mixedKinds || sharedKind < 0 ? nil : kinds[Int(sharedKind)], firstName: firstName,
            movable: movable)
    }

    /// The drag items for the slots and identifiers ``beginDrag(of:modelContainer:name:)``
    /// returned, provided nothing was unregistered since (slots are reused); `name` names the
    /// items of model-backed containers that are not registered. O(items × depth).
    func dragItems(slots: [Int32], ids: [TargetID], name: (_ item: TargetID, _ container: TargetID) -> String)
        -> [DragItem]
    {
        var items: [DragItem] = []
        items.reserveCapacity(slots.count)
        // Items mostly share their container: its identifier is looked up once per run.
        var lastContainerSlot: Int32 = -2
        var lastContainer: TargetID?
        for (slot, id) in zip(slots, ids) {
            if slot < 0 {
                let container = Int(-1 - slot)
                guard let traits = modelExtras(container)?.modelItems else { continue }
                let containerID = self.cold[container].id
                items.append(
                    DragItem(
                        id: id, name: name(id, containerID), kind: traits.kind, types: traits.offers,
                        sourceContainer: containerID, app: appTable[Int(cold[container].app)]))
                continue
            }
            let s = Int(slot)
            var containerSlot: Int32 = -1
            var p = nodes[s].parent
            while p >= 0 {
                if nodes[Int(p)].flags & Self.destinationFlag != 0 {
                    containerSlot = p
                    break
                }
                p = nodes[Int(p)].parent
            }
            if containerSlot != lastContainerSlot {
                lastContainerSlot = containerSlot
                lastContainer = containerSlot >= 0 ? self.cold[Int(containerSlot)].id : nil
            }
            items.append(
                DragItem(
                    id: id, name: cold[s].name, kind: kinds[Int(cold[s].kind)],
                    types: nodes[s].offers >= 0 ? distinctOffers[Int(nodes[s].offers)] : [],
                    sourceContainer: lastContainer,
                    app: appTable[Int(cold[s].app)]))
        }
        return items
    }

    /// Flags items as being dragged (they and their descendants are never destinations).
    mutating func markInSession(_ items: [TargetID], _ inSession: Bool) {
        for id in items {
            guard let slot = slot(of: id) else { continue }
            if inSession {
                nodes[Int(slot)].flags |= Self.inSessionFlag
            } else {
                nodes[Int(slot)].flags &= ~Self.inSessionFlag
            }
        }
    }

    /// Generation of the accepted-type table; a session refreshes its masks when it moves.
    var typesGeneration: Int { types.generation }

    mutating func refreshOfferMasks() {
        guard offerMasksGeneration != types.generation else { return }
        for (i, list) in distinctOffers.enumerated() { offerMasks[i] = types.offerMask(for: list) }
        offerMasksGeneration = types.generation
    }
}
