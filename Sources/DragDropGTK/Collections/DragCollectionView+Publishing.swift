import CDragDropGTKSupport
import CGtk4
import DragDrop

/// Showing a big change to GTK a slice at a time.
///
/// GTK 4.8's list and grid views keep row widgets for about 200 items around the row they
/// anchor the view to, most of them off screen. Every row a change brings among those rows is
/// bound (a removal also makes its widget again), and the next frame measures it: 10,000 files
/// arriving at the top of a folder, or taken out by an undo, held the main loop 45 to 70 ms in
/// one turn in a debug build (plain GTK in C: about 20 ms), however many rows changed past the
/// first 200. So one insertion or removal of more than ``sliceRows`` rows near those rows is
/// shown ``sliceRows`` rows a frame, at the start of each of the view's frames (before GTK lays
/// the slice out):
/// - an insertion from both of its ends (the rows next to the items before and after it, where
///   GTK's rows are, ``keptRows`` from each end; into an empty view from the front only, so GTK
///   anchors the view to the first row as when shown at once), then its middle, which no row
///   widget reaches, at once;
/// - a removal at once where no row widget is (past the rows GTK keeps, and before them), then
///   the rest a slice at a time.
///
/// Until the last slice, ``lag`` says which rows the view shows ahead of or behind the data
/// source, and ``dataIndex(ofPosition:)`` and ``position(ofDataIndex:)`` read through it; the
/// selection's readers read the data source. Anything that changes the rows or acts on a
/// position (another change, selecting, a drop, the keyboard, the edit menu) shows the rest at
/// once first (``finishPublishing()``).
extension DragCollectionView {
    /// A change partly shown: rows GTK shows ahead of or behind the data source. With no
    /// placeholders, a display position is a data index away from the change.
    enum Lag: Equatable {
        /// `count` inserted items are not shown yet; they belong at display position `at`.
        /// `front` and `back`: how many were shown from each end of the insertion.
        case inserting(at: Int, count: Int, front: Int, back: Int)
        /// The `left` rows from display position `at` are still shown, their items gone.
        case removing(at: Int, left: Int)

        /// One step of showing the change.
        enum Slice: Equatable {
            /// The items at data indexes `items` go at display position `at`.
            case insert(items: Range<Int>, at: Int)
            /// The display rows `rows` go.
            case remove(rows: Range<Int>)
        }

        /// The next step (all that is left when `all`), and what is left after it (nil: done).
        func next(all: Bool) -> (slice: Slice, after: Lag?) {
            switch self {
            case .inserting(let at, let count, var front, var back):
                // From the back, from the front, then all that is left.
                let shown: Range<Int>
                var gap = at
                if !all, back < keptRows {
                    shown = (at + count - min(sliceRows, count))..<(at + count)
                    back += shown.count
                } else if !all, front < keptRows {
                    shown = at..<(at + min(sliceRows, count))
                    front += shown.count
                    gap += shown.count
                } else {
                    shown = at..<(at + count)
                }
                let left = count - shown.count
                return (
                    .insert(items: shown, at: at),
                    left == 0 ? nil : .inserting(at: gap, count: left, front: front, back: back)
                )
            case .removing(let at, let left):
                let count = all ? left : min(sliceRows, left)
                return (
                    .remove(rows: (at + left - count)..<(at + left)),
                    left == count ? nil : .removing(at: at, left: left - count)
                )
            }
        }

        /// The data index of the item at display position `position`, or nil for a row whose
        /// item is gone.
        func dataIndex(ofPosition position: Int) -> Int? {
            switch self {
            case .inserting(let at, let count, _, _):
                return position < at ? position : position + count
            case .removing(let at, let left):
                if position < at { return position }
                return position < at + left ? nil : position - left
            }
        }

        /// The display position of data index `index` (where it will show, for an item not
        /// shown yet).
        func position(ofDataIndex index: Int) -> Int {
            switch self {
            case .inserting(let at, let count, _, _):
                if index < at { return index }
                return index < at + count ? at : index - count
            case .removing(let at, let left):
                return index < at ? index : index + left
            }
        }
    }

    /// Rows shown per frame while a big change is shown.
    nonisolated static let sliceRows = 48
    /// How many rows GTK 4.8 keeps row widgets for around its anchor (GTK_LIST_VIEW_MAX_LIST_ITEMS
    /// is 200), with a margin.
    nonisolated static let keptRows = 256

    /// The display positions GTK keeps row widgets for now (from the bound rows).
    private var keptPositions: Range<Int> {
        var low = Int.max
        var high = -1
        for cell in cells.values where cell.position != nil {
            guard let item = cell.listItem else { continue }
            let position = Int(gtk_list_item_get_position(OpaquePointer(item)))
            guard position < rows.count else { continue }
            low = min(low, position)
            high = max(high, position)
        }
        if high < 0 { return 0..<Self.keptRows }
        return low..<max(high + 1, low + Self.keptRows)
    }

    /// Starts showing `change` a slice at a time when it is one big insertion or removal near
    /// the rows GTK keeps; returns false when it is better shown at once. Called with no
    /// deferred drops pending (display positions are data indexes).
    func publishInSlices(_ change: Change, selecting ids: [TargetID]?) -> Bool {
        // A view not on screen has no frames to pace the slices (and no rows to bind).
        guard lag == nil, pending.isEmpty, let dataSource, gtk_widget_get_mapped(itemsView.widget) != 0 else {
            return false
        }
        let kept = keptPositions
        let before = selected
        let at = change.index
        if change.removed == 0, change.inserted > Self.sliceRows {
            // Far before or past GTK's rows, no row widget shows the new items.
            guard at < kept.upperBound, at + Self.keptRows > kept.lowerBound else { return false }
            if let ids {
                let inserted = Set((at..<(at + change.inserted)).map(dataSource.itemID(at:)))
                selected = Set(ids.filter { inserted.contains($0) || positions[$0] != nil })
            }
            // Into an empty view the first rows shown are those GTK anchors the view to: the
            // top, as when shown at once, and the rest goes after them (no rows follow to be
            // next to).
            lag = .inserting(at: at, count: change.inserted, front: 0, back: rows.isEmpty ? Self.keptRows : 0)
        } else if change.inserted == 0, change.removed > Self.sliceRows {
            let end = at + change.removed
            guard at < kept.upperBound, end > kept.lowerBound else { return false }
            let gone = rows[at..<end].map(\.id)
            if !selected.isEmpty { selected.subtract(gone) }
            // The rows past those GTK keeps, then those before them: no row widget shows them.
            if end > kept.upperBound { removeRows(max(at, kept.upperBound)..<end) }
            var left = min(end, kept.upperBound) - at
            if at < kept.lowerBound {
                removeRows(at..<kept.lowerBound)
                left -= kept.lowerBound - at
            }
            lag = .removing(at: at, left: left)
            if let ids { selected = Set(ids.filter { positions[$0] != nil }).subtracting(gone) }
        } else {
            return false
        }
        publishSlice(all: false)
        finishUpdate(selectionBefore: before, selecting: ids != nil)
        scheduleNextSlice()
        return true
    }

    /// Shows the rest of a change shown a slice at a time, now.
    func finishPublishing() {
        guard lag != nil else { return }
        stopSlices()
        publishSlice(all: true)
        finishUpdate(selectionBefore: selected, selecting: false)
    }

    /// Forgets the rest of a change shown a slice at a time (the view shows another source):
    /// the rows GTK shows stay as they are.
    func abandonPublishing() {
        stopSlices()
        lag = nil
    }

    private func stopSlices() {
        guard lagSource != 0 else { return }
        gtk_widget_remove_tick_callback(itemsView.widget, lagSource)
        lagSource = 0
    }

    /// Shows the next slice at the start of each of the view's frames, so each frame lays out
    /// one slice (idle callbacks ran every slice before GTK's next layout, which then measured
    /// all of them at once).
    private func scheduleNextSlice() {
        guard lag != nil, lagSource == 0 else { return }
        lagSource = FrameAnimation.everyFrame(on: itemsView.widget) { [weak self] in
            guard let self, self.lag != nil else { return false }
            self.publishSlice(all: false)
            self.finishUpdate(selectionBefore: self.selected, selecting: false)
            if self.lag == nil { self.lagSource = 0 }
            return self.lag != nil
        }
    }

    /// Shows the next slice of ``lag`` (or all of the rest), updating ``lag`` before GTK hears
    /// of it (GTK binds rows while it does, reading data indexes through it).
    private func publishSlice(all: Bool) {
        guard let current = lag else { return }
        let (slice, after) = current.next(all: all)
        switch slice {
        case .insert(let items, let at):
            guard let dataSource else {
                lag = nil
                return
            }
            let added = items.map { Row(id: dataSource.itemID(at: $0), placeholder: nil, arriving: 0) }
            rows.insert(contentsOf: added, at: at)
            lag = after
            dd_collection_model_items_changed(model, guint(at), 0, guint(added.count))
        case .remove(let range):
            lag = after
            removeRows(range)
        }
    }

    /// Takes display rows `range` out and tells GTK.
    private func removeRows(_ range: Range<Int>) {
        guard !range.isEmpty else { return }
        forgetItems(rowRange: range)
        rows.removeSubrange(range)
        dd_collection_model_items_changed(model, guint(range.lowerBound), guint(range.count), 0)
    }
}
