import DragDrop
import Foundation
import GRDB

/// Drag-and-drop integration: a pane's ``DragEngineDelegate`` forwards its drops here.
///
/// ## How a move honours S4 with a database
/// The engine performs a move in two steps: ``DragEngineDelegate/dragEngine(_:perform:)`` (the
/// destination commits), then ``DragEngineDelegate/dragEngine(_:removeMovedItems:after:)`` (the
/// source lets go). Two steps mean two transactions, and a process killed between them would
/// leave the item in both places. So the store does the whole move, destination and source,
/// in ONE transaction inside ``perform(_:app:newItems:)``, and
/// ``removeMovedItems(_:after:)`` only confirms it, returning no action of its own.
///
/// S4 still holds, in a stronger form: nothing leaves the source unless the destination
/// committed, because both sides commit together or not at all (a failed or interrupted
/// transaction changes nothing, and the drop is reported failed). The undo action returned by
/// `perform` reverts both sides in one transaction too, so the engine's undo step (which
/// groups the destination's undo with the source's, nil here) still puts every item back at
/// its exact place (U1).
extension ShowcaseStore {
    /// Performs a drop on a collection (or on a home-screen folder icon, which drops into the
    /// folder's collection, at its end) in ONE transaction, and returns what to tell the engine.
    ///
    /// - Items of `app` whose ids are ``ShowcaseTargets`` item ids are moved or copied, as
    ///   `drop.operation` says, to `drop.index` (nil: the end).
    /// - `newItems` (content the pane loaded from other apps' items) are inserted after them.
    /// - A write-only destination commits with no undo (the drop was confirmed first, U2); a
    ///   shared one commits with no undo but offers "Stop Sharing" (U3), which reverts the whole
    ///   drop, moved items included. Otherwise the undo reverts the whole drop.
    /// - Any failure (read-only destination or source, a missing item, a database error)
    ///   changes nothing and returns ``DropResult/failed(_:)`` saying why (S4, A6, F7).
    public func perform(_ drop: DropRequest, app: AppID, newItems: [NewItem] = []) -> DropResult {
        let own = drop.items.filter { $0.app == app }.compactMap { ShowcaseTargets.itemID($0.id) }
        return performDrop(
            drop.operation, of: own, on: drop.destination, at: drop.index, newItems: newItems)
    }

    /// The drop ``perform(_:app:newItems:)`` makes of a request: `own` (the app's items, by id)
    /// moved or copied onto `target` at `index`, then `newItems`, in one transaction.
    func performDrop(
        _ operation: DropOperation, of own: [ItemID], on target: TargetID, at index: Int?, newItems: [NewItem]
    ) -> DropResult {
        guard operation == .move || operation == .copy else {
            return .failed(DropFailure(.failed, "Nothing to do for a \(operation.name) drop."))
        }
        let change: StoreChange
        let destination: ShowcaseCollection
        do {
            guard !own.isEmpty || !newItems.isEmpty else { throw ShowcaseStoreError.nothingToDrop }
            (change, destination) = try performDropTransaction(
                operation, on: target, at: index, own: own, newItems: newItems)
        } catch {
            return .failed(ShowcaseStoreError.wrap(error).dropFailure)
        }
        if destination.flags.contains(.writeOnly) { return .committed(undo: nil) }
        let action = undoableAction(for: change)
        if destination.flags.contains(.shared) {
            return .committed(undo: nil, cancellation: DropCancellation(title: "Stop Sharing", perform: action.undo))
        }
        return .committed(undo: action)
    }

    /// The source's side of a move the engine asks for after ``perform(_:app:newItems:)``
    /// committed: nothing left to do, because the move already took the items out of their
    /// source in the same transaction that put them in the destination. Returns nil: the undo
    /// that `perform` returned restores both sides.
    public func removeMovedItems(_ items: [DragItem], after drop: DropRequest) -> UndoableAction? {
        nil
    }

    /// The collection a drop on `target` lands in, and whether the drop index applies: a
    /// collection itself (yes), or a folder icon (its folder's collection, at the end).
    public func dropCollection(for target: TargetID) throws(ShowcaseStoreError) -> (CollectionID, usesIndex: Bool)? {
        if let id = ShowcaseTargets.collectionID(target) { return (id, true) }
        if let id = ShowcaseTargets.itemID(target), let item = try item(id), item.kind == .folder,
            let folder = item.payload(as: FolderPayload.self)
        {
            return (folder.opens, false)
        }
        return nil
    }

    private func performDropTransaction(
        _ operation: DropOperation, on destinationID: TargetID, at dropIndex: Int?, own: [ItemID], newItems: [NewItem]
    ) throws -> (StoreChange, ShowcaseCollection) {
        guard let (target, usesIndex) = try dropCollection(for: destinationID) else {
            throw ShowcaseStoreError.nothingToDrop
        }
        let index = usesIndex ? dropIndex : nil
        var destination: ShowcaseCollection?
        let change = try perform { db in
            guard let collection = try ShowcaseCollection.fetchOne(db, key: target) else {
                throw ShowcaseStoreError.noSuchCollection(target)
            }
            destination = collection
            var change =
                operation == .move
                ? try Self.moveChange(own, to: target, at: index, db)
                : try Self.copyChange(own, to: target, at: index, db)
            // New content goes right after the dragged items (or at the index when there are none).
            let start =
                try (change.moved.map(\.to.position) + change.inserted.map(\.slot.position)).max().map { $0 + 1 }
                ?? Self.clampedIndex(target, index, db)
            let added = newItems.isEmpty ? StoreChange() : try Self.insertChange(newItems, into: target, at: nil, db)
            change.inserted += added.inserted.enumerated().map { offset, row in
                var row = row
                row.slot.position = start + offset
                return row
            }
            return change
        }
        return (change, destination!)
    }

    private static func clampedIndex(_ collection: CollectionID, _ index: Int?, _ db: Database) throws -> Int {
        try RankWriter(.standard, db).clamped(index, in: collection)
    }
}
