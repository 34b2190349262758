import CDragDropGTKSupport
import CGtk4
import DragDrop

/// Telling a ``DragCollectionView`` what changed, instead of having it read every item again.
///
/// ``DragCollectionView/reloadData(selecting:)`` reads every identifier from the data source and
/// compares them with the rows it shows: simple, and right whatever changed, but it costs the
/// main loop time in proportion to the collection (a collection of 100,000 items: tens of
/// milliseconds in a debug build, a dropped frame or more). When the app knows what changed (it
/// made the change: a drop of three files, an undo), ``DragCollectionView/applyChanges(_:selecting:)``
/// costs only the items that changed. When it does not (a folder listed again), it can work out
/// the changes off the main thread with ``DragCollectionView/changes(from:to:)`` and apply them on
/// it.
extension DragCollectionView {
    /// One change to the data source's items: `removed` items taken out at `index`, then
    /// `inserted` new ones put there. Indexes count items only (not placeholders), in the items
    /// as they are after the changes before this one.
    public struct Change: Sendable, Equatable, CustomStringConvertible {
        /// Where the change is.
        public var index: Int
        /// How many items it takes out at ``index``.
        public var removed: Int
        /// How many items it puts at ``index`` (after taking the removed ones out).
        public var inserted: Int

        /// A change taking `removed` items out at `index` and putting `inserted` there.
        public init(index: Int, removed: Int = 0, inserted: Int = 0) {
            self.index = index
            self.removed = removed
            self.inserted = inserted
        }

        /// `count` new items at `index`.
        public static func insert(_ count: Int = 1, at index: Int) -> Change {
            Change(index: index, inserted: count)
        }

        /// `count` items taken out at `index`.
        public static func remove(_ count: Int = 1, at index: Int) -> Change {
            Change(index: index, removed: count)
        }

        public var description: String { "at \(index): -\(removed) +\(inserted)" }
    }

    /// The changes that turn the items `old` into `new`, left to right, as
    /// ``applyChanges(_:selecting:)`` takes them: unchanged ends are skipped, the items that keep
    /// their order stay, everything else is a few changes (a move is a removal and an insertion).
    /// Identifiers must be unique on each side; any hashable identifier does (the app's own
    /// database keys compare faster than target identifiers). Safe on any thread: work it out
    /// where the new items were read (a folder listed off the main loop), then apply it on the
    /// main actor.
    public nonisolated static func changes<ID: Hashable>(from old: [ID], to new: [ID]) -> [Change] {
        CollectionDiff.splices(from: old, to: new).map { splice in
            Change(index: splice.position, removed: splice.removed, inserted: splice.added.count)
        }
    }

    /// Shows changes the data source has already made (a drop it performed, an undo), at the cost
    /// of the items changed rather than of the whole collection: the rows on screen stay where
    /// they are, placeholders stay with the items they follow, the rows that changed are made
    /// again. `changes` go left to right: each change's ``Change/index`` is at least the previous
    /// one's index plus its inserted count (what ``changes(from:to:)`` gives, and any list of
    /// changes sorted by place). `selecting`: the items to select (nil keeps the selection, minus
    /// the items removed).
    ///
    /// Changes that do not take the view's items to the data source's (an index past the end,
    /// out of order, or a count that does not add up) are reported through the host's
    /// `onDiagnostic` and the view reads every item again (``reloadData(selecting:)``) instead.
    public func applyChanges(_ changes: [Change], selecting ids: [TargetID]? = nil) {
        // Nothing changed (a folder listed again as it was): a change still being shown goes on.
        if changes.isEmpty, ids == nil, lag != nil {
            finishUpdate(selectionBefore: selected, selecting: false)
            return
        }
        finishPublishing()
        guard let dataSource else {
            reloadData(selecting: ids)
            return
        }
        if let problem = problem(with: changes, count: dataSource.numberOfItems) {
            host.onDiagnostic?("\(id): \(problem); reading every item again.")
            reloadData(selecting: ids)
            return
        }
        if changes.count == 1, publishInSlices(changes[0], selecting: ids) { return }
        let before = selected
        var removedIDs: [TargetID] = []
        var insertedIDs: Set<TargetID> = []
        for change in changes {
            if change.removed > 0 { removedIDs += removeItemRows(at: change.index, count: change.removed) }
            if change.inserted > 0 {
                let position = position(ofDataIndex: change.index)
                let added = (change.index..<(change.index + change.inserted)).map { index in
                    Row(id: dataSource.itemID(at: index), placeholder: nil, arriving: 0)
                }
                rows.insert(contentsOf: added, at: position)
                if ids != nil { insertedIDs.formUnion(added.lazy.map(\.id)) }
                dd_collection_model_items_changed(model, guint(position), 0, guint(added.count))
            }
        }
        if !removedIDs.isEmpty, !selected.isEmpty { selected.subtract(removedIDs) }
        if let ids {
            // The new items are there for sure; any other is looked up (which reads every row once).
            selected = Set(ids.filter { insertedIDs.contains($0) || positions[$0] != nil })
        }
        finishUpdate(selectionBefore: before, selecting: ids != nil)
    }

    /// Why `changes` cannot take the view's items to `count` items, or nil when they can.
    private func problem(with changes: [Change], count: Int) -> String? {
        var items = rows.count - placeholderRowCount
        var end = 0
        for change in changes {
            guard change.index >= 0, change.removed >= 0, change.inserted >= 0 else {
                return "the change \(change) has a negative number"
            }
            guard change.index >= end else { return "the change \(change) is out of order" }
            guard change.index + change.removed <= items else {
                return "the change \(change) goes past the \(items) items"
            }
            items += change.inserted - change.removed
            end = change.index + change.inserted
        }
        guard items == count else {
            return "the changes leave \(items) items where the data source has \(count)"
        }
        return nil
    }

    /// The placeholder rows shown.
    var placeholderRowCount: Int { pending.reduce(0) { $0 + $1.rowCount } }

    /// Takes `count` item rows out from data index `index` (placeholders among them stay), one
    /// splice per run of items; returns their identifiers.
    private func removeItemRows(at index: Int, count: Int) -> [TargetID] {
        var position = position(ofDataIndex: index)
        var left = count
        var removed: [TargetID] = []
        removed.reserveCapacity(count)
        while left > 0, position < rows.count {
            if rows[position].placeholder != nil {
                position += 1
                continue
            }
            var end = position
            while end < rows.count, end - position < left, rows[end].placeholder == nil { end += 1 }
            removed += rows[position..<end].map(\.id)
            forgetItems(rowRange: position..<end)
            rows.removeSubrange(position..<end)
            dd_collection_model_items_changed(model, guint(position), guint(end - position), 0)
            left -= end - position
        }
        return removed
    }

    /// Shows the placeholder rows of the deferred drop `entry` where it lands.
    func insertPlaceholderRows(of entry: PendingDrop) {
        finishPublishing()
        let index = min(quickLanding(of: entry), itemCount)
        let position = position(ofDataIndex: index)
        let added = entry.names.indices.map { k in
            Row(id: Self.placeholderID(entry.token, k), placeholder: entry.token, arriving: k)
        }
        rows.insert(contentsOf: added, at: position)
        dd_collection_model_items_changed(model, guint(position), 0, guint(added.count))
        finishUpdate(selectionBefore: selected, selecting: false)
    }

    /// Takes away the placeholder rows of the pending drop at `index` in ``pending`` (it resolved
    /// or failed), and the drop. When the data source's count no longer matches the items shown
    /// (it changed without telling the view), every item is read again.
    func removePlaceholderRows(ofPendingDrop index: Int) {
        finishPublishing()
        let token = pending[index].token
        // Its rows, as runs of positions, taken out from the last so the others keep theirs.
        var runs: [Range<Int>] = []
        for position in placeholderPositions where rows[position].placeholder == token {
            if let last = runs.last, last.upperBound == position {
                runs[runs.count - 1] = last.lowerBound..<(position + 1)
            } else {
                runs.append(position..<(position + 1))
            }
        }
        for run in runs.reversed() {
            rows.removeSubrange(run)
            dd_collection_model_items_changed(model, guint(run.lowerBound), guint(run.count), 0)
        }
        pending.remove(at: index)
        if rows.count - placeholderRowCount != itemCount {
            reloadData()
        } else {
            finishUpdate(selectionBefore: selected, selecting: false)
        }
    }

    /// Where a pending drop lands now, without looking every item up when the item it follows
    /// is still at its place.
    private func quickLanding(of entry: PendingDrop) -> Int {
        guard let after = entry.after else { return 0 }
        if let dataSource, entry.index > 0, entry.index <= dataSource.numberOfItems,
            dataSource.itemID(at: entry.index - 1) == after
        {
            return entry.index
        }
        return landing(of: entry, among: nil)
    }
}
