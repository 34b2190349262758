import CGtk4
import DragDrop

/// An element that takes a fresh identifier when it arrives from a deferred drop.
protocol ArrivingElement: TitledElement {
    var id: TargetID { get set }
}

extension DragGridView.Tile: ArrivingElement {}

/// The deferred drops of an item collection: what is arriving, where, and the widgets (rows or
/// tiles) standing in for it.
@MainActor
final class DeferredDrops<Element: ArrivingElement> {
    struct Pending {
        let token: DropToken
        /// The elements that arrive (they get fresh identifiers on arrival).
        let arriving: [Element]
        /// The element the placeholders follow (nil: the first place), so they stay put when
        /// elements before them come and go; `index` is the fallback when that element left.
        let after: TargetID?
        let index: Int
        /// One placeholder widget per arriving element, with its progress bar.
        var widgets: [(widget: GObjectRef, bar: GObjectRef)] = []
    }

    var defersDrop: (@MainActor (DropRequest) -> Bool)?
    /// In drop order.
    var pending: [Pending] = []
}

/// Placeholders (A4) shared by item collections: a drop the app loads later shows one
/// placeholder per arriving element at the drop index, with a progress bar (A5), until the
/// content arrives (the placeholders become the elements, one undo step, a move leaves its
/// source only then, S4) or fails (the placeholders go away and the host says why, A6). The
/// collection stays usable meanwhile. A widget makes its placeholder widgets and puts them in
/// its box; the bookkeeping, their places, progress and the arrival come from here.
@MainActor
protocol DeferredDropHosting: TitledItemEditing where Element: ArrivingElement {
    /// The deferred drops still loading.
    var placeholders: DeferredDrops<Element> { get }
    /// The box (list box, flow box) the element widgets and placeholders are children of.
    var elementBox: GObjectRef { get }
    /// A placeholder for `element` while it loads, and its progress bar.
    func makePlaceholder(for element: Element) -> (widget: GObjectRef, bar: GObjectRef)
    /// Inserts a placeholder into ``elementBox`` at child position `index`.
    func insertPlaceholder(_ widget: UnsafeMutablePointer<GtkWidget>, at index: Int32)
    /// Removes a placeholder from ``elementBox``.
    func removePlaceholder(_ widget: UnsafeMutablePointer<GtkWidget>)
}

extension DeferredDropHosting {
    /// The tokens of the deferred drops still loading, oldest first.
    var pendingTokens: [DropToken] { placeholders.pending.map(\.token) }

    /// The drop's result when ``DeferredDrops/defersDrop`` asks to load it later: its
    /// placeholders are recorded at the drop index; `arriving` are the elements it brings.
    func deferIfAsked(_ drop: DropRequest, arriving: [Element]) -> DropResult? {
        guard let decide = placeholders.defersDrop, decide(drop) else { return nil }
        let elements = editableElements
        let index = min(max(0, drop.index ?? elements.count), elements.count)
        placeholders.pending.append(
            DeferredDrops.Pending(
                token: drop.token, arriving: arriving, after: index > 0 ? elements[index - 1].id : nil, index: index))
        return .deferred(placeholders: drop.items.count)
    }

    /// Ends a deferred drop: without `failure` the elements arrive where the placeholders are
    /// (one undo step with a move's removal from its source, U1, S4); with it, the placeholders
    /// go away and the reason is shown (A6). Unknown tokens are ignored.
    func finishPendingDrop(_ token: DropToken, failure: DropFailure?) {
        guard let pending = placeholders.pending.first(where: { $0.token == token }) else { return }
        if let failure {
            host.completeDeferredDrop(token, with: .failed(failure))
            return
        }
        let before = editableElements
        let arriving = pending.arriving.map { element in
            var element = element
            element.id = newID()
            return element
        }
        var after = before
        after.insert(contentsOf: arriving, at: position(of: pending))
        let selected = arriving.map(\.id)
        setEditableElements(after, selecting: selected)
        host.completeDeferredDrop(
            token,
            with: .committed(
                undo: UndoableAction(
                    undo: { [weak self] in self?.setEditableElements(before, selecting: []) },
                    redo: { [weak self] in self?.setEditableElements(after, selecting: selected) })))
    }

    /// Where a drop's content lands among the elements now.
    private func position(of pending: DeferredDrops<Element>.Pending) -> Int {
        let elements = editableElements
        if let after = pending.after, let i = elements.firstIndex(where: { $0.id == after }) { return i + 1 }
        return pending.after == nil ? 0 : min(pending.index, elements.count)
    }

    /// Puts the placeholders among the element widgets (after every rebuild of those).
    func placePlaceholders() {
        for pending in placeholders.pending {
            for (widget, _) in pending.widgets where gtk_widget_get_parent(widget.widget) == elementBox.widget {
                removePlaceholder(widget.widget)
            }
        }
        let ordered = placeholders.pending.enumerated().sorted {
            (position(of: $0.element), $0.offset) < (position(of: $1.element), $1.offset)
        }
        var inserted: Int32 = 0
        for (_, pending) in ordered {
            let at = Int32(position(of: pending)) + inserted
            for (k, (widget, _)) in pending.widgets.enumerated() {
                insertPlaceholder(widget.widget, at: at + Int32(k))
            }
            inserted += Int32(pending.widgets.count)
        }
    }

    /// Follows the host's news of a deferred drop's placeholders (``GtkPlaceholderDelegate``):
    /// shows them, moves their progress bars, and takes them away once resolved or failed.
    func placeholder(_ token: DropToken, changed: PlaceholderChange) {
        guard let i = placeholders.pending.firstIndex(where: { $0.token == token }) else { return }
        switch changed {
        case .inserted:
            placeholders.pending[i].widgets = placeholders.pending[i].arriving.map(makePlaceholder)
            placePlaceholders()
        case .progress(let fraction):
            for (_, bar) in placeholders.pending[i].widgets {
                if let fraction {
                    gtk_progress_bar_set_fraction(dd_progress_bar(bar.raw), fraction)
                } else {
                    gtk_progress_bar_pulse(dd_progress_bar(bar.raw))
                }
            }
        case .resolved, .failed:
            let gone = placeholders.pending.remove(at: i)
            for (widget, _) in gone.widgets where gtk_widget_get_parent(widget.widget) == elementBox.widget {
                removePlaceholder(widget.widget)
            }
        }
    }
}
