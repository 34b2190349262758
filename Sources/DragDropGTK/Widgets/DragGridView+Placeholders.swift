import CGtk4
import DragDrop

/// The deferred drops of a ``DragGridView``: what is arriving, where, and the tiles standing in
/// for it.
@MainActor
final class GridPlaceholders {
    struct Pending {
        let token: DropToken
        /// The tiles that arrive (their identifiers are replaced on arrival).
        let arriving: [DragGridView.Tile]
        /// The tile the placeholders follow (nil: the first place), so they stay put when tiles
        /// before them come and go; `index` is the fallback when that tile left.
        let after: TargetID?
        let index: Int
        var tiles: [(child: GObjectRef, bar: GObjectRef)] = []
    }

    var defersDrop: (@MainActor (DropRequest) -> Bool)?
    /// In drop order.
    var pending: [Pending] = []
}

/// Placeholders (A4): a drop on the grid that the app loads later shows one tile per arriving
/// item at the drop index, with a progress bar (A5), until the content arrives (the placeholder
/// tiles become the tiles, one undo step, a move leaves its source only then, S4) or fails (the
/// placeholders go away and the host says why, A6). The grid stays usable meanwhile.
extension DragGridView {
    /// Decides whether a drop between the grid's tiles loads its content later (drops into
    /// folder tiles never do). Return true to show placeholders at once; then report progress
    /// with ``GtkDragHost/updateDeferredDrop(_:progress:)`` and end with
    /// ``finishDeferredDrop(_:failure:)``. Nil (the default): drops commit at once.
    public var defersDrop: (@MainActor (DropRequest) -> Bool)? {
        get { placeholders.defersDrop }
        set { placeholders.defersDrop = newValue }
    }

    /// The deferred drops still loading, oldest first.
    public var pendingDrops: [DropToken] { placeholders.pending.map(\.token) }

    /// Ends a deferred drop: without `failure` the tiles arrive where the placeholders are (one
    /// undo step with a move's removal from its source, U1, S4); with it, the placeholders go
    /// away and the reason is shown (A6). Unknown tokens are ignored.
    public func finishDeferredDrop(_ token: DropToken, failure: DropFailure? = nil) {
        guard let pending = placeholders.pending.first(where: { $0.token == token }) else { return }
        if let failure {
            host.completeDeferredDrop(token, with: .failed(failure))
            return
        }
        let before = tiles
        let arriving = pending.arriving.map { tile in
            var tile = tile
            tile.id = newID()
            return tile
        }
        var after = tiles
        after.insert(contentsOf: arriving, at: position(of: pending))
        let selected = arriving.map(\.id)
        setTiles(after, selecting: selected)
        host.completeDeferredDrop(
            token,
            with: .committed(
                undo: UndoableAction(
                    undo: { [weak self] in self?.setTiles(before, selecting: []) },
                    redo: { [weak self] in self?.setTiles(after, selecting: selected) })))
    }

    /// The drop's result when ``defersDrop`` asks to load it later; `arriving` are the tiles
    /// the drop brings.
    func deferIfAsked(_ drop: DropRequest, arriving: [Tile]) -> DropResult? {
        guard drop.destination == id, let decide = placeholders.defersDrop, decide(drop) else { return nil }
        let index = min(max(0, drop.index ?? tiles.count), tiles.count)
        placeholders.pending.append(
            GridPlaceholders.Pending(
                token: drop.token, arriving: arriving, after: index > 0 ? tiles[index - 1].id : nil, index: index))
        return .deferred(placeholders: drop.items.count)
    }

    /// Where a drop's content lands among the tiles now.
    private func position(of pending: GridPlaceholders.Pending) -> Int {
        if let after = pending.after, let i = tiles.firstIndex(where: { $0.id == after }) { return i + 1 }
        return pending.after == nil ? 0 : min(pending.index, tiles.count)
    }

    /// Puts the placeholder tiles among the tiles (after every rebuild of the tiles).
    func placePlaceholderTiles() {
        for pending in placeholders.pending {
            for (child, _) in pending.tiles where gtk_widget_get_parent(child.widget) == flowBox.widget {
                gtk_flow_box_remove(box, child.widget)
            }
        }
        let ordered = placeholders.pending.enumerated().sorted {
            (position(of: $0.element), $0.offset) < (position(of: $1.element), $1.offset)
        }
        var inserted: Int32 = 0
        for (_, pending) in ordered {
            let at = Int32(position(of: pending)) + inserted
            for (k, (child, _)) in pending.tiles.enumerated() {
                gtk_flow_box_insert(box, child.widget, at + Int32(k))
            }
            inserted += Int32(pending.tiles.count)
        }
    }

    private func makePlaceholderTile(_ title: String) -> (child: GObjectRef, bar: GObjectRef) {
        let child = GObjectRef(newWidget: gtk_flow_box_child_new())
        gtk_widget_set_can_focus(child.widget, 0)
        gtk_widget_add_css_class(child.widget, "dd-grid-tile")
        gtk_widget_add_css_class(child.widget, "dd-placeholder")
        gtk_widget_set_size_request(child.widget, 96, 64)
        let content = gtk_box_new(GTK_ORIENTATION_VERTICAL, 4)
        for margin in [gtk_widget_set_margin_start, gtk_widget_set_margin_end] { margin(content, 8) }
        gtk_widget_set_valign(content, GTK_ALIGN_CENTER)
        let label = gtk_label_new("Loading \u{201C}\(title)\u{201D}\u{2026}")
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
        guard let i = placeholders.pending.firstIndex(where: { $0.token == token }) else { return }
        switch changed {
        case .inserted:
            placeholders.pending[i].tiles = placeholders.pending[i].arriving.map { makePlaceholderTile($0.title) }
            placePlaceholderTiles()
        case .progress(let fraction):
            for (_, bar) in placeholders.pending[i].tiles {
                if let fraction {
                    gtk_progress_bar_set_fraction(dd_progress_bar(bar.raw), fraction)
                } else {
                    gtk_progress_bar_pulse(dd_progress_bar(bar.raw))
                }
            }
        case .resolved, .failed:
            let gone = placeholders.pending.remove(at: i)
            for (child, _) in gone.tiles where gtk_widget_get_parent(child.widget) == flowBox.widget {
                gtk_flow_box_remove(box, child.widget)
            }
        }
    }
}
