import CGtk4
import DragDrop

/// Keyboard drop points from the model (C4, issue 12): a keyboard drag reaches every folder of
/// the collection in order, those scrolled out of view too. Only the rows on screen are
/// registered, so the engine asks here for the next folder after the one it is on and has it
/// revealed: the view scrolls it into view, GTK binds its row, the row registers and the focus
/// lands on it, spoken by name.
extension DragCollectionView: GtkKeyboardDropPointsDelegate {
    /// The nearest folder after (or before) `item` among the displayed rows; from the first
    /// (or last) row when `item` is nil. Nil when there is none, or folders take no drops.
    public func dragHost(
        _ host: GtkDragHost, keyboardDropPointIn container: TargetID, after item: TargetID?, forward: Bool
    ) -> TargetID? {
        guard container == id, options.acceptsDrops, let dataSource, !rows.isEmpty else { return nil }
        var position: Int
        if let item {
            guard let from = positions[item] else { return nil }
            position = forward ? from + 1 : from - 1
        } else {
            position = forward ? 0 : rows.count - 1
        }
        let step = forward ? 1 : -1
        while position >= 0, position < rows.count {
            if let index = dataIndex(ofPosition: position), dataSource.isFolder(at: index) { return rows[position].id }
            position += step
        }
        return nil
    }

    /// Scrolls the least that shows `item`'s row whole, moving the registered rows' frames with
    /// the content as autoscroll does (A1); GTK binds the row at its next layout and it registers.
    public func dragHost(_ host: GtkDragHost, reveal item: TargetID, in container: TargetID) {
        guard container == id, let position = positions[item], let adjustment = verticalAdjustment,
            let frame = containerFrame
        else { return }
        let value = gtk_adjustment_get_value(adjustment)
        let page = gtk_adjustment_get_page_size(adjustment)
        let top: Double
        let height: Double
        if let row = modelFrame(ofPosition: position) {
            top = row.minY - frame.minY + value
            height = row.height
        } else if pitch.y > 0 {
            top = Double(position / columns) * pitch.y
            height = pitch.y
        } else {
            return
        }
        var delta = 0.0
        if top < value {
            delta = top - value
        } else if top + height > value + page {
            delta = top + height - page - value
        }
        guard delta != 0 else { return }
        _ = dragHost(host, scroll: id, by: Vector(dx: 0, dy: delta))
    }
}
