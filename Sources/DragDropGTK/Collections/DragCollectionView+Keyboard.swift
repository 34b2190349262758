import CGtk4
import DragDrop

/// Keyboard drop points from the model (C4, issue 12): a keyboard drag reaches every folder of
/// the collection in order, those scrolled out of view too. Only the rows on screen are
/// registered, so the engine asks here for the next folder after the one it is on and has it
/// revealed: the view scrolls it into view, GTK binds its row, the row registers and the focus
/// lands on it, spoken by name.
extension DragCollectionView {
    /// The nearest folder after (or before) `item` in the collection, from the data source
    /// (``DragCollectionDataSource/indexOfFolder(after:forward:)``); from the first (or last)
    /// item when `item` is nil. Nil when there is none, or folders take no drops.
    public func dragHost(
        _ host: GtkDragHost, keyboardDropPointIn container: TargetID, after item: TargetID?, forward: Bool
    ) -> TargetID? {
        guard container == id, options.acceptsDrops, let dataSource, !rows.isEmpty else { return nil }
        finishPublishing()
        var from: Int?
        if let item {
            guard let index = dataIndex(of: item) else { return nil }
            from = index
        }
        guard let index = dataSource.indexOfFolder(after: from, forward: forward), index >= 0, index < itemCount
        else { return nil }
        return dataSource.itemID(at: index)
    }

    /// Scrolls the least that shows `item`'s row whole, then follows GTK's next frames until
    /// the row shows (GTK binds it at its next layout, and it registers).
    public func dragHost(_ host: GtkDragHost, reveal item: TargetID, in container: TargetID) {
        guard container == id else { return }
        finishPublishing()
        let generation = (Self.reveals[ObjectIdentifier(self)] ?? 0) &+ 1
        Self.reveals[ObjectIdentifier(self)] = generation
        guard scrollToShow(item) else { return }
        follow(item, generation: generation, tries: 12)
    }

    /// The reveal each view follows now (a newer one replaces it).
    private static var reveals: [ObjectIdentifier: Int] = [:]

    /// Checks after GTK's next frames that `item`'s row shows, and scrolls again while it does
    /// not: GTK 4.8 may move a value set before it laid out the last one out (it maps the value
    /// to an anchor row through its estimate of rows it has not measured).
    private func follow(_ item: TargetID, generation: Int, tries: Int) {
        GLibSource.once(afterMilliseconds: 50) { [weak self] in
            guard let self, Self.reveals[ObjectIdentifier(self)] == generation, host.engine.isDragging else { return }
            if let cell = boundByID[item], cell.registered, rowBounds(of: cell) != nil { return }
            host.diagnose("keyboard reveal \(item) again: not in view at offset \(verticalOffset)")
            guard scrollToShow(item), tries > 1 else { return }
            follow(item, generation: generation, tries: tries - 1)
        }
    }

    /// Scrolls the least that shows `item`'s row whole, moving the registered rows' frames with
    /// the content as autoscroll does (A1). Where the row lies comes from GTK's own estimate of
    /// the content (its height over the number of lines: rows are equally tall), not from rows
    /// on screen, whose frames lag a scroll GTK has not laid out yet. Returns whether it scrolled.
    @discardableResult
    func scrollToShow(_ item: TargetID) -> Bool {
        guard let position = positions[item], let adjustment = verticalAdjustment else { return false }
        let perLine: Int
        switch options.layout {
        case .list: perLine = 1
        case .grid(let most): perLine = max(1, most)
        }
        let lines = (rows.count + perLine - 1) / perLine
        let lower = gtk_adjustment_get_lower(adjustment)
        let upper = gtk_adjustment_get_upper(adjustment)
        guard lines > 0, upper > lower else { return false }
        let height = (upper - lower) / Double(lines)
        let top = lower + Double(position / perLine) * height
        let value = gtk_adjustment_get_value(adjustment)
        let page = gtk_adjustment_get_page_size(adjustment)
        var delta = 0.0
        if top < value {
            delta = top - value
        } else if top + height > value + page {
            delta = top + height - page - value
        }
        guard delta != 0 else { return false }
        return (dragHost(host, scroll: id, by: Vector(dx: 0, dy: delta))?.dy ?? 0) != 0
    }
}
