import CGtk4
import DragDrop

/// Placeholders (A4): a drop on the grid that the app loads later shows one tile per arriving
/// item at the drop index, with a progress bar (A5), until the content arrives (the placeholder
/// tiles become the tiles, one undo step, a move leaves its source only then, S4) or fails (the
/// placeholders go away and the host says why, A6). The grid stays usable meanwhile. The
/// bookkeeping is shared with the list (DeferredDropHosting.swift); the tiles are the grid's.
extension DragGridView: DeferredDropHosting {
    /// Decides whether a drop between the grid's tiles loads its content later (drops into
    /// folder tiles never do). Return true to show placeholders at once; then report progress
    /// with ``GtkDragHost/updateDeferredDrop(_:progress:)`` and end with
    /// ``finishDeferredDrop(_:failure:)``. Nil (the default): drops commit at once.
    public var defersDrop: (@MainActor (DropRequest) -> Bool)? {
        get { placeholders.defersDrop }
        set { placeholders.defersDrop = newValue }
    }

    /// The deferred drops still loading, oldest first.
    public var pendingDrops: [DropToken] { pendingTokens }

    /// Ends a deferred drop: without `failure` the tiles arrive where the placeholders are (one
    /// undo step with a move's removal from its source, U1, S4); with it, the placeholders go
    /// away and the reason is shown (A6). Unknown tokens are ignored.
    public func finishDeferredDrop(_ token: DropToken, failure: DropFailure? = nil) {
        finishPendingDrop(token, failure: failure)
    }

    var elementBox: GObjectRef { flowBox }

    func insertPlaceholder(_ widget: UnsafeMutablePointer<GtkWidget>, at index: Int32) {
        gtk_flow_box_insert(box, widget, index)
    }

    func removePlaceholder(_ widget: UnsafeMutablePointer<GtkWidget>) { gtk_flow_box_remove(box, widget) }

    func makePlaceholder(for tile: Tile) -> (widget: GObjectRef, bar: GObjectRef) {
        let child = GObjectRef(newWidget: gtk_flow_box_child_new())
        gtk_widget_set_can_focus(child.widget, 0)
        gtk_widget_add_css_class(child.widget, "dd-grid-tile")
        gtk_widget_add_css_class(child.widget, "dd-placeholder")
        gtk_widget_set_size_request(child.widget, 96, 64)
        let content = gtk_box_new(GTK_ORIENTATION_VERTICAL, 4)
        for margin in [gtk_widget_set_margin_start, gtk_widget_set_margin_end] { margin(content, 8) }
        gtk_widget_set_valign(content, GTK_ALIGN_CENTER)
        let label = gtk_label_new("Loading \u{201C}\(tile.title)\u{201D}\u{2026}")
        gtk_label_set_ellipsize(dd_label(UnsafeMutableRawPointer(label)), PANGO_ELLIPSIZE_END)
        let bar = GObjectRef(newWidget: gtk_progress_bar_new())
        gtk_box_append(dd_box(UnsafeMutableRawPointer(content)), label)
        gtk_box_append(dd_box(UnsafeMutableRawPointer(content)), bar.widget)
        gtk_flow_box_child_set_child(gtkCast(child.raw, to: GtkFlowBoxChild.self), content)
        return (child, bar)
    }
}

extension DragGridView: GtkPlaceholderDelegate {
    public func dragHost(
        _ host: GtkDragHost, placeholder token: DropToken, in container: TargetID, changed: PlaceholderChange
    ) {
        placeholder(token, changed: changed)
    }
}
