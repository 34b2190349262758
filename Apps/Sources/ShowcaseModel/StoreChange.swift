import Foundation
import GRDB

/// Where an item sits: its collection and its position there.
public struct ItemSlot: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The collection.
    public var collection: CollectionID
    /// The position in the collection (0 first).
    public var position: Int

    /// Creates a slot.
    public init(collection: CollectionID, position: Int) {
        self.collection = collection
        self.position = position
    }

    public var description: String { "\(collection)#\(position)" }
}

/// One committed change of the document, complete enough to be reverted and applied again
/// exactly: the rows it removed (as they were, with their slots), the rows it inserted (with
/// their ids and slots), and the items it moved (from which slot to which).
///
/// Reverting a change is applying its ``inverse``. Both directions use the same algorithm
/// (``ShowcaseStore`` applies a change in one transaction):
/// 1. take the removed and moved items out of their collections (the others close up, keeping
///    their order);
/// 2. put the inserted and moved items into their target collections at their target
///    positions, in ascending order of position.
///
/// Because the items that stayed keep their relative order, step 2 rebuilds the exact order
/// that was recorded: undo puts every item back at its exact original position (U1), redo
/// gives the exact positions the first application gave.
public struct StoreChange: Sendable, Hashable {
    /// An item that changed places.
    public struct Move: Sendable, Hashable {
        /// The item.
        public var item: ItemID
        /// Where it was.
        public var from: ItemSlot
        /// Where it went.
        public var to: ItemSlot
    }

    /// The rows removed, as they were before the change (their `collectionId` and `position`
    /// are the slots they had).
    public internal(set) var removed: [ShowcaseItem]
    /// The rows inserted, as they are after the change.
    public internal(set) var inserted: [ShowcaseItem]
    /// The items moved.
    public internal(set) var moved: [Move]

    /// Creates a change.
    init(removed: [ShowcaseItem] = [], inserted: [ShowcaseItem] = [], moved: [Move] = []) {
        self.removed = removed
        self.inserted = inserted
        self.moved = moved
    }

    /// The change that reverts this one.
    public var inverse: StoreChange {
        StoreChange(
            removed: inserted, inserted: removed,
            moved: moved.map { Move(item: $0.item, from: $0.to, to: $0.from) })
    }

    /// Whether the change does nothing.
    public var isEmpty: Bool { removed.isEmpty && inserted.isEmpty && moved.isEmpty }

    /// The ids of the items the change leaves in the document: inserted then moved, in order.
    public var resultingItemIDs: [ItemID] { inserted.compactMap(\.id) + moved.map(\.item) }

    /// Every collection the change touches, in either direction.
    var touchedCollections: Set<CollectionID> {
        var set = Set<CollectionID>()
        for row in removed { set.insert(row.collectionId) }
        for row in inserted { set.insert(row.collectionId) }
        for move in moved {
            set.insert(move.from.collection)
            set.insert(move.to.collection)
        }
        return set
    }
}

/// Applies changes to a database inside a transaction that the caller opened.
enum ChangeApplier {
    /// Something arriving in a collection.
    private enum Entry: Hashable {
        case existing(ItemID)
        case new(Int)  // index into the change's inserted rows
    }

    /// Applies `change` and returns it as realized: removed rows as they actually were, inserted
    /// rows with their ids, moves from the slots the items actually had. Throws (and the
    /// caller's transaction rolls back) when an item to remove or move is missing, an item to
    /// insert with a fixed id exists, a collection is missing or read-only, or an item would
    /// leave a write-only collection.
    static func apply(_ change: StoreChange, in db: Database) throws -> StoreChange {
        // Everything named once.
        var named = Set<ItemID>()
        for id in change.removed.compactMap(\.id) + change.moved.map(\.item) + change.inserted.compactMap(\.id) {
            guard named.insert(id).inserted else { throw ShowcaseStoreError.duplicateItem(id) }
        }

        // Current rows of what leaves or moves.
        var removedNow: [ShowcaseItem] = []
        for row in change.removed {
            guard let id = row.id, let current = try ShowcaseItem.fetchOne(db, key: id) else {
                throw ShowcaseStoreError.noSuchItem(row.id ?? 0)
            }
            removedNow.append(current)
        }
        var movedNow: [(move: StoreChange.Move, current: ShowcaseItem)] = []
        for move in change.moved {
            guard let current = try ShowcaseItem.fetchOne(db, key: move.item) else {
                throw ShowcaseStoreError.noSuchItem(move.item)
            }
            movedNow.append((move, current))
        }
        for row in change.inserted {
            if let id = row.id, try ShowcaseItem.exists(db, key: id) { throw ShowcaseStoreError.itemExists(id) }
        }

        // Collections involved, checked.
        var collections = Set<CollectionID>()
        removedNow.forEach { collections.insert($0.collectionId) }
        movedNow.forEach {
            collections.insert($0.current.collectionId)
            collections.insert($0.move.to.collection)
        }
        change.inserted.forEach { collections.insert($0.collectionId) }
        var orders: [CollectionID: [Entry]] = [:]
        // Each collection's items as they are, in order (ids and positions): arrays, not
        // dictionaries, so a collection of 100,000 costs little.
        var originals: [CollectionID: (ids: [ItemID], positions: [Int])] = [:]
        // Nothing leaves a write-only collection: not by a move, a removal, or an undo or redo
        // of an earlier step (what was dropped there cannot be taken back, U2).
        let sources = Set(removedNow.map(\.collectionId) + movedNow.map(\.current.collectionId))
        for id in collections.sorted() {
            guard let collection = try ShowcaseCollection.fetchOne(db, key: id) else {
                throw ShowcaseStoreError.noSuchCollection(id)
            }
            if collection.flags.contains(.readOnly) { throw ShowcaseStoreError.readOnly(collection: collection.name) }
            if collection.flags.contains(.writeOnly), sources.contains(id) {
                throw ShowcaseStoreError.writeOnly(collection: collection.name)
            }
            var ids: [ItemID] = []
            var positions: [Int] = []
            let rows = try Row.fetchCursor(
                db, sql: "SELECT id, position FROM item WHERE collectionId = ? ORDER BY position", arguments: [id])
            while let row = try rows.next() {
                ids.append(row[0])
                positions.append(row[1])
            }
            originals[id] = (ids, positions)
            orders[id] = ids.map(Entry.existing)
        }

        // 1. Take out what leaves or moves.
        let leaving = Set(removedNow.compactMap(\.id) + movedNow.map(\.move.item))
        for id in orders.keys {
            orders[id]!.removeAll { if case .existing(let item) = $0 { leaving.contains(item) } else { false } }
        }

        // 2. Put in what arrives, in ascending order of target position per collection.
        var arriving: [CollectionID: [(position: Int, order: Int, entry: Entry)]] = [:]
        for (index, row) in change.inserted.enumerated() {
            arriving[row.collectionId, default: []].append((row.position, index, .new(index)))
        }
        for (index, pair) in movedNow.enumerated() {
            let to = pair.move.to
            arriving[to.collection, default: []].append((to.position, change.inserted.count + index, .existing(pair.move.item)))
        }
        for (collection, entries) in arriving {
            for entry in entries.sorted(by: { ($0.position, $0.order) < ($1.position, $1.order) }) {
                let at = max(0, min(entry.position, orders[collection]!.count))
                orders[collection]!.insert(entry.entry, at: at)
            }
        }

        // Write: removals, then existing items that change slot (through unique negative
        // positions, so the unique (collectionId, position) index never sees two items in one
        // slot), then the new rows.
        for row in removedNow {
            try db.execute(sql: "DELETE FROM item WHERE id = ?", arguments: [row.id])
        }
        // What changes slot, as runs (see writeSlots): the items that stay in their collection
        // in their original order, paired with their new places; the moved items one by one.
        let movedFrom = Dictionary(
            movedNow.map { ($0.move.item, ItemSlot(collection: $0.current.collectionId, position: $0.current.position)) },
            uniquingKeysWith: { first, _ in first })
        var finalSlots: [ItemID: ItemSlot] = [:]
        var runs: [SlotRun] = []
        for (collection, entries) in orders {
            let original = originals[collection]!
            var next = 0
            for (position, entry) in entries.enumerated() {
                guard case .existing(let id) = entry else { continue }
                if let from = movedFrom[id] {
                    finalSlots[id] = ItemSlot(collection: collection, position: position)
                    if from != finalSlots[id] {
                        runs.append(
                            SlotRun(
                                from: from.collection, to: collection, first: from.position, last: from.position,
                                delta: position - from.position))
                    }
                    continue
                }
                while leaving.contains(original.ids[next]) { next += 1 }
                let from = original.positions[next]
                next += 1
                guard from != position else { continue }
                let delta = position - from
                if var run = runs.last, run.from == collection, run.to == collection, run.delta == delta,
                    run.last + 1 == from
                {
                    run.last = from
                    runs[runs.count - 1] = run
                } else {
                    runs.append(SlotRun(from: collection, to: collection, first: from, last: from, delta: delta))
                }
            }
        }
        try writeSlots(runs, db)
        var inserted = change.inserted
        for (collection, entries) in orders {
            for (position, entry) in entries.enumerated() {
                guard case .new(let index) = entry else { continue }
                inserted[index].collectionId = collection
                inserted[index].position = position
                try inserted[index].insert(db)
            }
        }

        let moved = movedNow.map { pair in
            StoreChange.Move(
                item: pair.move.item, from: ItemSlot(collection: pair.current.collectionId, position: pair.current.position),
                to: finalSlots[pair.move.item]!)
        }
        return StoreChange(removed: removedNow, inserted: inserted, moved: moved)
    }

    /// Items next to each other in collection `from` (positions `first...last`) that move to
    /// collection `to`, each by `delta` positions.
    private struct SlotRun {
        var from: CollectionID
        var to: CollectionID
        var first: Int
        var last: Int
        var delta: Int
    }

    /// Moves the items of `runs` (disjoint) to their new slots: one UPDATE each way per run, so
    /// a drop at the top of 100,000 items (the rows after it shifted by one) is a few
    /// statements, not 200,000. Through negative positions: first each item gets
    /// `-(1 + final position + target collection's number * 2^32)` (unique: no two items share
    /// a final slot), then its final slot, so the unique (collectionId, position) index never
    /// sees two items in one slot.
    private static func writeSlots(_ runs: [SlotRun], _ db: Database) throws {
        guard !runs.isEmpty else { return }
        let targets = Set(runs.map(\.to)).sorted()
        let number = Dictionary(uniqueKeysWithValues: targets.enumerated().map { ($1, Int64($0) << 32) })
        for run in runs {
            try db.execute(
                sql: """
                    UPDATE item SET position = -(1 + position + :delta + :number)
                    WHERE collectionId = :from AND position BETWEEN :first AND :last
                    """,
                arguments: [
                    "delta": run.delta, "number": number[run.to]!, "from": run.from, "first": run.first,
                    "last": run.last,
                ])
        }
        for run in runs {
            let k = number[run.to]!
            // The encoded range of this run's final positions.
            let low = -(1 + Int64(run.last + run.delta) + k)
            let high = -(1 + Int64(run.first + run.delta) + k)
            try db.execute(
                sql: """
                    UPDATE item SET collectionId = :to, position = -position - 1 - :number
                    WHERE collectionId = :from AND position BETWEEN :low AND :high
                    """,
                arguments: ["to": run.to, "number": k, "from": run.from, "low": low, "high": high])
        }
    }
}
