import CGtk4
import DragDrop

/// The deferred drops of a ``DragListView``: what is arriving, where, and the rows standing in
/// for it.
@MainActor
final class ListPlaceholders {
    struct Pending {
        let token: DropToken
        let titles: [String]
        /// The item the placeholders follow (nil: the top), so they stay put when rows above
        /// them come and go; `index` is the fallback when that item left.
        let after: TargetID?
        let index: Int
        var rows: [(row: GObjectRef, bar: GObjectRef)] = []
    }

    var defersDrop: (@MainActor (DropRequest) -> Bool)?
    /// In drop order.
    var pending: [Pending] = []
}

/// Placeholders (A4): a drop the app loads later shows one row per arriving item at the drop
/// index, with a progress bar, until the content arrives (the rows become the items) or fails
/// (the rows go away and the host says why, A6). The list stays usable meanwhile.
extension DragListView {
    /// Decides whether a drop on this list loads its content later. Return true to show
    /// placeholders at once; then report progress with ``GtkDragHost/updateDeferredDrop(_:progress:)``
    /// and end with ``finishDeferredDrop(_:failure:)``. Nil (the default): drops commit at once.
    public var defersDrop: (@MainActor (DropRequest) -> Bool)? {
        get { placeholders.defersDrop }
        set { placeholders.defersDrop = newValue }
    }

    /// The deferred drops still loading, oldest first.
    public var pendingDrops: [DropToken] { placeholders.pending.map(\.token) }

    /// Ends a deferred drop: without `failure` the items arrive where the placeholders are (one
    /// undo step with a move's removal from its source, U1, S4); with it, the placeholders go
    /// away and the reason is shown (A6). Unknown tokens are ignored.
    public func finishDeferredDrop(_ token: DropToken, failure: DropFailure? = nil) {
        guard let pending = placeholders.pending.first(where: { $0.token == token }) else { return }
        if let failure {
            host.completeDeferredDrop(token, with: .failed(failure))
            return
        }
        let before = items
        let arriving = pending.titles.map { Item(id: newID(), title: $0) }
        var after = items
        after.insert(contentsOf: arriving, at: position(of: pending))
        let selected = arriving.map(\.id)
        setItems(after, selecting: selected)
        host.completeDeferredDrop(
            token,
            with: .committed(
                undo: UndoableAction(
                    undo: { [weak self] in self?.setItems(before, selecting: []) },
                    redo: { [weak self] in self?.setItems(after, selecting: selected) })))
    }

    /// The drop's result when ``defersDrop`` asks to load it later.
    func deferIfAsked(_ drop: DropRequest) -> DropResult? {
        guard let decide = placeholders.defersDrop, decide(drop) else { return nil }
        let index = min(max(0, drop.index ?? items.count), items.count)
        placeholders.pending.append(
            ListPlaceholders.Pending(
                token: drop.token, titles: drop.items.map(\.name), after: index > 0 ? items[index - 1].id : nil,
                index: index))
        return .deferred(placeholders: drop.items.count)
    }

    /// Where a drop's content lands among the items now.
    private func position(of pending: ListPlaceholders.Pending) -> Int {
        if let after = pending.after, let i = items.firstIndex(where: { $0.id == after }) { return i + 1 }
        return pending.after == nil ? 0 : min(pending.index, items.count)
    }

    /// Puts the placeholder rows among the item rows (after every rebuild of the rows).
    func placePlaceholderRows() {
        let box = dd_list_box(listBox.raw)
        for pending in placeholders.pending {
            for (row, _) in pending.rows where gtk_widget_get_parent(row.widget) == listBox.widget {
                gtk_list_box_remove(box, row.widget)
            }
        }
        let ordered = placeholders.pending.enumerated().sorted {
            (position(of: $0.element), $0.offset) < (position(of: $1.element), $1.offset)
        }
        var inserted: Int32 = 0
        for (_, pending) in ordered {
            let at = Int32(position(of: pending)) + inserted
            for (k, (row, _)) in pending.rows.enumerated() {
                gtk_list_box_insert(box, row.widget, at + Int32(k))
            }
            inserted += Int32(pending.rows.count)
        }
    }

    private func makePlaceholderRow(_ title: String) -> (row: GObjectRef, bar: GObjectRef) {
        let row = GObjectRef(newWidget: gtk_list_box_row_new())
        gtk_list_box_row_set_selectable(dd_list_box_row(row.raw), 0)
        gtk_list_box_row_set_activatable(dd_list_box_row(row.raw), 0)
        gtk_widget_add_css_class(row.widget, "dd-row")
        gtk_widget_add_css_class(row.widget, "dd-placeholder")
        let content = gtk_box_new(GTK_ORIENTATION_VERTICAL, 4)
        for margin in [gtk_widget_set_margin_start, gtk_widget_set_margin_end] { margin(content, 12) }
        gtk_widget_set_margin_top(content, 6)
        gtk_widget_set_margin_bottom(content, 8)
        let label = gtk_label_new("Loading \u{201C}\(title)\u{201D}\u{2026}")
        gtk_label_set_xalign(dd_label(UnsafeMutableRawPointer(label)), 0)
        let bar = GObjectRef(newWidget: gtk_progress_bar_new())
        gtk_box_append(dd_box(UnsafeMutableRawPointer(content)), label)
        gtk_box_append(dd_box(UnsafeMutableRawPointer(content)), bar.widget)
        gtk_list_box_row_set_child(dd_list_box_row(row.raw), content)
        return (row, bar)
    }
}

extension DragListView: GtkPlaceholderDelegate {
    public func dragHost(
        _ host: GtkDragHost, placeholder token: DropToken, in container: TargetID, changed: PlaceholderChange
    ) {
        guard let i = placeholders.pending.firstIndex(where: { $0.token == token }) else { return }
        switch changed {
        case .inserted:
            placeholders.pending[i].rows = placeholders.pending[i].titles.map(makePlaceholderRow)
            placePlaceholderRows()
        case .progress(let fraction):
            for (_, bar) in placeholders.pending[i].rows {
                if let fraction {
                    gtk_progress_bar_set_fraction(dd_progress_bar(bar.raw), fraction)
                } else {
                    gtk_progress_bar_pulse(dd_progress_bar(bar.raw))
                }
            }
        case .resolved, .failed:
            let gone = placeholders.pending.remove(at: i)
            for (row, _) in gone.rows where gtk_widget_get_parent(row.widget) == listBox.widget {
                gtk_list_box_remove(dd_list_box(listBox.raw), row.widget)
            }
        }
    }
}
