import Foundation
import GRDB

/// How the store orders a collection's items: each row has a `rank`, an integer sort key unique
/// in its collection, with gaps between neighbours, so putting an item somewhere writes that
/// item's row only, whatever the collection's size.
///
/// - A new item between two neighbours gets a rank between theirs; at an end, one ``spacing``
///   beyond the end; several items arriving together share the gap evenly.
/// - When a gap is used up (about 30 arrivals at one spot with the standard spacing), a
///   window of neighbours around the spot is spread out evenly: the smallest window, doubling
///   from 8 items a side, whose room leaves a gap of at least twice its number of items
///   between them (at most half the spacing, so a window that reaches an end, and spreads
///   beyond it one spacing per item, always qualifies). The bar rises with the window's size
///   (list labelling's density thresholds), so after a window of w items is spread, about w/4
///   more arrivals must land in it before a window that size is needed there again: O(log n)
///   rows per arrival, amortized, and with gaps of 2^32 the first window (17 items) is enough
///   almost always. Only a collection without that room anywhere is spread whole, and one
///   with more items than ranks is refused (``ShowcaseStoreError/noRoom(collection:)``).
/// - Ranks stay within `-limit...limit`; inside a transaction, rows waiting for their new place
///   are parked above `limit`, where no query that reads order looks.
///
/// An item's index (what the views and ``ItemSlot`` count) is the number of items with a
/// smaller rank: a count over the `(collectionId, rank)` index, and reading rows at an index
/// is `LIMIT`/`OFFSET` over the same index (neither reads a table row it skips).
public struct RankSpacing: Sendable, Hashable {
    /// The gap between neighbours a collection starts with and an end grows by.
    public var spacing: Int64
    /// Ranks stay within `-limit...limit`.
    public var limit: Int64

    /// Creates a spacing (tests use small ones, so gaps run out often).
    public init(spacing: Int64, limit: Int64) {
        precondition(spacing >= 1 && limit >= 1 && limit <= 1 << 61)
        self.spacing = spacing
        self.limit = limit
    }

    /// Gaps of 2^32 (about 30 arrivals at one spot before a window is spread out), ranks within
    /// ±2^61 (half a billion items appended one by one at an end).
    public static let standard = RankSpacing(spacing: 1 << 32, limit: 1 << 61)

    /// The rank of the item at `index` of a collection written in order from scratch.
    public func rank(at index: Int) -> Int64 { Int64(index) * spacing }
}

/// How often gaps ran out in a store's operations (for tests).
@_spi(CrashTesting)
public struct RankStatistics: Sendable, Hashable, CustomStringConvertible {
    /// Windows of neighbours spread out.
    public var windows = 0
    /// Of which whole collections.
    public var wholeCollections = 0
    /// Rows they rewrote.
    public var rows = 0

    /// No spreads.
    public init() {}

    public var description: String {
        "\(windows) windows spread out (\(wholeCollections) whole collections), \(rows) rows rewritten"
    }

    public static func += (lhs: inout RankStatistics, rhs: RankStatistics) {
        lhs.windows += rhs.windows
        lhs.wholeCollections += rhs.wholeCollections
        lhs.rows += rhs.rows
    }
}

/// The rank arithmetic and queries of ``ChangeApplier``, inside the caller's transaction.
struct RankWriter {
    let spacing: RankSpacing
    let db: Database
    /// The spreads this writer made.
    var statistics = RankStatistics()
    /// The next parking rank (above `limit`).
    private var nextPark: Int64

    init(_ spacing: RankSpacing, _ db: Database) {
        self.spacing = spacing
        self.db = db
        nextPark = spacing.limit + 1
    }

    /// A rank above `limit`, unique in this transaction, for a row waiting for its new place.
    mutating func park(_ id: ItemID) throws {
        try db.cachedStatement(sql: "UPDATE item SET rank = ? WHERE id = ?").execute(arguments: [nextPark, id])
        nextPark += 1
    }

    /// The number of items in `collection` (parked rows aside), counting no further than
    /// `cap` when it is given: `min(count, cap)`, in time proportional to the smaller, so an
    /// index near the top of 100,000 items is clamped without counting them all.
    func count(_ collection: CollectionID, upTo cap: Int? = nil) throws -> Int {
        if let cap {
            return try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM (SELECT 1 FROM item WHERE collectionId = ? AND rank <= ? LIMIT ?)",
                arguments: [collection, spacing.limit, max(cap, 0)]) ?? 0
        }
        return try Int.fetchOne(
            db, sql: "SELECT COUNT(*) FROM item WHERE collectionId = ? AND rank <= ?",
            arguments: [collection, spacing.limit]) ?? 0
    }

    /// `index` clamped to `0...count` of `collection`; nil is the end.
    func clamped(_ index: Int?, in collection: CollectionID) throws -> Int {
        try count(collection, upTo: index.map { max($0, 0) })
    }

    /// The indices of items of `collection` with these ranks (each the number of items with a
    /// smaller one), with one count per item over the index between consecutive ranks: the
    /// work of one walk up to the largest, however many items.
    func indices(of ranks: [Int64], in collection: CollectionID) throws -> [Int] {
        var result = [Int](repeating: 0, count: ranks.count)
        var running = 0
        var previous: Int64?
        for i in ranks.indices.sorted(by: { ranks[$0] < ranks[$1] }) {
            let rank = ranks[i]
            if let previous {
                running +=
                    try Int.fetchOne(
                        db.cachedStatement(
                            sql: "SELECT COUNT(*) FROM item WHERE collectionId = ? AND rank >= ? AND rank < ?"),
                        arguments: [collection, previous, rank]) ?? 0
            } else {
                running +=
                    try Int.fetchOne(
                        db, sql: "SELECT COUNT(*) FROM item WHERE collectionId = ? AND rank < ?",
                        arguments: [collection, rank]) ?? 0
            }
            result[i] = running
            previous = rank
        }
        return result
    }

    /// `(id, rank)` of up to `limit` items of `collection` from index `offset`, in order.
    func rows(_ collection: CollectionID, offset: Int, limit: Int) throws -> [(id: ItemID, rank: Int64)] {
        try Row.fetchAll(
            db.cachedStatement(
                sql: "SELECT id, rank FROM item WHERE collectionId = ? AND rank <= ? ORDER BY rank LIMIT ? OFFSET ?"),
            arguments: [collection, spacing.limit, limit, offset]
        ).map { ($0[0], $0[1]) }
    }

    /// Ranks for `count` items arriving together at `index` of `collection` (`index` at most
    /// the collection's size), in order. Uses `hints` (the ranks the items had, for an undo or
    /// redo) when they still fit between the neighbours; else shares the gap; else spreads out
    /// a window of neighbours first (their rows rewritten). `name` is for the error.
    ///
    /// `anchor`, an item known to be at an index before `index` (the last one placed by the same
    /// change), lets the neighbours be found by walking from it rather than from the top, so
    /// many arrivals in ascending order cost one walk over the collection, not one each.
    mutating func ranks(
        forArriving count: Int, at index: Int, in collection: CollectionID, hints: [Int64?], name: String,
        anchor: (index: Int, id: ItemID)? = nil
    ) throws -> [Int64] {
        let neighbours: [(id: ItemID, rank: Int64)]
        if let anchor, index - 1 >= anchor.index,
            let from = try Int64.fetchOne(
                db.cachedStatement(sql: "SELECT rank FROM item WHERE id = ?"), arguments: [anchor.id])
        {
            neighbours = try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT id, rank FROM item WHERE collectionId = ? AND rank >= ? AND rank <= ?
                        ORDER BY rank LIMIT 2 OFFSET ?
                        """),
                arguments: [collection, from, spacing.limit, index - 1 - anchor.index]
            ).map { ($0[0], $0[1]) }
        } else {
            neighbours = try rows(collection, offset: max(index - 1, 0), limit: 2)
        }
        let previous = index > 0 ? neighbours.first?.rank : nil
        let next = index > 0 ? (neighbours.count > 1 ? neighbours[1].rank : nil) : neighbours.first?.rank
        let lowest = previous.map { $0 + 1 } ?? -spacing.limit
        let highest = next.map { $0 - 1 } ?? spacing.limit
        let exact = hints.compactMap { $0 }
        if exact.count == count, let first = exact.first, let last = exact.last, first >= lowest, last <= highest,
            zip(exact, exact.dropFirst()).allSatisfy({ $0 < $1 })
        {
            return exact
        }
        let (low, high) = bounds(previous, next, items: count)
        let step = (high - low) / Int64(count + 1)
        if step >= 1 { return (1...count).map { low + step * Int64($0) } }
        return try spreadOut(count, at: index, in: collection, name: name)
    }

    /// The exclusive bounds of the room for `items` items between `previous` and `next`: at an
    /// end, one spacing per item beyond it (within the limit).
    private func bounds(_ previous: Int64?, _ next: Int64?, items: Int) -> (Int64, Int64) {
        let room = roomBeyond(items)
        switch (previous, next) {
        case (let previous?, let next?): return (previous, next)
        case (let previous?, nil): return (previous, min(spacing.limit + 1, previous + room))
        case (nil, let next?): return (max(-spacing.limit - 1, next - room), next)
        case (nil, nil):
            return (max(-spacing.limit - 1, -spacing.spacing), min(spacing.limit + 1, room - spacing.spacing))
        }
    }

    /// Spreads out the smallest window of items around `index` (doubling from 8 a side) that
    /// has room for them and `count` arrivals with a gap of at least twice their number between
    /// each (or the whole collection, with any room), rewrites the window's ranks, and returns
    /// the arrivals' ranks.
    private mutating func spreadOut(_ count: Int, at index: Int, in collection: CollectionID, name: String) throws
        -> [Int64]
    {
        var side = 8
        while true {
            // The items at lo..<index+side, with the one before and the one after when there are.
            let lo = max(0, index - side)
            let first = max(lo - 1, 0)
            let wanted = index + side - first + 1
            let read = try rows(collection, offset: first, limit: wanted)
            let before = lo > 0 ? read.first : nil
            var window = Array(read.dropFirst(lo > 0 ? 1 : 0))
            let after = read.count == wanted ? window.removeLast() : nil
            let total = window.count + count
            // At an end of the collection the window may spread beyond it.
            let lowBound = before?.rank ?? max(-spacing.limit - 1, (window.first?.rank ?? 0) - roomBeyond(total))
            let highBound = after?.rank ?? min(spacing.limit + 1, (window.last?.rank ?? 0) + roomBeyond(total))
            let step = (highBound - lowBound) / Int64(total + 1)
            let whole = before == nil && after == nil
            if step >= min(2 * Int64(total), max(1, spacing.spacing / 2)) || (whole && step >= 1) {
                var ranks = (1...total).map { lowBound + step * Int64($0) }
                let arriving = Array(ranks[(index - lo)..<(index - lo + count)])
                ranks.removeSubrange((index - lo)..<(index - lo + count))
                statistics.windows += 1
                statistics.wholeCollections += whole ? 1 : 0
                statistics.rows += window.count
                for row in window { try park(row.id) }
                for (row, rank) in zip(window, ranks) {
                    try db.cachedStatement(sql: "UPDATE item SET rank = ? WHERE id = ?").execute(arguments: [
                        rank, row.id,
                    ])
                }
                return arriving
            }
            if whole { throw ShowcaseStoreError.noRoom(collection: name) }
            side *= 2
        }
    }

    /// One spacing per item, within the ranks' range.
    private func roomBeyond(_ items: Int) -> Int64 {
        let reach = spacing.spacing.multipliedReportingOverflow(by: Int64(items + 1))
        return reach.overflow ? 2 * spacing.limit + 2 : min(reach.partialValue, 2 * spacing.limit + 2)
    }
}
