import DragDrop

// What should happen, recomputed from the scene model alone.

extension TimelineAuditor {
    /// The dragged items `ids` as the scene describes them: offered types, source container
    /// (nearest accepting ancestor) and app. Items from another app come from its input.
    func auditItems(_ ids: [TargetID], external: Bool) -> [AuditItem] {
        ids.map { id in
            if external, let item = externalItems.first(where: { $0.id == id }) {
                return AuditItem(id: id, types: item.types, sourceContainer: item.sourceContainer, app: item.app)
            }
            let v = view
            return AuditItem(
                id: id, types: v.node(id)?.offers ?? [], sourceContainer: v.sourceContainer(of: id),
                app: v.app(of: id) ?? engineApp)
        }
    }

    /// Whether `node` accepts every item (F4).
    func accepts(_ node: SceneNode, _ items: [AuditItem]) -> Bool {
        !node.accepts.isEmpty && !items.isEmpty && items.allSatisfy { takes(node.accepts, $0.types, conformance: conformance) }
    }

    /// Why `node` does not accept the items, or nil if it does.
    func refusal(_ node: SceneNode, _ items: [AuditItem]) -> String? {
        if node.accepts.isEmpty { return "'\(node.id)' accepts no drops" }
        guard let item = items.first(where: { !takes(node.accepts, $0.types, conformance: conformance) }) else {
            return nil
        }
        return "'\(node.id)' accepts [\(node.accepts.map(\.mimeType).joined(separator: ", "))] but '\(item.id)' offers [\(item.types.map(\.mimeType).joined(separator: ", "))]"
    }

    /// The innermost destination under `point` accepting every dragged item (F5): the topmost
    /// visible node in paint order, then up to the first ancestor-or-self that accepts the items
    /// and is neither a dragged item nor inside one.
    func expectedDestination(at point: Point, for drag: AuditDrag) -> TargetID? {
        let v = view
        guard let top = v.topHit(at: point) else { return nil }
        var chain = v.chain(from: top)
        let ids = drag.itemIDs
        if let outermostDragged = chain.lastIndex(where: ids.contains) {
            chain = Array(chain[(outermostDragged + 1)...])
        }
        return chain.first { id in v.node(id).map { accepts($0, drag.items) } ?? false }
    }

    /// The operation a drop on `destination` should have (S2), with the reason; nil when the
    /// destination is not in the scene (nothing to compare with).
    ///
    /// Forbidden policy: forbidden. An item from another app: copy, unless the move modifier
    /// alone is held over a destination that takes other apps' moves. Copy modifier: copy.
    /// Always-copy destination: copy. Move modifier: move. Prefer-move destination: move. Every
    /// item from this very container: move. Otherwise copy. No destination: cancel.
    ///
    /// A drag from another app that allows less than both: a move it does not allow is a copy;
    /// a copy it does not allow is a move where the destination carries out other apps' moves
    /// (and does not always copy), otherwise forbidden with the reason (F4: never highlighted for
    /// a drop it would refuse).
    func expectedOperation(on destination: TargetID?, for drag: AuditDrag) -> (DropOperation, String)? {
        guard var expected = expectedOperationIgnoringMovability(on: destination, for: drag) else { return nil }
        var movable = true
        if let fixed = drag.items.first(where: { view.node($0.id)?.isMovable == false }) {
            movable = false
            if expected.0 == .move {
                expected = (.copy, "'\(fixed.id)' cannot leave its place (read-only): it is copied, not moved")
            }
        }
        guard let destination, let node = view.node(destination), let foreign = foreignItem(of: drag, on: destination),
            drag.sourceAllows != .all
        else { return expected }
        let allows = drag.sourceAllows
        let app = foreign.app
        switch expected.0 {
        case .move where !allows.contains(.move):
            if allows.contains(.copy) { return (.copy, "'\(app)' does not allow a move: it is copied") }
            return (
                .forbidden(reason: OperationRules.nothingReason(sourceApp: app)), "'\(app)' allows neither a copy nor a move"
            )
        case .copy where !allows.contains(.copy):
            if allows.contains(.move), node.takesMovesFromOtherApps, node.policy != .alwaysCopy, movable {
                return (.move, "'\(app)' allows only a move, which '\(destination)' carries out for other apps")
            }
            guard allows.contains(.move) else {
                return (
                    .forbidden(reason: OperationRules.nothingReason(sourceApp: app)),
                    "'\(app)' allows neither a copy nor a move")
            }
            return (
                .forbidden(reason: OperationRules.onlyMoveReason(sourceApp: app, destinationName: node.name)),
                "'\(app)' allows only a move and '\(destination)' copies what other apps drop"
            )
        default:
            return expected
        }
    }

    /// The first dragged item from another app than `destination`'s, if any.
    private func foreignItem(of drag: AuditDrag, on destination: TargetID) -> AuditItem? {
        let destinationApp = view.app(of: destination) ?? engineApp
        return drag.items.first { $0.app != destinationApp }
    }

    private func expectedOperationIgnoringMovability(on destination: TargetID?, for drag: AuditDrag)
        -> (DropOperation, String)?
    {
        guard let destination else { return (.cancel, "nothing under the content accepts it") }
        let v = view
        guard let node = v.node(destination) else { return nil }
        if case .forbidden(let reason) = node.policy {
            return (.forbidden(reason: reason), "'\(destination)' refuses drops ('\(reason)')")
        }
        let destinationApp = v.app(of: destination) ?? engineApp
        if let foreign = drag.items.first(where: { $0.app != destinationApp }) {
            if node.takesMovesFromOtherApps, node.policy != .alwaysCopy, drag.modifiers == .forceMove {
                return (.move, "the move modifier is held over '\(destination)', which carries out other apps' moves")
            }
            return (
                .copy,
                "'\(foreign.id)' belongs to app '\(foreign.app)' and '\(destination)' to app '\(destinationApp)': another app always copies"
            )
        }
        if drag.modifiers.contains(.forceCopy) { return (.copy, "the copy modifier is held") }
        if node.policy == .alwaysCopy { return (.copy, "'\(destination)' always copies") }
        if drag.modifiers.contains(.forceMove) { return (.move, "the move modifier is held") }
        if node.policy == .preferMove { return (.move, "'\(destination)' prefers moving drops from its own app") }
        if !drag.items.isEmpty, drag.items.allSatisfy({ $0.sourceContainer == destination }) {
            return (.move, "every item comes from '\(destination)' itself")
        }
        let sources = drag.items.map { $0.sourceContainer.auditDescription }
        return (.copy, "the items come from \(Array(Set(sources)).sorted().joined(separator: ", ")), not '\(destination)'")
    }

    /// The badge a proposal must show (S3): plus for copy, not-allowed for forbidden, none for
    /// move and cancel.
    func expectedBadge(_ operation: DropOperation) -> Badge {
        switch operation {
        case .copy: .copy
        case .forbidden: .forbidden
        case .move, .cancel: .none
        }
    }

    /// Whether a drop with `operation` would change anything.
    func isPerformable(_ operation: DropOperation) -> Bool {
        switch operation {
        case .copy, .move: true
        case .forbidden, .cancel: false
        }
    }

    /// How deep `point` is in the edge zones of `container`'s frame along each configured axis:
    /// -1 near the top or left edge, +1 near the bottom or right, 0 outside the zone; with the
    /// fraction of the way through the zone (1 at the edge). Nil outside the frame.
    func edgeDepth(of point: Point, in frame: Rect, configuration c: AutoscrollConfiguration)
        -> (dx: Int, fx: Double, dy: Int, fy: Double)?
    {
        guard frame.contains(point) else { return nil }
        func axis(_ position: Double, _ lower: Double, _ upper: Double) -> (Int, Double) {
            let zone = min(c.edgeZone, (upper - lower) / 3)
            guard zone > 0 else { return (0, 0) }
            if position - lower < zone { return (-1, 1 - (position - lower) / zone) }
            if upper - position < zone { return (1, 1 - (upper - position) / zone) }
            return (0, 0)
        }
        let (dx, fx) = c.axes.contains(.horizontal) ? axis(point.x, frame.minX, frame.maxX) : (0, 0)
        let (dy, fy) = c.axes.contains(.vertical) ? axis(point.y, frame.minY, frame.maxY) : (0, 0)
        return (dx, fx, dy, fy)
    }
}
