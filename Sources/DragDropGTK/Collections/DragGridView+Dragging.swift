import CGtk4
import DragDrop

/// Dragging tiles: the selection flies together (M1, M3), drops land in reading order (F8) or
/// inside folders, folders spring open (SP1), and more tiles join a running drag (M2).
extension DragGridView: GtkSpringLoadingDelegate {
    public func dragHost(_ host: GtkDragHost, itemsForDragStartingAt item: TargetID) -> [TargetID] {
        selection.contains(item) ? selection : [item]
    }

    public func dragHost(_ host: GtkDragHost, showInsertionAt index: Int?, in container: TargetID) {
        if let shown = insertionShown {
            gtk_widget_remove_css_class(shown.child.widget, shown.cssClass)
            insertionShown = nil
        }
        guard container == id, let index, !children.isEmpty else { return }
        let shown =
            index < children.count
            ? (children[index].child, "dd-grid-insert-before")
            : (children[children.count - 1].child, "dd-grid-insert-after")
        gtk_widget_add_css_class(shown.0.widget, shown.1)
        insertionShown = shown
    }

    /// The tile a dragged item stands for, from whichever grid in this app owns it.
    private func draggedTile(_ item: DragItem) -> Tile {
        let owner = item.id == id ? self : host.owner(of: item.id) as? DragGridView
        return owner?.tile(item.id) ?? Tile(id: item.id, title: item.name, folderContents: nil)
    }

    public func dragHost(_ host: GtkDragHost, perform drop: DropRequest) -> DropResult {
        let before = tiles
        var after = tiles
        var selecting: [TargetID] = []
        if drop.destination == id {
            // Arrivals get new identifiers, so a move's originals and arrivals never share one.
            let arriving = drop.items.map { item in
                var tile = draggedTile(item)
                tile.id = newID()
                return tile
            }
            if let deferred = deferIfAsked(drop, arriving: arriving) { return deferred }
            let index = min(max(0, drop.index ?? tiles.count), tiles.count)
            after.insert(contentsOf: arriving, at: index)
            selecting = arriving.map(\.id)
        } else if let folder = after.firstIndex(where: { $0.id == drop.destination }), after[folder].isFolder {
            let titles = drop.items.flatMap { item -> [String] in
                let tile = draggedTile(item)
                return tile.folderContents ?? [tile.title]
            }
            after[folder].folderContents?.append(contentsOf: titles)
        } else {
            return .failed(DropFailure(.failed, "Nothing in \(title) is called '\(drop.destination)' any more."))
        }
        setTiles(after, selecting: selecting)
        return .committed(
            undo: UndoableAction(
                undo: { [weak self] in self?.setTiles(before, selecting: []) },
                redo: { [weak self] in self?.setTiles(after, selecting: selecting) }))
    }

    public func dragHost(_ host: GtkDragHost, removeMovedItems moved: [DragItem], after drop: DropRequest)
        -> UndoableAction?
    {
        let ids = Set(moved.map(\.id))
        let before = tiles
        let kept = tiles.filter { !ids.contains($0.id) }
        guard kept.count != before.count else { return nil }
        setTiles(kept, selecting: selection)
        return UndoableAction(
            undo: { [weak self] in self?.setTiles(before, selecting: []) },
            redo: { [weak self] in self?.setTiles(kept, selecting: []) })
    }

    /// Another app took tiles with a move: they leave the grid (S4).
    public func dragHost(_ host: GtkDragHost, itemsMovedToOtherApp moved: [DragItem], app: AppID?) -> [TargetID] {
        let ids = Set(moved.map(\.id))
        let leaving = tiles.filter { ids.contains($0.id) }.map(\.id)
        if !leaving.isEmpty { setTiles(tiles.filter { !ids.contains($0.id) }, selecting: selection) }
        return leaving
    }

    public func dragHost(_ host: GtkDragHost, itemProviderFor item: TargetID) -> ItemProvider? {
        guard let tile = tile(item) else { return nil }
        return ItemProvider(app: host.engine.app, representations: [.text(.utf8PlainText, tile.title)])
    }

    public func dragHost(_ host: GtkDragHost, exportedRepresentationsFor ids: [TargetID]) -> [ExportedRepresentation] {
        [.text(ids.compactMap { tile($0)?.title }.joined(separator: "\n"))]
    }

    /// A folder sprang open during a drag (SP1).
    public func dragHost(_ host: GtkDragHost, activate target: TargetID, explicit: Bool) {
        guard let folder = tile(target), folder.isFolder else { return }
        onOpenFolder?(folder, true)
    }

    // MARK: Adding to a running drag (M2)

    /// Adds the tile under the pointer to the running drag (M2). Returns the added tile.
    ///
    /// Under X11 a GTK drag grabs the pointer and takes every key event: any button release
    /// ends the drag and no key reaches the window, so neither a second click nor a shortcut
    /// can add items there. Pressing Alt (a modifier, read from the keyboard's state while the
    /// drag runs) calls this instead; apps with a second pointer or touch call it on that tap.
    @discardableResult
    public func addTileUnderPointerToDrag() -> TargetID? {
        guard host.engine.isDragging, let point = host.engine.currentSession?.pointer,
            let hit = host.engine.registry.resolve(at: point).source, tile(hit) != nil
        else { return nil }
        var added: TargetID?
        host.drive { added = host.engine.tap(at: point) }
        host.diagnose("add-to-drag item=\(added?.rawValue ?? "none")")
        if let added, let child = children.first(where: { $0.id == added })?.child {
            gtk_widget_add_css_class(child.widget, "dd-selected")
        }
        return added
    }

    /// While a drag that started on one of the tiles runs, watches the Alt key: each press adds
    /// the tile under the pointer (M2).
    func watchAddToDragKey(of tileID: TargetID) {
        guard let source = host.registered[tileID]?.dragSource else { return }
        GSignal.connect(source.raw, "drag-begin", pointer: { [weak self] _ in self?.pollAddToDragKey(wasDown: true) })
    }

    private func pollAddToDragKey(wasDown: Bool) {
        guard host.engine.isDragging else { return }
        let down = Self.altIsDown()
        if down, !wasDown { addTileUnderPointerToDrag() }
        GLibSource.once(afterMilliseconds: 30) { [weak self] in self?.pollAddToDragKey(wasDown: down) }
    }

    private static func altIsDown() -> Bool {
        guard let display = gdk_display_get_default(), let seat = gdk_display_get_default_seat(display),
            let keyboard = gdk_seat_get_keyboard(seat)
        else { return false }
        return gdk_device_get_modifier_state(keyboard).rawValue & GDK_ALT_MASK.rawValue != 0
    }
}
