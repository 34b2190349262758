/// Why an outline refuses a drop (T3), in words a person can act on.
public enum OutlineRefusal: Error, Sendable, Hashable, CustomStringConvertible {
    /// An item dropped into itself.
    case intoItself(item: String)
    /// An item dropped into one of its own descendants.
    case intoDescendant(item: String, descendant: String)
    /// The proposed parent cannot hold children (a file, a task without subtasks).
    case cannotHoldChildren(String)
    /// An item the outline does not have.
    case unknownItem(TargetID)
    /// An item added twice.
    case duplicateItem(TargetID)

    public var description: String {
        func quoted(_ name: String) -> MessageArgument {
            .text(Localization.format(.quotedItem, ["name": .name(name)]))
        }
        switch self {
        case .intoItself(let item): return Localization.format(.outlineIntoItself, ["item": quoted(item)])
        case .intoDescendant(let item, let descendant):
            return Localization.format(
                .outlineIntoDescendant, ["item": quoted(item), "descendant": quoted(descendant)])
        case .cannotHoldChildren(let name): return Localization.format(.outlineCannotHold, ["item": quoted(name)])
        // Mistakes in an app's code, for its developer: English.
        case .unknownItem(let id): return "The outline has no item '\(id.rawValue)'."
        case .duplicateItem(let id): return "The outline already has an item '\(id.rawValue)'."
        }
    }
}

/// One row of an outline as it shows: an item, how deep it sits, where it is among its parent's
/// children, whether it can hold children and shows them.
public struct OutlineRow: Sendable, Hashable {
    public var id: TargetID
    /// Its parent, nil at the top level.
    public var parent: TargetID?
    /// 0 at the top level.
    public var depth: Int
    /// Its position among its parent's children.
    public var index: Int
    public var canHoldChildren: Bool
    /// Whether its children show below it.
    public var isExpanded: Bool
    /// How many children it holds (listed or not, see ``OutlineTree/unlistedChildren``).
    public var childCount: Int
}

/// A hierarchical list (T1–T7): items with one parent each (nil: the top level), in order among
/// their siblings; which items can hold children, and which show them (expanded).
///
/// Moves follow T3 and T4: nothing goes into itself or its own subtree; several items from
/// different parents land together, in their outline order, each with its whole subtree; a
/// selected item inside another selected item moves once, inside it. A move returns what undoes
/// it (T6): every item back under its former parent at its former index, and the rows that were
/// open open again.
///
/// Costs: ``parent(of:)``, ``depth(of:)`` and ``contains(_:inside:)`` O(depth); ``rows()``
/// O(visible rows); ``move(_:into:at:)`` O(moved items × (depth + siblings)).
public struct OutlineTree: Sendable, Hashable {
    private var childrenOf: [TargetID?: [TargetID]] = [nil: []]
    private var parents: [TargetID: TargetID?] = [:]
    private var names: [TargetID: String] = [:]
    /// The items that can hold children.
    public private(set) var containers: Set<TargetID> = []
    /// The items whose children show.
    public var expanded: Set<TargetID> = [] { didSet { revision &+= 1 } }
    /// Rows that refuse items from outside the outline dropped on them, with the reason a
    /// person reads ("Sent is read-only."; see ``OutlineLayout/dropsFromOutsideOnRows``).
    public var refusals: [TargetID: String] = [:] { didSet { revision &+= 1 } }
    /// How many children rows hold that the app has not listed in the tree yet: a data source
    /// over a big tree lists a row's children when the row opens (T7). Such a row shows a
    /// disclosure triangle and springs open under a held drag (T2) like a row whose children
    /// are listed; its ``OutlineRow/childCount`` is this count until they are.
    public var unlistedChildren: [TargetID: Int] = [:] { didSet { revision &+= 1 } }
    /// Counts the changes made to this tree (items added or moved, rows opened or closed): a
    /// drag over the outline rebuilds what it derived from the rows only when it changed, so a
    /// pointer move over 100,000 rows costs the same as over 100 (T7). Not part of equality.
    public private(set) var revision = 0

    public init() {}

    public static func == (a: OutlineTree, b: OutlineTree) -> Bool {
        a.parents == b.parents && a.childrenOf == b.childrenOf && a.names == b.names && a.containers == b.containers
            && a.expanded == b.expanded && a.refusals == b.refusals && a.unlistedChildren == b.unlistedChildren
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(parents)
        hasher.combine(childrenOf)
        hasher.combine(containers)
        hasher.combine(expanded)
        hasher.combine(refusals)
        hasher.combine(unlistedChildren)
    }

    /// How many items the outline holds.
    public var count: Int { parents.count }

    /// Adds `id` as the last child of `parent` (nil: the top level); `canHoldChildren` makes
    /// it a container (a folder, a mailbox). Throws for an unknown parent, a parent that cannot
    /// hold children, or an `id` already there.
    public mutating func append(
        _ id: TargetID, name: String, under parent: TargetID? = nil, canHoldChildren: Bool = false
    ) throws(OutlineRefusal) {
        guard parents[id] == nil else { throw .duplicateItem(id) }
        if let parent {
            guard parents[parent] != nil else { throw .unknownItem(parent) }
            guard containers.contains(parent) else { throw .cannotHoldChildren(self.name(of: parent)) }
        }
        revision &+= 1
        parents[id] = .some(parent)
        names[id] = name
        childrenOf[parent, default: []].append(id)
        if canHoldChildren {
            containers.insert(id)
            childrenOf[id] = []
        }
    }

    /// The name of `id` (its identifier's text when it has none).
    public func name(of id: TargetID) -> String { names[id] ?? id.rawValue }

    /// Whether the outline holds `id`.
    public func holds(_ id: TargetID) -> Bool { parents[id] != nil }

    /// The parent of `id` (nil: the top level, or not in the outline).
    public func parent(of id: TargetID) -> TargetID? { parents[id] ?? nil }

    /// The children of `parent` (nil: the top level), in order.
    public func children(of parent: TargetID?) -> [TargetID] { childrenOf[parent] ?? [] }

    /// How deep `id` sits: 0 at the top level.
    public func depth(of id: TargetID) -> Int {
        var depth = 0
        var current = parent(of: id)
        while let next = current {
            depth += 1
            current = parent(of: next)
        }
        return depth
    }

    /// Whether `candidate` is `ancestor` or inside its subtree.
    public func contains(_ candidate: TargetID, inside ancestor: TargetID) -> Bool {
        var current: TargetID? = candidate
        while let next = current {
            if next == ancestor { return true }
            current = parent(of: next)
        }
        return false
    }

    /// The rows that show, in display order: the top level, and below each expanded container
    /// its children, indented one level.
    public func rows() -> [OutlineRow] {
        var rows: [OutlineRow] = []
        func visit(_ parent: TargetID?, depth: Int) {
            for (index, id) in children(of: parent).enumerated() {
                let open = expanded.contains(id) && containers.contains(id)
                rows.append(
                    OutlineRow(
                        id: id, parent: parent, depth: depth, index: index, canHoldChildren: containers.contains(id),
                        isExpanded: open, childCount: childCount(of: id)))
                if open { visit(id, depth: depth + 1) }
            }
        }
        visit(nil, depth: 0)
        return rows
    }

    /// How many children `id` holds: those listed, or the ``unlistedChildren`` count while
    /// none are.
    public func childCount(of id: TargetID) -> Int {
        let listed = childrenOf[id]?.count ?? 0
        return listed > 0 ? listed : unlistedChildren[id] ?? 0
    }

    /// Why dropping `items` into `parent` is refused (T3), or nil when it may.
    public func refusal(dropping items: [TargetID], into parent: TargetID?) -> OutlineRefusal? {
        for item in items where !holds(item) { return .unknownItem(item) }
        guard let parent else { return nil }
        guard holds(parent) else { return .unknownItem(parent) }
        for item in items where contains(parent, inside: item) {
            return parent == item
                ? .intoItself(item: name(of: item))
                : .intoDescendant(item: name(of: item), descendant: name(of: parent))
        }
        guard containers.contains(parent) else { return .cannotHoldChildren(name(of: parent)) }
        return nil
    }

    /// What ``move(_:into:at:)`` did, to undo it (T6).
    public struct Move: Sendable, Hashable {
        /// Each moved item with where it was: its parent and its index there, in the order
        /// they were taken out.
        public var origins: [Origin]
        /// Where they went.
        public var parent: TargetID?
        public var index: Int
        /// The rows that were open before.
        public var expandedBefore: Set<TargetID>

        public struct Origin: Sendable, Hashable {
            public var item: TargetID
            public var parent: TargetID?
            public var index: Int
        }

        /// The items that moved, in the order they now stand.
        public var items: [TargetID] { sortedItems }
        var sortedItems: [TargetID]
    }

    /// Moves `items` (a selection, in any order, possibly from different parents) into `parent`
    /// at `index` among its children as they are before the move (T4): they land together in
    /// their outline order, each with its subtree; an item inside another moved item stays
    /// inside it. The parent opens to show them. Throws, changing nothing, when the move would
    /// put an item into itself or its subtree, or `parent` cannot hold children (T3).
    @discardableResult
    public mutating func move(_ items: [TargetID], into parent: TargetID?, at index: Int) throws(OutlineRefusal) -> Move
    {
        if let refusal = refusal(dropping: items, into: parent) { throw refusal }
        let chosen = Set(items)
        // A selected item inside another selected item moves with it, once (T4); an item named
        // twice moves once.
        let movers = outlineOrder(
            Array(chosen).filter { item in
                var current = self.parent(of: item)
                while let next = current {
                    if chosen.contains(next) { return false }
                    current = self.parent(of: next)
                }
                return true
            })
        // The index counts the parent's children as they were: those moving out from before it
        // no longer count.
        let siblings = children(of: parent)
        let clamped = min(max(0, index), siblings.count)
        let leaving = Set(movers)
        let target = siblings[..<clamped].filter { !leaving.contains($0) }.count
        let before = expanded
        revision &+= 1
        var origins: [Move.Origin] = []
        for item in movers {
            let from = self.parent(of: item)
            let position = childrenOf[from]?.firstIndex(of: item) ?? 0
            origins.append(Move.Origin(item: item, parent: from, index: position))
            childrenOf[from]?.remove(at: position)
        }
        childrenOf[parent, default: []].insert(contentsOf: movers, at: target)
        for item in movers { parents[item] = .some(parent) }
        if let parent { expanded.insert(parent) }
        return Move(origins: origins, parent: parent, index: target, expandedBefore: before, sortedItems: movers)
    }

    /// Moves `items` to `point`, as a drop there puts them (T1): between two rows as the
    /// point's parent's child at its index, on a row as that row's last children. See
    /// ``move(_:into:at:)``.
    @discardableResult
    public mutating func move(_ items: [TargetID], to point: OutlineDropPoint) throws(OutlineRefusal) -> Move {
        switch point {
        case .between(let parent, let index, _): return try move(items, into: parent, at: index)
        case .on(let item): return try move(items, into: item, at: children(of: item).count)
        }
    }

    /// Undoes `move` (T6): every item back under its former parent at its former index, and the
    /// rows that were open open again, closed ones closed.
    public mutating func undo(_ move: Move) {
        revision &+= 1
        for item in move.sortedItems {
            if let position = childrenOf[move.parent]?.firstIndex(of: item) {
                childrenOf[move.parent]?.remove(at: position)
            }
        }
        // Put back in the reverse order of taking out, so each index is as it was then.
        for origin in move.origins.reversed() {
            var siblings = childrenOf[origin.parent, default: []]
            siblings.insert(origin.item, at: min(origin.index, siblings.count))
            childrenOf[origin.parent] = siblings
            parents[origin.item] = .some(origin.parent)
        }
        expanded = move.expandedBefore
    }

    /// `items` in the order their rows stand in the whole outline (as if every row were open).
    public func outlineOrder(_ items: [TargetID]) -> [TargetID] {
        // The path of indexes from the top level to each item orders them: O(depth) each.
        func path(_ id: TargetID) -> [Int] {
            var indexes: [Int] = []
            var current: TargetID? = id
            while let item = current {
                let parent = self.parent(of: item)
                indexes.append(childrenOf[parent]?.firstIndex(of: item) ?? 0)
                current = parent
            }
            return indexes.reversed()
        }
        return items.map { ($0, path($0)) }.sorted { $0.1.lexicographicallyPrecedes($1.1) }.map(\.0)
    }

    /// Where `point` is, as a sentence naming the parent and the position (T5): "Into Projects.",
    /// "After Budget, inside Projects.", "At the top of Work.", "After Inbox, at the top level.".
    public func describe(_ point: OutlineDropPoint) -> String {
        func named(_ id: TargetID) -> MessageArgument { .name(name(of: id)) }
        switch point {
        case .on(let item):
            return Localization.format(.outlineInto, ["item": named(item)])
        case .between(let parent, let index, _):
            let siblings = children(of: parent)
            guard index > 0, index - 1 < siblings.count else {
                return parent.map { Localization.format(.outlineFirstIn, ["parent": named($0)]) }
                    ?? Localization.format(.outlineFirstAtTop)
            }
            let sibling = named(siblings[index - 1])
            return parent.map { Localization.format(.outlineAfterIn, ["sibling": sibling, "parent": named($0)]) }
                ?? Localization.format(.outlineAfterAtTop, ["sibling": sibling])
        }
    }
}
