import CGtk4
import DragDrop

/// Dragging in a ``DragCollectionView``: what a drag carries (the selection, M1, off-screen rows
/// included), where a drop lands (F8, from the model), the drop itself through the data source,
/// rows making room, folders springing open (SP1), autoscroll (A1) and the names of items that
/// are not on screen.
extension DragCollectionView: GtkSpringLoadingDelegate {
    /// A drag from a selected row carries the whole selection, rows off screen included (M1);
    /// from another row, that row alone.
    public func dragHost(_ host: GtkDragHost, itemsForDragStartingAt item: TargetID) -> [TargetID] {
        deferredClick = nil
        pointerDown = false  // the release goes to the drag, not to the rows
        onDragPrepared?()
        return selected.contains(item) ? selection : [item]
    }

    /// The selection, for a keyboard pick-up of the collection (C4); nothing when items do not drag.
    /// The focused row's item goes alone when it is not selected (the keyboard focus is on
    /// GTK's row, above the row's registered widget).
    public func dragHost(_ host: GtkDragHost, selectedItemsIn container: TargetID) -> [TargetID] {
        guard container == id, options.draggable else { return [] }
        if let focused = focusedItem ?? lastFocusedItem, !selected.contains(focused) { return [focused] }
        return selection
    }

    /// The item of the row holding the keyboard focus, if the focus is on one of the rows.
    var focusedItem: TargetID? {
        guard let root = gtk_widget_get_root(itemsView.widget), var widget = gtk_root_get_focus(root) else {
            return nil
        }
        // GTK focuses the row widget around the cell: look at it, its ancestors up to the view,
        // and their first children.
        while widget != itemsView.widget {
            if let cell = cellsByWidget[UInt(bitPattern: widget)], let itemID = cell.itemID { return itemID }
            if let child = gtk_widget_get_first_child(widget), let cell = cellsByWidget[UInt(bitPattern: child)],
                let itemID = cell.itemID
            {
                return itemID
            }
            guard let parent = gtk_widget_get_parent(widget) else { return nil }
            widget = parent
        }
        return nil
    }

    /// Where a drop at `point` lands among the items: from the positions and the row pitch,
    /// with the same rule as `InsertionIndex` (before the first item whose centre lies after
    /// the point), so rows off screen count as rows. A keyboard drop (no point) lands at the end.
    public func dragHost(_ host: GtkDragHost, insertionIndexIn container: TargetID, at point: Point?) -> Int? {
        guard container == id else { return nil }
        finishPublishing()
        guard let point else { return itemCount }
        guard let frames = modelFrames() else { return itemCount }
        let position = InsertionIndex.compute(
            layout: options.layout == .list ? .vertical : .grid, frames: frames, point: point,
            direction: layoutDirection)
        return dataIndex(beforePosition: position)
    }

    /// The first row on screen, whose frame places the others (GTK binds rows around the
    /// visible ones too, without laying them out). Which row that is changes only with GTK's
    /// layout or a cell's binding: it is looked for again then, and its frame is read from the
    /// engine each time (autoscroll moves frames between layouts).
    private func frameReference() -> (position: Int, frame: Rect)? {
        let registry = host.engine.registry
        if let cached = frameReferenceCache, cached.cells == CollectionCell.generation,
            cached.layout == host.layoutGeneration, let target = registry.target(cached.itemID), !target.isHidden,
            target.frame.height > 0
        {
            return (cached.position, target.frame)
        }
        var reference: (position: Int, itemID: TargetID, frame: Rect)?
        for cell in cells.values {
            guard cell.registered, let position = cell.position, let itemID = cell.itemID,
                position < reference?.position ?? .max, rowBounds(of: cell) != nil,
                let target = registry.target(itemID), !target.isHidden, target.frame.height > 0
            else { continue }
            reference = (position, itemID, target.frame)
        }
        guard let reference else {
            frameReferenceCache = nil
            return nil
        }
        frameReferenceCache = (CollectionCell.generation, host.layoutGeneration, reference.position, reference.itemID)
        return (reference.position, reference.frame)
    }

    /// The frames of every displayed row, computed when read (a binary search reads a few).
    func modelFrames() -> LazyMapCollection<Range<Int>, Rect>? {
        guard let frame = modelFrameFunction() else { return nil }
        return (0..<rows.count).lazy.map(frame)
    }

    /// The number of items before display position `position` (its data index).
    /// From the placeholders' positions (read once per change), not a pass over the rows: this
    /// runs at every pointer move over the view while a deferred drop loads.
    func dataIndex(beforePosition position: Int) -> Int {
        let clamped = min(max(0, position), rows.count)
        return min(clamped - placeholdersBefore(clamped), itemCount)
    }

    /// Hands a drop to the data source: between the items at the insertion index (or deferred
    /// with placeholders, A4), or into the folder tile it was dropped on.
    public func dragHost(_ host: GtkDragHost, perform drop: DropRequest) -> DropResult {
        finishPublishing()
        guard let dataSource else {
            return .failed(DropFailure(.failed, Localization.format(.notAvailable, ["name": .name(title)])))
        }
        if drop.destination == id {
            let index = min(max(0, drop.index ?? dataSource.numberOfItems), dataSource.numberOfItems)
            if let deferral, deferral(drop) {
                remember(drop, at: index, finishedByView: true)
                return .deferred(placeholders: drop.items.count)
            }
            let result = dataSource.collectionView(self, perform: drop, at: index)
            // An outline's drop goes into a row or among rows the app orders: no placeholder
            // row stands for it at an index of the rows shown.
            if case .deferred = result, outlineView == nil { remember(drop, at: index, finishedByView: false) }
            return result
        }
        guard let index = dataIndex(of: drop.destination), dataSource.isFolder(at: index) else {
            return .failed(
                DropFailure(
                    .failed,
                    Localization.format(
                        .nothingCalled, ["name": .name(title), "destination": .name("\(drop.destination)")])))
        }
        return dataSource.collectionView(self, perform: drop, intoFolderAt: index)
    }

    /// Lets the data source take moved items out after the destination committed them (S4).
    public func dragHost(_ host: GtkDragHost, removeMovedItems items: [DragItem], after drop: DropRequest)
        -> UndoableAction?
    {
        dataSource?.collectionView(self, removeMovedItems: items, after: drop)
    }

    /// Lets the data source take out the items another app took with a move (S4).
    public func dragHost(_ host: GtkDragHost, itemsMovedToOtherApp items: [DragItem], app: AppID?) -> [TargetID] {
        dataSource?.collectionView(self, itemsMovedToOtherApp: items, app: app) ?? []
    }

    /// The data of a dragged item (P1), from the data source, on screen or not.
    public func dragHost(_ host: GtkDragHost, itemProviderFor item: TargetID) -> ItemProvider? {
        guard let dataSource, let index = dataIndex(of: item) else { return nil }
        return dataSource.collectionView(self, itemProviderAt: index)
    }

    /// What other apps get for `ids`: their titles, one per line.
    public func dragHost(_ host: GtkDragHost, exportedRepresentationsFor ids: [TargetID]) -> [ExportedRepresentation] {
        [.text(ids.compactMap { name(of: $0) }.joined(separator: "\n"))]
    }

    /// The title of an item that has no row on screen (announcements, the drop's item names).
    public func dragHost(_ host: GtkDragHost, nameOfItem item: TargetID, in container: TargetID) -> String? {
        container == id ? name(of: item) : nil
    }

    /// The title of the item `item`, on screen or not.
    func name(of item: TargetID) -> String? {
        guard let dataSource, let index = dataIndex(of: item) else { return nil }
        return dataSource.title(at: index)
    }

    // MARK: Rows making room (F8)

    /// Shows where a drop would land (F8): rows from there make room, or a bar before a tile.
    public func dragHost(_ host: GtkDragHost, showInsertionAt index: Int?, in container: TargetID) {
        guard container == id else { return }
        insertionShown = index.map { position(ofDataIndex: $0) }
        for cell in cells.values { applyInsertion(to: cell) }
    }

    // MARK: Outlines (T1)

    /// The tree of the outline this view shows.
    public func dragHost(_ host: GtkDragHost, outlineOf container: TargetID) -> OutlineTree? {
        container == id ? outlineView?.tree : nil
    }

    public func dragHost(_ host: GtkDragHost, destination: TargetID, isTargeted: Bool) {
        guard destination == id else { return }
        outlineTargeted = isTargeted
        highlightOutline()
    }

    /// A drop into a row of an outline highlights that row alone, not the whole outline around
    /// it (F4); a drop between rows highlights the outline.
    private func highlightOutline() {
        guard outlineView != nil else { return }
        if outlineTargeted, outlineInto == nil {
            gtk_widget_add_css_class(itemsView.widget, "dd-drop-highlight")
        } else {
            gtk_widget_remove_css_class(itemsView.widget, "dd-drop-highlight")
        }
    }

    /// Shows where an outline's drop lands: the rows from the gap on make room and a line shows
    /// at the chosen depth (`dd-outline-gap-N`, or `dd-outline-end-N` under the last row), or
    /// the row it would go into highlights (`dd-outline-into`).
    public func dragHost(_ host: GtkDragHost, showOutlineDrop point: OutlineDropPoint?, in container: TargetID) {
        guard container == id, let outline = outlineView else { return }
        outline.dropPointMoved(to: point)
        switch point {
        case .on(let row)?:
            outlineInto = row
            insertionShown = nil
        case .between(let parent, let index, let depth)?:
            outlineInto = nil
            outlineDepth = depth
            insertionShown = outline.position(of: .between(parent: parent, index: index, depth: depth))
        case nil:
            outlineInto = nil
            insertionShown = nil
        }
        highlightOutline()
        for cell in cells.values { applyInsertion(to: cell) }
        // A keyboard drag's drop point may lie off screen (T5): its row is brought into view.
        if host.engine.currentSession?.mode == .keyboard, !rows.isEmpty {
            let shown = outlineInto.flatMap { positions[$0] } ?? insertionShown.map { min($0, rows.count - 1) }
            if let shown { scrollToShow(rows[shown].id) }
        }
    }

    /// Shows the insertion on `cell` (F8). In a list the rows from the insertion point on move
    /// down by a row's gap (`dd-make-room`, a transform: GTK lays nothing out again, so rows keep
    /// the places the engine knows, and a list anchored to its bottom row while scrolling does
    /// not shift); a drop at the end underlines the last row. A keyboard drag's drop point
    /// (`KeyboardStyles/focusClass` on the view) also draws a line in the outline's colour at
    /// the bottom of the gap (`dd-make-room-first`) or under the last row. In a grid a bar shows before the
    /// tile the drop would precede.
    func applyInsertion(to cell: CollectionCell) {
        if let into = outlineInto {
            cell.setInsertion(cell.itemID == into ? "dd-outline-into" : nil)
            return
        }
        guard let shown = insertionShown, let position = cell.position, !rows.isEmpty else {
            cell.setInsertion(nil)
            return
        }
        switch options.layout {
        case .list:
            // An outline's line is drawn at the drop's depth (T1).
            let depth = min(outlineDepth, Self.outlineDepths - 1)
            if position > shown {
                cell.setInsertion("dd-make-room")
            } else if position == shown {
                cell.setInsertion(outlineView != nil ? "dd-outline-gap-\(depth)" : "dd-make-room-first")
            } else if shown >= rows.count, position == rows.count - 1 {
                cell.setInsertion(outlineView != nil ? "dd-outline-end-\(depth)" : "dd-insert-end")
            } else {
                cell.setInsertion(nil)
            }
        case .grid:
            if position == shown {
                cell.setInsertion("dd-grid-insert-before")
            } else if shown >= rows.count, position == rows.count - 1 {
                cell.setInsertion("dd-grid-insert-after")
            } else {
                cell.setInsertion(nil)
            }
        }
    }

    // MARK: Folders (SP1)

    /// A folder tile sprang open under a drag (SP1): the data source opens it.
    public func dragHost(_ host: GtkDragHost, activate control: TargetID, explicit: Bool) {
        if let outline = outlineView {
            outline.springOpen(control)
            return
        }
        guard let dataSource, let index = dataIndex(of: control), dataSource.isFolder(at: index) else { return }
        dataSource.collectionView(self, openFolderAt: index, duringDrag: true)
    }

    // MARK: Autoscroll (A1)

    /// Scrolls the items by `delta` (clamped to the content) and moves the registered rows with
    /// them; GTK binds the rows that come into view at the next layout, placed by the model.
    public func dragHost(_ host: GtkDragHost, scroll container: TargetID, by delta: Vector) -> Vector? {
        guard container == id, let adjustment = verticalAdjustment, delta.dy != 0 else { return .zero }
        let value = gtk_adjustment_get_value(adjustment)
        let lowest = gtk_adjustment_get_lower(adjustment)
        let highest = max(lowest, gtk_adjustment_get_upper(adjustment) - gtk_adjustment_get_page_size(adjustment))
        let target = min(max(lowest, value + delta.dy), highest)
        guard target != value else { return .zero }
        gtk_adjustment_set_value(adjustment, target)
        let applied = gtk_adjustment_get_value(adjustment) - value
        guard applied != 0 else { return .zero }
        do { try host.engine.offsetDescendants(of: id, by: Vector(dx: 0, dy: -applied)) } catch {
            host.onDiagnostic?("error: \(error)")
        }
        return Vector(dx: 0, dy: applied)
    }

    // MARK: Model frames

    /// A function from display position to frame (engine coordinates), anchored on one row on
    /// screen; nil while no row is on screen.
    func modelFrameFunction() -> ((Int) -> Rect)? {
        guard let reference = frameReference() else { return nil }
        switch options.layout {
        case .list:
            let step = pitch.y > 0 ? pitch.y : reference.frame.height
            return { position in
                reference.frame.offset(by: Vector(dx: 0, dy: Double(position - reference.position) * step))
            }
        case .grid:
            let columns = self.columns
            // GTK fills a right-to-left grid's rows from the right (L3).
            let stepX = (pitch.x > 0 ? pitch.x : reference.frame.width) * (layoutDirection == .rightToLeft ? -1 : 1)
            let stepY = pitch.y > 0 ? pitch.y : reference.frame.height
            return { position in
                let dx = Double(position % columns - reference.position % columns) * stepX
                let dy = Double(position / columns - reference.position / columns) * stepY
                return reference.frame.offset(by: Vector(dx: dx, dy: dy))
            }
        }
    }
}
