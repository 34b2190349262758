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
/// Slots count indices (0 first), not ranks. Reverting a change is applying its ``inverse``.
/// Both directions use the same algorithm (``ShowcaseStore`` applies a change in one
/// transaction):
/// 1. take the removed and moved items out of their collections (the others close up, keeping
///    their order);
/// 2. put the inserted and moved items into their target collections at their target
///    indices, in ascending order of index.
///
/// Because the items that stayed keep their relative order, step 2 rebuilds the exact order
/// that was recorded: undo puts every item back at its exact original position (U1), redo
/// gives the exact positions the first application gave. A realized change also remembers the
/// ranks (``ShowcaseItem/rank``) on both sides, so an undo or redo gives the items their exact
/// ranks again whenever those still fit between their neighbours (they do unless a gap was
/// spread out in between; the order is exact either way).
public struct StoreChange: Sendable, Hashable {
    /// An item that changed places.
    public struct Move: Sendable, Hashable {
        /// The item.
        public var item: ItemID
        /// Where it was.
        public var from: ItemSlot
        /// Where it went.
        public var to: ItemSlot
        /// The rank it had (realized changes only).
        var fromRank: Int64?
        /// The rank it got (realized changes only).
        var toRank: Int64?

        init(item: ItemID, from: ItemSlot, to: ItemSlot, fromRank: Int64? = nil, toRank: Int64? = nil) {
            self.item = item
            self.from = from
            self.to = to
            self.fromRank = fromRank
            self.toRank = toRank
        }
    }

    /// A row and its slot: where it was (removed) or where it went (inserted).
    public struct Placed: Sendable, Hashable {
        /// The row (for a removed row, as it was; its ``ShowcaseItem/rank`` is the rank it had).
        public var item: ShowcaseItem
        /// Its slot.
        public var slot: ItemSlot

        /// A row at a slot.
        public init(_ item: ShowcaseItem, at slot: ItemSlot) {
            self.item = item
            self.slot = slot
        }
    }

    /// The rows removed, as they were before the change, with the slots they had.
    public internal(set) var removed: [Placed]
    /// The rows inserted, as they are after the change, with their slots.
    public internal(set) var inserted: [Placed]
    /// The items moved.
    public internal(set) var moved: [Move]

    /// Creates a change.
    init(removed: [Placed] = [], inserted: [Placed] = [], moved: [Move] = []) {
        self.removed = removed
        self.inserted = inserted
        self.moved = moved
    }

    /// The change that reverts this one.
    public var inverse: StoreChange {
        StoreChange(
            removed: inserted, inserted: removed,
            moved: moved.map { Move(item: $0.item, from: $0.to, to: $0.from, fromRank: $0.toRank, toRank: $0.fromRank) }
        )
    }

    /// Whether the change does nothing.
    public var isEmpty: Bool { removed.isEmpty && inserted.isEmpty && moved.isEmpty }

    /// The ids of the items the change leaves in the document: inserted then moved, in order.
    public var resultingItemIDs: [ItemID] { inserted.compactMap(\.item.id) + moved.map(\.item) }
}

/// Applies changes to a database inside a transaction that the caller opened, writing only the
/// rows that leave, arrive or move (and, rarely, a window of neighbours whose gap ran out, see
/// ``RankSpacing``): never a whole collection.
enum ChangeApplier {
    /// Something arriving in a collection.
    private enum Arrival: Hashable {
        case new(Int)  // index into the change's inserted rows
        case moved(Int)  // index into the change's moves
    }

    /// Applies `change` and returns it as realized: removed rows as they actually were, inserted
    /// rows with their ids, moves from the slots the items actually had. Throws (and the
    /// caller's transaction rolls back) when an item to remove or move is missing, an item to
    /// insert with a fixed id exists, a collection is missing or read-only, or an item would
    /// leave a write-only collection.
    static func apply(
        _ change: StoreChange, spacing: RankSpacing, in db: Database, statistics: inout RankStatistics
    ) throws -> StoreChange {
        // Everything named once.
        var named = Set<ItemID>()
        for id in change.removed.compactMap(\.item.id) + change.moved.map(\.item)
            + change.inserted.compactMap(\.item.id)
        {
            guard named.insert(id).inserted else { throw ShowcaseStoreError.duplicateItem(id) }
        }

        // Current rows of what leaves or moves (read together: one query, not one per item).
        let current = try ShowcaseItem.rows(
            change.removed.compactMap(\.item.id) + change.moved.map(\.item) + change.inserted.compactMap(\.item.id), db)
        var removedNow: [ShowcaseItem] = []
        for placed in change.removed {
            guard let id = placed.item.id, let row = current[id] else {
                throw ShowcaseStoreError.noSuchItem(placed.item.id ?? 0)
            }
            removedNow.append(row)
        }
        var movedNow: [ShowcaseItem] = []
        for move in change.moved {
            guard let row = current[move.item] else { throw ShowcaseStoreError.noSuchItem(move.item) }
            movedNow.append(row)
        }
        for placed in change.inserted {
            if let id = placed.item.id, current[id] != nil { throw ShowcaseStoreError.itemExists(id) }
        }

        // Collections involved, checked. Nothing leaves a write-only collection: not by a move,
        // a removal, or an undo or redo of an earlier step (what was dropped there cannot be
        // taken back, U2).
        let sources = Set(removedNow.map(\.collectionId) + movedNow.map(\.collectionId))
        let targets = Set(change.inserted.map(\.slot.collection) + change.moved.map(\.to.collection))
        var names: [CollectionID: String] = [:]
        for id in sources.union(targets).sorted() {
            guard let collection = try ShowcaseCollection.fetchOne(db, key: id) else {
                throw ShowcaseStoreError.noSuchCollection(id)
            }
            if collection.flags.contains(.readOnly) { throw ShowcaseStoreError.readOnly(collection: collection.name) }
            if collection.flags.contains(.writeOnly), sources.contains(id) {
                throw ShowcaseStoreError.writeOnly(collection: collection.name)
            }
            names[id] = collection.name
        }

        // Where what leaves is now (indices counted over the index, before any write).
        var writer = RankWriter(spacing, db)
        var fromSlots: [ItemID: ItemSlot] = [:]
        for (collection, rows) in Dictionary(grouping: removedNow + movedNow, by: \.collectionId) {
            let indices = try writer.indices(of: rows.map(\.rank), in: collection)
            for (row, index) in zip(rows, indices) {
                fromSlots[row.id!] = ItemSlot(collection: collection, position: index)
            }
        }

        // 1. Take out what leaves: removed rows go; moved rows that stay in a collection that
        // receives items are parked out of its order until their turn.
        for row in removedNow {
            try db.cachedStatement(sql: "DELETE FROM item WHERE id = ?").execute(arguments: [row.id])
        }
        for row in movedNow where targets.contains(row.collectionId) { try writer.park(row.id!) }

        // 2. Put in what arrives, per collection (in id order), in ascending order of target
        // index; consecutive arrivals share one gap.
        var arrivals: [CollectionID: [(index: Int, order: Int, what: Arrival)]] = [:]
        for (i, placed) in change.inserted.enumerated() {
            arrivals[placed.slot.collection, default: []].append((placed.slot.position, i, .new(i)))
        }
        for (i, move) in change.moved.enumerated() {
            arrivals[move.to.collection, default: []].append((move.to.position, change.inserted.count + i, .moved(i)))
        }
        var inserted = change.inserted
        var moved = change.moved
        for (collection, entries) in arrivals.sorted(by: { $0.key < $1.key }) {
            let sorted = entries.sorted { ($0.index, $0.order) < ($1.index, $1.order) }
            // (Counted no further than the largest index asked for: beyond it, clamping is moot.)
            var count = try writer.count(collection, upTo: sorted.last!.index)
            // Each arrival's index once the ones before it are in: clamped to the collection.
            var groups: [(index: Int, members: [Arrival])] = []
            for entry in sorted {
                let index = min(max(entry.index, 0), count)
                count += 1
                if let last = groups.last, last.index + last.members.count == index {
                    groups[groups.count - 1].members.append(entry.what)
                } else {
                    groups.append((index, [entry.what]))
                }
            }
            // The arrivals placed so far, in order, with their current indices.
            var placed: [(what: Arrival, index: Int)] = []
            let spreadsBefore = writer.statistics.windows
            // The last row placed, and its index: the next group's neighbours are found from it.
            var anchor: (index: Int, id: ItemID)?
            for group in groups {
                let hints = group.members.map { what -> Int64? in
                    switch what {
                    case .new(let i): change.inserted[i].item.id == nil ? nil : change.inserted[i].item.rank
                    case .moved(let i): change.moved[i].toRank
                    }
                }
                let ranks = try writer.ranks(
                    forArriving: group.members.count, at: group.index, in: collection, hints: hints,
                    name: names[collection] ?? "", anchor: anchor)
                for (what, rank) in zip(group.members, ranks) {
                    switch what {
                    case .new(let i):
                        inserted[i].item.collectionId = collection
                        inserted[i].item.rank = rank
                        try inserted[i].item.insert(db)
                    case .moved(let i):
                        try db.cachedStatement(sql: "UPDATE item SET collectionId = ?, rank = ? WHERE id = ?")
                            .execute(arguments: [collection, rank, moved[i].item])
                        moved[i].toRank = rank
                    }
                }
                switch group.members.last! {
                case .new(let i): anchor = inserted[i].item.id.map { (group.index + group.members.count - 1, $0) }
                case .moved(let i): anchor = (group.index + group.members.count - 1, moved[i].item)
                }
                // Arrivals already placed at or after this index move down by the group's size.
                var cut = placed.count
                while cut > 0, placed[cut - 1].index >= group.index {
                    cut -= 1
                    placed[cut].index += group.members.count
                }
                placed.insert(
                    contentsOf: group.members.enumerated().map { ($1, group.index + $0) }, at: cut)
            }
            // A window spread out after some arrivals were placed may have given them new ranks.
            let respread = writer.statistics.windows > spreadsBefore
            for (what, index) in placed {
                let slot = ItemSlot(collection: collection, position: index)
                switch what {
                case .new(let i):
                    inserted[i].slot = slot
                    if respread,
                        let rank = try Int64.fetchOne(
                            db, sql: "SELECT rank FROM item WHERE id = ?", arguments: [inserted[i].item.id])
                    {
                        inserted[i].item.rank = rank
                    }
                case .moved(let i):
                    moved[i].to = slot
                    if respread {
                        moved[i].toRank = try Int64.fetchOne(
                            db, sql: "SELECT rank FROM item WHERE id = ?", arguments: [moved[i].item])
                    }
                }
            }
        }

        for (i, row) in movedNow.enumerated() {
            moved[i].from = fromSlots[row.id!]!
            moved[i].fromRank = row.rank
        }
        statistics += writer.statistics
        return StoreChange(
            removed: removedNow.map { StoreChange.Placed($0, at: fromSlots[$0.id!]!) }, inserted: inserted, moved: moved
        )
    }
}

extension ShowcaseItem {
    /// The rows with these ids that exist, by id, read a few thousand per query.
    static func rows(_ ids: [ItemID], _ db: Database) throws -> [ItemID: ShowcaseItem] {
        var rows: [ItemID: ShowcaseItem] = [:]
        for start in stride(from: 0, to: ids.count, by: 5_000) {
            for row in try ShowcaseItem.fetchAll(db, keys: ids[start..<min(start + 5_000, ids.count)]) {
                rows[row.id!] = row
            }
        }
        return rows
    }
}
