import DragDrop
import Foundation
import GRDB
@_spi(CrashTesting) import ShowcaseModel

/// What the showcase store should hold, written from its documentation with plain arrays and
/// no SQL: collections of ordered items, ids that are never reused, undo steps that revert
/// exactly, refusals that change nothing. The sequence and crash tests play the same steps on
/// the model and on the store and compare every row.
///
/// The rules it follows (docs/showcase-model.md):
/// - an operation is all or nothing: a refused one changes nothing and says why;
/// - a move's index counts the destination with the dragged items in place; a drop's new
///   content goes right after its dragged items;
/// - read-only collections take nothing and give nothing up; write-only ones take content that
///   nobody can see or take back out (no move, copy or removal out of them, undo included);
/// - undo puts every item back at its exact place, redo gives the exact same result, and an
///   undo that cannot apply changes nothing, so the next redo does nothing either.
struct StoreModel {
    struct Item: Hashable {
        var id: ItemID?
        var title: String
        var kind: ItemKind
        var payload: Data?
        /// When the item was created, once read from the store (a new item's date is the
        /// store's clock, not the model's).
        var created: Date?
    }

    struct Collection: Hashable {
        var id: CollectionID
        var name: String
        var flags: CollectionFlags
        var items: [Item]
    }

    struct Slot: Hashable {
        var collection: CollectionID
        var position: Int
    }

    struct Placed: Hashable {
        var item: Item
        var slot: Slot
    }

    struct Move: Hashable {
        var id: ItemID
        var from: Slot
        var to: Slot
    }

    /// A change as the store records one: rows removed, rows inserted, items moved.
    struct Change: Hashable {
        var removed: [Placed] = []
        var inserted: [Placed] = []
        var moved: [Move] = []

        var inverse: Change {
            Change(removed: inserted, inserted: removed, moved: moved.map { Move(id: $0.id, from: $0.to, to: $0.from) })
        }
    }

    /// An undo step: its latest realized change, and whether the document is on its applied side.
    struct UndoEntry: Hashable {
        var change: Change
        var applied = true
    }

    /// The collections, in id order.
    var collections: [Collection]
    /// The id the next new item gets.
    var nextID: ItemID
    var undoSteps: [UndoEntry] = []
    var redoSteps: [UndoEntry] = []
    var cancellation: UndoEntry?

    // MARK: Reading the store

    /// The model of what `store` holds now (its collections, items and id sequence), with an
    /// empty undo stack: a session that starts.
    static func read(_ store: ShowcaseStore) throws -> StoreModel {
        try store.database.read { db in
            let collections = try ShowcaseCollection.order(Column("id")).fetchAll(db).map { c in
                Collection(id: c.id!, name: c.name, flags: c.flags, items: [])
            }
            var model = StoreModel(collections: collections, nextID: 1)
            let rows = try Self.rows(db)
            for c in model.collections.indices {
                model.collections[c].items = (rows[model.collections[c].id] ?? []).map {
                    Item(id: $0.id, title: $0.title, kind: $0.kind, payload: $0.payload, created: $0.created)
                }
            }
            let sequence = try ItemID.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'item'") ?? 0
            model.nextID = sequence + 1
            return model
        }
    }

    /// Every item row, by collection id, in order.
    static func rows(_ db: Database) throws -> [CollectionID: [ShowcaseItem]] {
        Dictionary(
            grouping: try ShowcaseItem.order(Column("collectionId"), Column("rank")).fetchAll(db),
            by: \.collectionId)
    }

    /// The first difference between the model and `store`, or nil when every row matches (ids,
    /// order, titles, kinds, payloads, and creation dates the model knows).
    func difference(from store: ShowcaseStore) throws -> String? {
        let rows = try store.database.read { db in try Self.rows(db) }
        for collection in collections {
            let actual = rows[collection.id] ?? []
            let expected = collection.items
            let describe = { (items: [String]) in "[" + items.joined(separator: ", ") + "]" }
            let actualList = describe(actual.map { "\($0.id!) \($0.title)" })
            let expectedList = describe(expected.map { "\($0.id.map(String.init) ?? "?") \($0.title)" })
            guard actual.count == expected.count else {
                return "collection \(collection.id) (\(collection.name)): store \(actualList), model \(expectedList)"
            }
            for (row, item) in zip(actual, expected) {
                if row.id != item.id || row.title != item.title || row.kind != item.kind || row.payload != item.payload
                    || (item.created != nil && item.created != row.created)
                {
                    return
                        "collection \(collection.id) (\(collection.name)): store \(actualList), model \(expectedList); "
                        + "first different row: store \(row), model \(item)"
                }
            }
        }
        let known = Set(collections.map(\.id))
        if let stray = rows.keys.sorted().first(where: { !known.contains($0) }) {
            return "items in collection \(stray), which the model does not have"
        }
        return nil
    }

    /// Takes the creation dates the model does not know yet (new rows) from `rows`, for the
    /// rows that are where the model has them.
    mutating func adopt(_ rows: [CollectionID: [ShowcaseItem]]) {
        for c in collections.indices {
            let actual = rows[collections[c].id] ?? []
            for (i, row) in actual.enumerated() where i < collections[c].items.count {
                if collections[c].items[i].id == row.id, collections[c].items[i].created == nil {
                    collections[c].items[i].created = row.created
                }
            }
        }
    }

    /// Takes the creation dates of new rows from `store` (after comparing).
    mutating func adoptDates(from store: ShowcaseStore) throws {
        let rows = try store.database.read { db in try Self.rows(db) }
        adopt(rows)
    }

    // MARK: Lookup

    func collectionIndex(_ id: CollectionID) -> Int? { collections.firstIndex { $0.id == id } }

    func locate(_ id: ItemID) -> (item: Item, slot: Slot)? {
        for collection in collections {
            if let position = collection.items.firstIndex(where: { $0.id == id }) {
                return (collection.items[position], Slot(collection: collection.id, position: position))
            }
        }
        return nil
    }

    func count(_ collection: CollectionID) -> Int {
        collectionIndex(collection).map { collections[$0].items.count } ?? 0
    }

    /// Every item id, in collection order.
    var allItemIDs: [ItemID] { collections.flatMap { $0.items.compactMap(\.id) } }

    // MARK: Steps

    /// Plays `step` on the model and says what the store should answer.
    mutating func run(_ step: StoreStep) -> StoreStepOutcome {
        if step != .stopSharing { cancellation = nil }
        do throws(ShowcaseStoreError) {
            switch step {
            case .insert(let items, let collection, let index):
                try commitOperation(try insertChange(items, into: collection, at: index))
            case .move(let ids, let collection, let index):
                try commitOperation(try moveChange(ids, to: collection, at: index))
            case .copy(let ids, let collection, let index):
                try commitOperation(try copyChange(ids, to: collection, at: index))
            case .remove(let ids):
                var change = Change()
                for id in ids {
                    guard let (item, slot) = locate(id) else { throw .noSuchItem(id) }
                    change.removed.append(Placed(item: item, slot: slot))
                }
                try commitOperation(change)
            case .drop(let kind, let ids, let target, let index, let newItems):
                try drop(kind, ids, on: TargetID(target), at: index, newItems: newItems)
            case .undo:
                guard var entry = undoSteps.popLast() else { return .nothing }
                defer { redoSteps.append(entry) }
                if entry.applied {
                    entry.change = try apply(entry.change.inverse)
                    entry.applied = false
                }
            case .redo:
                guard var entry = redoSteps.popLast() else { return .nothing }
                defer { undoSteps.append(entry) }
                if !entry.applied {
                    entry.change = try apply(entry.change.inverse)
                    entry.applied = true
                }
            case .stopSharing:
                guard let entry = cancellation else { return .nothing }
                cancellation = nil
                if entry.applied { _ = try apply(entry.change.inverse) }
            }
            return .done
        } catch {
            return .failed(error.description)
        }
    }

    /// An operation registered on the undo stack (which clears the redo stack).
    private mutating func commitOperation(_ change: Change) throws(ShowcaseStoreError) {
        let realized = try apply(change)
        redoSteps.removeAll()
        undoSteps.append(UndoEntry(change: realized))
    }

    private func clamped(_ index: Int?, _ collection: CollectionID) -> Int {
        let count = count(collection)
        return min(max(index ?? count, 0), count)
    }

    private func insertChange(_ items: [NewItem], into collection: CollectionID, at index: Int?)
        throws(ShowcaseStoreError)
        -> Change
    {
        guard collectionIndex(collection) != nil else { throw .noSuchCollection(collection) }
        let start = clamped(index, collection)
        return Change(
            inserted: items.enumerated().map { offset, item in
                Placed(
                    item: Item(id: nil, title: item.title, kind: item.kind, payload: item.payload),
                    slot: Slot(collection: collection, position: start + offset))
            })
    }

    private func copyChange(_ ids: [ItemID], to collection: CollectionID, at index: Int?) throws(ShowcaseStoreError)
        -> Change
    {
        guard collectionIndex(collection) != nil else { throw .noSuchCollection(collection) }
        let start = clamped(index, collection)
        var change = Change()
        for (offset, id) in ids.enumerated() {
            guard let (source, slot) = locate(id) else { throw .noSuchItem(id) }
            if let from = collectionIndex(slot.collection), collections[from].flags.contains(.writeOnly) {
                throw .writeOnly(collection: collections[from].name)
            }
            change.inserted.append(
                Placed(
                    item: Item(id: nil, title: source.title, kind: source.kind, payload: source.payload),
                    slot: Slot(collection: collection, position: start + offset)))
        }
        return change
    }

    private func moveChange(_ ids: [ItemID], to collection: CollectionID, at index: Int?) throws(ShowcaseStoreError)
        -> Change
    {
        guard collectionIndex(collection) != nil else { throw .noSuchCollection(collection) }
        var seen = Set<ItemID>()
        var sources: [(id: ItemID, slot: Slot)] = []
        for id in ids {
            guard seen.insert(id).inserted else { throw .duplicateItem(id) }
            guard let (_, slot) = locate(id) else { throw .noSuchItem(id) }
            sources.append((id, slot))
        }
        // The index counts the destination as the user sees it, dragged items included.
        let count = count(collection)
        let requested = clamped(index, collection)
        let here = sources.filter { $0.slot.collection == collection }
        let start = min(requested - here.filter { $0.slot.position < requested }.count, count - here.count)
        return Change(
            moved: sources.enumerated().map { offset, source in
                Move(id: source.id, from: source.slot, to: Slot(collection: collection, position: start + offset))
            })
    }

    private mutating func drop(
        _ kind: StoreStep.DropKind, _ ids: [ItemID], on target: TargetID, at index: Int?, newItems: [NewItem]
    ) throws(ShowcaseStoreError) {
        guard !ids.isEmpty || !newItems.isEmpty else { throw .nothingToDrop }
        let destination: CollectionID
        var dropIndex = index
        if let id = ShowcaseTargets.collectionID(target) {
            destination = id
        } else if let id = ShowcaseTargets.itemID(target), let (icon, _) = locate(id), icon.kind == .folder,
            let payload = icon.payload, let folder = try? JSONDecoder().decode(FolderPayload.self, from: payload)
        {
            destination = folder.opens  // a folder icon: into its folder, at the end
            dropIndex = nil
        } else {
            throw .nothingToDrop
        }
        guard let c = collectionIndex(destination) else { throw .noSuchCollection(destination) }
        var change =
            kind == .move
            ? try moveChange(ids, to: destination, at: dropIndex) : try copyChange(ids, to: destination, at: dropIndex)
        // New content right after the dragged items, else at the index.
        let start =
            (change.moved.map(\.to.position) + change.inserted.map(\.slot.position)).max().map { $0 + 1 }
            ?? clamped(dropIndex, destination)
        for (offset, item) in newItems.enumerated() {
            change.inserted.append(
                Placed(
                    item: Item(id: nil, title: item.title, kind: item.kind, payload: item.payload),
                    slot: Slot(collection: destination, position: start + offset)))
        }
        let flags = collections[c].flags
        let realized = try apply(change)
        if flags.contains(.writeOnly) { return }  // no undo (U2), and the redo stack is kept
        if flags.contains(.shared) {
            cancellation = UndoEntry(change: realized)  // "Stop Sharing" (U3), no undo step
            return
        }
        redoSteps.removeAll()
        undoSteps.append(UndoEntry(change: realized))
    }

    // MARK: Applying a change

    /// Applies `change` whole or not at all and returns it as realized (removed rows as they
    /// were, inserted rows with their ids and places, moves from where the items were).
    mutating func apply(_ change: Change) throws(ShowcaseStoreError) -> Change {
        var named = Set<ItemID>()
        for id in change.removed.compactMap(\.item.id) + change.moved.map(\.id) + change.inserted.compactMap(\.item.id)
        {
            guard named.insert(id).inserted else { throw .duplicateItem(id) }
        }
        var removedNow: [Placed] = []
        for row in change.removed {
            guard let id = row.item.id, let (item, slot) = locate(id) else { throw .noSuchItem(row.item.id ?? 0) }
            removedNow.append(Placed(item: item, slot: slot))
        }
        var movedFrom: [Slot] = []
        for move in change.moved {
            guard let (_, slot) = locate(move.id) else { throw .noSuchItem(move.id) }
            movedFrom.append(slot)
        }
        for row in change.inserted {
            if let id = row.item.id, locate(id) != nil { throw .itemExists(id) }
        }
        var involved = Set(
            removedNow.map(\.slot.collection) + movedFrom.map(\.collection) + change.moved.map(\.to.collection))
        involved.formUnion(change.inserted.map(\.slot.collection))
        let leaving = Set(removedNow.compactMap(\.item.id) + change.moved.map(\.id))
        let leavingFrom = Set(removedNow.map(\.slot.collection) + movedFrom.map(\.collection))
        for id in involved.sorted() {
            guard let c = collectionIndex(id) else { throw .noSuchCollection(id) }
            if collections[c].flags.contains(.readOnly) { throw .readOnly(collection: collections[c].name) }
            if collections[c].flags.contains(.writeOnly), leavingFrom.contains(id) {
                throw .writeOnly(collection: collections[c].name)
            }
        }

        // Take out what leaves, then put in what arrives in ascending order of position.
        var next = self
        for c in next.collections.indices {
            next.collections[c].items.removeAll { $0.id.map(leaving.contains) ?? false }
        }
        enum Arrival {
            case new(Int)
            case moved(Int)
        }
        var arrivals: [(slot: Slot, order: Int, what: Arrival)] = []
        for (i, row) in change.inserted.enumerated() { arrivals.append((row.slot, i, .new(i))) }
        for (i, move) in change.moved.enumerated() { arrivals.append((move.to, change.inserted.count + i, .moved(i))) }
        arrivals.sort {
            ($0.slot.collection, $0.slot.position, $0.order) < ($1.slot.collection, $1.slot.position, $1.order)
        }
        for arrival in arrivals {
            let c = next.collectionIndex(arrival.slot.collection)!
            let at = min(max(arrival.slot.position, 0), next.collections[c].items.count)
            switch arrival.what {
            case .new(let i):
                // A new row is marked with a provisional id until it gets its real one.
                var item = change.inserted[i].item
                if item.id == nil { item.id = -1 - ItemID(i) }
                next.collections[c].items.insert(item, at: at)
            case .moved(let i):
                next.collections[c].items.insert(locate(change.moved[i].id)!.item, at: at)
            }
        }
        // New rows get their ids in place order, as SQLite's AUTOINCREMENT gives them.
        var finalIDs: [Int: ItemID] = [:]
        for c in next.collections.indices {
            for p in next.collections[c].items.indices {
                guard let id = next.collections[c].items[p].id, id < 0 else { continue }
                finalIDs[Int(-1 - id)] = next.nextID
                next.collections[c].items[p].id = next.nextID
                next.nextID += 1
            }
        }
        let realizedInserted = change.inserted.enumerated().map { i, row in
            let (item, slot) = next.locate(row.item.id ?? finalIDs[i]!)!
            return Placed(item: item, slot: slot)
        }
        let realizedMoves = change.moved.enumerated().map { i, move in
            Move(id: move.id, from: movedFrom[i], to: next.locate(move.id)!.slot)
        }
        self = next
        return Change(removed: removedNow, inserted: realizedInserted, moved: realizedMoves)
    }
}
