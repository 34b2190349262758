import CGtk4
import DragDrop

/// Placeholders (A4): a drop the app loads later shows one row per arriving item at the drop
/// index, with a progress bar, until the content arrives (the rows become the items) or fails
/// (the rows go away and the host says why, A6). The list stays usable meanwhile. The
/// bookkeeping is shared with the grid (DeferredDropHosting.swift); the rows are the list's.
extension DragListView: DeferredDropHosting {
    /// Decides whether a drop on this list loads its content later. Return true to show
    /// placeholders at once; then report progress with ``GtkDragHost/updateDeferredDrop(_:progress:)``
    /// and end with ``finishDeferredDrop(_:failure:)``. Nil (the default): drops commit at once.
    public var defersDrop: (@MainActor (DropRequest) -> Bool)? {
        get { placeholders.defersDrop }
        set { placeholders.defersDrop = newValue }
    }

    /// The deferred drops still loading, oldest first.
    public var pendingDrops: [DropToken] { pendingTokens }

    /// Ends a deferred drop: without `failure` the items arrive where the placeholders are (one
    /// undo step with a move's removal from its source, U1, S4); with it, the placeholders go
    /// away and the reason is shown (A6). Unknown tokens are ignored.
    public func finishDeferredDrop(_ token: DropToken, failure: DropFailure? = nil) {
        finishPendingDrop(token, failure: failure)
    }

    /// The drop's result when ``defersDrop`` asks to load it later. The arriving items keep
    /// their sources' identifiers until they arrive.
    func deferIfAsked(_ drop: DropRequest) -> DropResult? {
        deferIfAsked(drop, arriving: drop.items.map { Item(id: $0.id, title: $0.name) })
    }

    var elementBox: GObjectRef { listBox }

    func insertPlaceholder(_ widget: UnsafeMutablePointer<GtkWidget>, at index: Int32) {
        gtk_list_box_insert(dd_list_box(listBox.raw), widget, index)
    }

    func removePlaceholder(_ widget: UnsafeMutablePointer<GtkWidget>) {
        gtk_list_box_remove(dd_list_box(listBox.raw), widget)
    }

    func makePlaceholder(for item: Item) -> (widget: GObjectRef, bar: GObjectRef) {
        let row = GObjectRef(newWidget: gtk_list_box_row_new())
        gtk_list_box_row_set_selectable(dd_list_box_row(row.raw), 0)
        gtk_list_box_row_set_activatable(dd_list_box_row(row.raw), 0)
        gtk_widget_add_css_class(row.widget, "dd-row")
        gtk_widget_add_css_class(row.widget, "dd-placeholder")
        let content = gtk_box_new(GTK_ORIENTATION_VERTICAL, 4)
        for margin in [gtk_widget_set_margin_start, gtk_widget_set_margin_end] { margin(content, 12) }
        gtk_widget_set_margin_top(content, 6)
        gtk_widget_set_margin_bottom(content, 8)
        let label = gtk_label_new("Loading \u{201C}\(item.title)\u{201D}\u{2026}")
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
        placeholder(token, changed: changed)
    }
}
