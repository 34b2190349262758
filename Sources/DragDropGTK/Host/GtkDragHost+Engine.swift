import CGtk4
import DragDrop

/// The host answers the engine by asking the delegate that owns each target, and fans the
/// engine's feedback out to its collaborators.
extension GtkDragHost: @MainActor DragEngineDelegate {
    public func dragEngine(_ engine: DragEngine, itemsForDragStartingAt item: TargetID) -> [TargetID] {
        delegate(of: item)?.dragHost(self, itemsForDragStartingAt: item) ?? [item]
    }

    public func dragEngine(_ engine: DragEngine, insertionIndexIn container: TargetID, at point: Point?) -> Int? {
        guard let owner = delegate(of: container) else { return engine.insertionIndex(in: container, at: point) }
        return owner.dragHost(self, insertionIndexIn: container, at: point)
    }

    public func dragEngine(_ engine: DragEngine, outlineOf container: TargetID) -> OutlineTree? {
        delegate(of: container)?.dragHost(self, outlineOf: container)
    }

    public func dragEngine(_ engine: DragEngine, perform drop: DropRequest) -> DropResult {
        guard let owner = delegate(of: drop.destination) else {
            return .failed(
                DropFailure(.failed, Localization.format(.noOwner, ["destination": .name("\(drop.destination)")])))
        }
        return owner.dragHost(self, perform: drop)
    }

    public func dragEngine(_ engine: DragEngine, itemProviderFor item: TargetID) -> ItemProvider? {
        (delegate(of: item) ?? delegate(of: dragModelContainer))?.dragHost(self, itemProviderFor: item)
    }

    public func dragEngine(_ engine: DragEngine, nameOfItem item: TargetID, in container: TargetID) -> String? {
        delegate(of: container)?.dragHost(self, nameOfItem: item, in: container)
    }

    public func dragEngine(_ engine: DragEngine, removeMovedItems items: [DragItem], after drop: DropRequest)
        -> UndoableAction?
    {
        // Each source container's owner removes its own items.
        let restores = bySourceOwner(items).compactMap { owner, items in
            owner.dragHost(self, removeMovedItems: items, after: drop)
        }
        guard !restores.isEmpty else { return nil }
        if restores.count == 1 { return restores[0] }
        return UndoableAction(
            undo: { for r in restores.reversed() { r.undo() } },
            redo: { for r in restores { r.redo() } })
    }

    /// Another app took `items` with a move: each source container's owner takes out the ones
    /// that left (S4).
    public func dragEngine(_ engine: DragEngine, itemsMovedToOtherApp items: [DragItem], app: AppID?) -> [TargetID] {
        bySourceOwner(items).flatMap { owner, items in owner.dragHost(self, itemsMovedToOtherApp: items, app: app) }
    }

    /// `items` grouped by their source container, with the delegate that owns each container
    /// (or, for an item without one, the item), in the order they first appear.
    private func bySourceOwner(_ items: [DragItem]) -> [(owner: any GtkDragHostDelegate, items: [DragItem])] {
        var groups: [(container: TargetID?, items: [DragItem])] = []
        for item in items {
            if let i = groups.firstIndex(where: { $0.container == item.sourceContainer }) {
                groups[i].items.append(item)
            } else {
                groups.append((item.sourceContainer, [item]))
            }
        }
        return groups.compactMap { group in
            (delegate(of: group.container) ?? delegate(of: group.items.first?.id)).map { ($0, group.items) }
        }
    }

    /// Hands every engine event to the host's collaborators (accessibility, keyboard dragging,
    /// drags with other apps, feedback on the widgets), then to ``onEvent``.
    public func dragEngine(_ engine: DragEngine, emitted event: FeedbackEvent) {
        if case .outcome(let outcome) = event { lastOutcome = outcome }
        for collaborator in collaborators { collaborator.engineEmitted(event) }
        onEvent?(event)
    }

    /// Spring-loaded controls open through the delegate that owns them (SP1).
    public func dragEngine(_ engine: DragEngine, activate target: TargetID, explicit: Bool) {
        diagnose("spring activate \(target) explicit=\(explicit)")
        registered[target]?.springLoader?.dragHost(self, activate: target, explicit: explicit)
    }
}

/// One concern of a ``GtkDragHost`` with its own state and behaviour (feedback on the widgets,
/// keyboard dragging, drags with other apps, accessibility). The host owns one of each, wires
/// the GTK signals they need, and hands each every engine event in turn.
@MainActor
protocol GtkDragHostCollaborator: AnyObject {
    /// An event the engine emitted, after the collaborators before this one saw it.
    func engineEmitted(_ event: FeedbackEvent)
    /// Window `id` was removed (closed): forget what was kept for it. Default: nothing.
    func windowRemoved(_ id: TargetID)
}

extension GtkDragHostCollaborator {
    func windowRemoved(_ id: TargetID) {}
}
