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
    /// The last refusal (a row inside a dragged item, T3) with the row it was for: a pointer
    /// moving over that row is refused again without putting the reason into words again.
    var refused: (row: TargetID, reason: String)?
}

/// Where a drag over an outline would drop (T1), or why it cannot (T3), in words.
struct OutlinePlacement {
    var point: OutlineDropPoint?
    var refusal: String?
}

extension DragEngine {
    /// The outline drag state for `container`, rebuilt when the delegate's tree changed
    /// (``OutlineTree/revision``), items joined the drag, or the drag is over another outline; nil when the delegate
    /// gives no tree. O(1) when nothing changed; O(rows that show) to rebuild.
    func outlineDrag(for container: TargetID, layout: OutlineLayout) -> OutlineDrag? {
        guard let tree = delegate?.dragEngine(self, outlineOf: container) else { return nil }
        if let known = session?.outline, known.container == container, known.tree.revision == tree.revision,
            known.tree.count == tree.count, known.itemCount == session?.ids.count
        {
            return known
        }
        // Another outline's point goes first (F4: one destination's feedback at a time).
        if let old = session?.outline, old.container != container, old.shown != nil { hideOutlinePoint() }
        let held = (session?.ids ?? []).filter { tree.holds($0) }
        let projector = OutlineProjector(
            rows: tree.rows(), dragging: Set(held), indent: layout.indent, origin: layout.origin)
        let shown = session?.outline?.container == container ? session?.outline?.shown : nil
        let drag = OutlineDrag(
            container: container, tree: tree, projector: projector, held: Set(held),
            itemCount: session?.ids.count ?? 0, shown: shown, refused: nil)
        session?.outline = drag
        return drag
    }

    /// Where a drop on the outline `container` lands now: for a keyboard drag, the focused drop
    /// point; for a pointer, the row under it and how far down it is, the depth from its
    /// horizontal position (T1). A point inside a dragged item is refused with the reason (T3).
    func outlinePlacement(in container: TargetID, layout: OutlineLayout) -> OutlinePlacement? {
        guard let drag = outlineDrag(for: container, layout: layout), let s = session else { return nil }
        let point: OutlineDropPoint?
        if s.mode == .keyboard {
            point = s.keyboard?.focus.flatMap { s.keyboard?.points[$0].outline }
        } else if let pointer = s.pointer {
            let left = registry.frame(of: container)?.minX ?? 0
            switch registry.outlineRow(in: container, at: pointer.y) {
            case .over(let id, let fraction):
                guard let found = drag.projector.drop(overRow: id, fraction: fraction, x: pointer.x - left) else {
                    // A row inside a dragged item: the item cannot go there (T3). The dragged
                    // item holding it is found going up from the row: O(depth), whatever the
                    // number of dragged items.
                    if let refused = drag.refused, refused.row == id {
                        return OutlinePlacement(point: nil, refusal: refused.reason)
                    }
                    var ancestor = drag.tree.parent(of: id)
                    while let next = ancestor, !drag.held.contains(next) { ancestor = drag.tree.parent(of: next) }
                    let refusal: OutlineRefusal =
                        ancestor.map {
                            .intoDescendant(item: drag.tree.name(of: $0), descendant: drag.tree.name(of: id))
                        } ?? .intoItself(item: drag.tree.name(of: id))
                    let reason = refusal.description
                    session?.outline?.refused = (id, reason)
                    return OutlinePlacement(point: nil, refusal: reason)
                }
                point = found
            case .below(let id):
                point = drag.projector.position(of: id).map {
                    drag.projector.drop(before: $0 + 1, x: pointer.x - left)
                }
            case .above(let id):
                point = drag.projector.position(of: id).map { drag.projector.drop(before: $0, x: pointer.x - left) }
            case .none:
                point = drag.projector.drop(before: 0, x: pointer.x - left)
            }
        } else {
            point = nil
        }
        // The projector offers no place inside a dragged item nor under a row that holds
        // nothing: its points need no check (T3), and a move costs O(depth) (T7).
        return OutlinePlacement(point: point, refusal: nil)
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
        guard let drag = outlineDrag(for: container, layout: layout) else { return nil }
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

    /// The registered row of `container` at height `y`, or the nearest one. O(rows registered).
    func outlineRow(in container: TargetID, at y: Double) -> OutlineRowHit? {
        guard let s = slot(of: container) else { return nil }
        var above: (id: TargetID, maxY: Double)?
        var first: (id: TargetID, minY: Double)?
        var child = nodes[Int(s)].firstChild
        while child >= 0 {
            defer { child = nodes[Int(child)].nextSibling }
            guard nodes[Int(child)].flags & Self.hiddenFlag == 0 else { continue }
            let frame = index.frame(of: child)
            let id = cold[Int(child)].id
            if frame.minY <= y, y < frame.maxY {
                return .over(id, fraction: frame.height > 0 ? (y - frame.minY) / frame.height : 0.5)
            }
            if frame.maxY <= y, above.map({ frame.maxY > $0.maxY }) ?? true { above = (id, frame.maxY) }
            if first.map({ frame.minY < $0.minY }) ?? true { first = (id, frame.minY) }
        }
        if let above { return .below(above.id) }
        return first.map { .above($0.id) }
    }
}
