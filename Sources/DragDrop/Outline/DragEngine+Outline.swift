/// What a drag knows of the outline it is over (``DragTarget/outline``): the tree as the
/// delegate last gave it, the projector built from its rows for this drag's items, and the drop
/// point shown.
struct OutlineDrag {
    var container: TargetID
    var tree: OutlineTree
    var projector: OutlineProjector
    /// The items of the drag the tree holds (the others come from elsewhere: a list, another app).
    var held: Set<TargetID>
    /// How many items the drag had when this was built: items that join (M2) take their rows
    /// and subtrees out of the drop points too.
    var itemCount: Int
    /// The drop point shown (``FeedbackEvent/outlineDrop(_:_:)``), nil when none is.
    var shown: OutlineDropPoint?
    /// The reasons of the refusals so far (rows inside a dragged item, T3), by row: a pointer
    /// coming back over a row is refused again without putting the reason into words again
    /// (formatting a sentence costs more than the rest of a move).
    var refused: [TargetID: String] = [:]
    /// Whether the drag's items come from outside and drop on rows only
    /// (``OutlineLayout/dropsFromOutsideOnRows``).
    var onRowsOnly = false
}

extension OutlineDrag {
    /// The refusal of a drop on `id` when it is a dragged item or inside one (T3), nil when it
    /// is neither. The dragged item holding it is found going up from the row: O(depth),
    /// whatever the number of dragged items; the reason is put into words once per row.
    mutating func insideDragged(_ id: TargetID) -> OutlinePlacement? {
        if let reason = refused[id] { return OutlinePlacement(point: nil, refusal: reason, row: id) }
        var ancestor: TargetID? = id
        while let next = ancestor, !held.contains(next) { ancestor = tree.parent(of: next) }
        guard let holder = ancestor else { return nil }
        let refusal: OutlineRefusal =
            holder == id
            ? .intoItself(item: tree.name(of: id))
            : .intoDescendant(item: tree.name(of: holder), descendant: tree.name(of: id))
        let reason = refusal.description
        refused[id] = reason
        return OutlinePlacement(point: nil, refusal: reason, row: id)
    }
}

/// Where a drag over an outline would drop (T1), or why it cannot (T3), in words.
struct OutlinePlacement {
    var point: OutlineDropPoint?
    var refusal: String? = nil
    /// The row a refusal is about: the sentence says the drag is over it ("Over Sent, cannot
    /// drop: Sent is read-only."), not over the outline.
    var row: TargetID? = nil
}

extension OutlineDrag {
    /// The drop for a pointer at `hit` among the rows, `x` from the outline's left edge (T1),
    /// or why there is none (T3). O(depth); a refused row's reason is put into words once.
    mutating func place(_ hit: OutlineRowHit?, x: Double) -> OutlinePlacement {
        if onRowsOnly {
            guard case .over(let id, _) = hit else { return OutlinePlacement(point: nil) }
            if let reason = tree.refusals[id] { return OutlinePlacement(point: nil, refusal: reason, row: id) }
            guard !held.isEmpty else { return OutlinePlacement(point: .on(id)) }
            // The outline's own rows: into a row that holds children, never into a dragged one
            // or a row inside it (T3); over the dragged row itself, nothing.
            if held.contains(id) { return OutlinePlacement(point: nil) }
            if let inside = insideDragged(id) { return inside }
            return OutlinePlacement(point: tree.containers.contains(id) ? .on(id) : nil)
        }
        switch hit {
        case .over(let id, let fraction):
            if let found = projector.drop(overRow: id, fraction: fraction, x: x) {
                return OutlinePlacement(point: found, refusal: nil)
            }
            return insideDragged(id) ?? OutlinePlacement(point: nil)
        case .below(let id):
            return OutlinePlacement(point: projector.position(of: id).map { projector.drop(before: $0 + 1, x: x) })
        case .above(let id):
            return OutlinePlacement(point: projector.position(of: id).map { projector.drop(before: $0, x: x) })
        case nil:
            return OutlinePlacement(point: projector.drop(before: 0, x: x))
        }
    }
}

extension DragEngine {
    /// Brings the drag's outline state up to date for `container`: rebuilt when the delegate's
    /// tree changed (``OutlineTree/revision``), items joined the drag, or the drag is over
    /// another outline; false when the delegate gives no tree. O(1) when nothing changed (the
    /// state is read in place, never copied); O(rows that show) to rebuild.
    func refreshOutline(for container: TargetID, layout: OutlineLayout) -> Bool {
        guard session != nil, let tree = delegate?.dragEngine(self, outlineOf: container) else { return false }
        if session!.outline?.container == container, session!.outline?.tree.revision == tree.revision,
            session!.outline?.tree.count == tree.count, session!.outline?.itemCount == session!.ids.count
        {
            return true
        }
        // Another outline's point goes first (F4: one destination's feedback at a time).
        if let old = session?.outline, old.container != container, old.shown != nil { hideOutlinePoint() }
        guard session != nil else { return false }
        let held = session!.ids.filter { tree.holds($0) }
        let projector = OutlineProjector(
            rows: tree.rows(), dragging: Set(held), indent: layout.indent, origin: layout.origin)
        let shown = session!.outline?.container == container ? session!.outline?.shown : nil
        session!.outline = OutlineDrag(
            container: container, tree: tree, projector: projector, held: Set(held), itemCount: session!.ids.count,
            shown: shown, onRowsOnly: layout.dropsOnRowsOnly || (layout.dropsFromOutsideOnRows && held.isEmpty))
        return true
    }

    /// Where a drop on the outline `container` lands now: for a keyboard drag, the focused drop
    /// point; for a pointer, the row under it and how far down it is, the depth from its
    /// horizontal position (T1). A point inside a dragged item is refused with the reason (T3).
    /// The projector offers no place inside a dragged item nor under a row that holds nothing,
    /// so its points need no check, and a move costs O(depth) (T7).
    func outlinePlacement(in container: TargetID, layout: OutlineLayout) -> OutlinePlacement? {
        guard refreshOutline(for: container, layout: layout) else { return nil }
        if session!.mode == .keyboard {
            return OutlinePlacement(point: session!.keyboard?.focus.flatMap { session!.keyboard?.points[$0].outline })
        }
        guard let pointer = session!.pointer else { return OutlinePlacement(point: nil) }
        // Depth grows away from the reading edge: from the left, or in a right-to-left
        // outline from the right, where its rows are indented (L3).
        let frame = registry.frame(of: container)
        let inset =
            registry.layoutDirection(of: container) == .rightToLeft
            ? (frame?.maxX ?? 0) - pointer.x : pointer.x - (frame?.minX ?? 0)
        let hit = registry.outlineRow(in: container, at: pointer.y)
        return session!.outline!.place(hit, x: inset)
    }

    /// Shows `point` as the drop point of the outline `container` (nil: none), telling the
    /// platform when it changed.
    func showOutlinePoint(_ point: OutlineDropPoint?, in container: TargetID) {
        guard session?.outline?.container == container, session?.outline?.shown != point else { return }
        session?.outline?.shown = point
        emit(.outlineDrop(container, point))
    }

    /// Takes the outline's drop point away, if one shows.
    func hideOutlinePoint() {
        guard let drag = session?.outline, drag.shown != nil else { return }
        session?.outline?.shown = nil
        emit(.outlineDrop(drag.container, nil))
    }

    /// The keyboard drop points of the outline `container` (T5): every gap at every depth it
    /// allows and every row that holds children, in reading order, named by parent and position.
    func outlineKeyboardPoints(in container: TargetID, layout: OutlineLayout) -> [(OutlineDropPoint, String)]? {
        guard refreshOutline(for: container, layout: layout), let drag = session?.outline else { return nil }
        if drag.onRowsOnly {
            // Every row that shows and takes the drag, in reading order: for the outline's own
            // rows, those that hold children, outside the dragged ones.
            var drag = drag
            return drag.tree.rows().filter { row in
                guard drag.tree.refusals[row.id] == nil else { return false }
                guard !drag.held.isEmpty else { return true }
                return row.canHoldChildren && !drag.held.contains(row.id) && drag.insideDragged(row.id) == nil
            }.map { (OutlineDropPoint.on($0.id), drag.tree.describe(.on($0.id))) }
        }
        return drag.projector.dropPoints().map { ($0, drag.tree.describe($0)) }
    }
}

/// Where a pointer is among an outline's registered rows.
enum OutlineRowHit: Equatable {
    /// Over a row, `fraction` of the way down it.
    case over(TargetID, fraction: Double)
    /// Below every row it is not over: after the nearest row above it.
    case below(TargetID)
    /// Above every row: before the first.
    case above(TargetID)
}

extension TargetRegistry {
    /// The frame of a registered target, without building its descriptor.
    func frame(of id: TargetID) -> Rect? { slot(of: id).map { index.frame(of: $0) } }

    /// The registered row of `container` at height `y`, or the nearest one. O(rows registered),
    /// reading slots: only the row found has its identifier copied out.
    func outlineRow(in container: TargetID, at y: Double) -> OutlineRowHit? {
        guard let s = slot(of: container) else { return nil }
        var above: (slot: Int32, maxY: Double)?
        var first: (slot: Int32, minY: Double)?
        var child = nodes[Int(s)].firstChild
        while child >= 0 {
            defer { child = nodes[Int(child)].nextSibling }
            guard nodes[Int(child)].flags & Self.hiddenFlag == 0 else { continue }
            let frame = index.frame(of: child)
            if frame.minY <= y, y < frame.maxY {
                return .over(cold[Int(child)].id, fraction: frame.height > 0 ? (y - frame.minY) / frame.height : 0.5)
            }
            if frame.maxY <= y, above.map({ frame.maxY > $0.maxY }) ?? true { above = (child, frame.maxY) }
            if first.map({ frame.minY < $0.minY }) ?? true { first = (child, frame.minY) }
        }
        if let above { return .below(cold[Int(above.slot)].id) }
        return first.map { .above(cold[Int($0.slot)].id) }
    }
}
