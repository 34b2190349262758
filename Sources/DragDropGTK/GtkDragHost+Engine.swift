import CGtk4
import DragDrop

/// The host answers the engine by asking the delegate that owns each target, and renders the
/// engine's feedback on the widgets.
extension GtkDragHost: @MainActor DragEngineDelegate {
    public func dragEngine(_ engine: DragEngine, itemsForDragStartingAt item: TargetID) -> [TargetID] {
        delegate(of: item)?.dragHost(self, itemsForDragStartingAt: item) ?? [item]
    }

    public func dragEngine(_ engine: DragEngine, insertionIndexIn container: TargetID, at point: Point?) -> Int? {
        guard let owner = delegate(of: container) else { return engine.insertionIndex(in: container, at: point) }
        return owner.dragHost(self, insertionIndexIn: container, at: point)
    }

    public func dragEngine(_ engine: DragEngine, perform drop: DropRequest) -> DropResult {
        guard let owner = delegate(of: drop.destination) else {
            return .failed(DropFailure(.failed, "Nothing in this window owns '\(drop.destination)' any more."))
        }
        return owner.dragHost(self, perform: drop)
    }

    public func dragEngine(_ engine: DragEngine, itemProviderFor item: TargetID) -> ItemProvider? {
        (delegate(of: item) ?? delegate(of: dragModelContainer))?.dragHost(self, itemProviderFor: item)
    }

    public func dragEngine(_ engine: DragEngine, nameOfItem item: TargetID, in container: TargetID) -> String? {
        (delegate(of: container) as? any GtkModelItemsDelegate)?.dragHost(self, nameOfItem: item, in: container)
    }

    public func dragEngine(_ engine: DragEngine, removeMovedItems items: [DragItem], after drop: DropRequest)
        -> UndoableAction?
    {
        // Each source container's owner removes its own items.
        var groups: [(container: TargetID?, items: [DragItem])] = []
        for item in items {
            if let i = groups.firstIndex(where: { $0.container == item.sourceContainer }) {
                groups[i].items.append(item)
            } else {
                groups.append((item.sourceContainer, [item]))
            }
        }
        let restores = groups.compactMap { group in
            (delegate(of: group.container) ?? delegate(of: group.items.first?.id))?
                .dragHost(self, removeMovedItems: group.items, after: drop)
        }
        guard !restores.isEmpty else { return nil }
        if restores.count == 1 { return restores[0] }
        return UndoableAction(
            undo: { for r in restores.reversed() { r.undo() } },
            redo: { for r in restores { r.redo() } })
    }

    public func dragEngine(_ engine: DragEngine, emitted event: FeedbackEvent) {
        render(event)
        renderAccessibility(event)
        observeForOtherApps(event)
        renderVisuals(event)
        onEvent?(event)
    }

    /// Shows an engine event on the widgets: destination highlight (F4-F6), rows making room
    /// (F8), the drag image's badge and count (S3, M3), spring-loading flashes (SP1).
    private func render(_ event: FeedbackEvent) {
        switch event {
        case .highlight(let id, let on):
            setClass("dd-drop-highlight", on, on: id)
        case .insertion(let container, let index):
            delegate(of: container)?.dragHost(self, showInsertionAt: index, in: container)
        case .preview(let state):
            gdkDrag?.icon.update(state)
        case .springFlash(let id):
            setClass("dd-spring-flash", true, on: id)
        case .springActivated(let id, _), .springDisarmed(let id):
            setClass("dd-spring-flash", false, on: id)
        case .outcome(let outcome):
            lastOutcome = outcome
        default:
            break
        }
    }

    private func setClass(_ name: String, _ on: Bool, on id: TargetID) {
        guard let widget = widget(for: id) else { return }
        if on { gtk_widget_add_css_class(widget, name) } else { gtk_widget_remove_css_class(widget, name) }
    }
}
