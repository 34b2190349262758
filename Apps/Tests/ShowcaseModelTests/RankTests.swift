import DragDrop
import Foundation
import GRDB
@testable @_spi(CrashTesting) import ShowcaseModel
import Synchronization
import Testing

/// The store's sparse ranks: an operation writes the rows that move and no others, a used-up
/// gap costs a small window of neighbours, and a database written with dense positions by the
/// earlier version opens, migrated, with every collection in its order.
@Suite("Showcase store, ranks")
struct RankTests {
    /// Counts the rows each transaction of `store` inserts, updates or deletes.
    final class RowCounter: Sendable {
        let rows = Mutex(0)
        init(_ store: ShowcaseStore) {
            store.addTransactionHooks(
                StoreTransactionHooks(
                    didChangeRow: { [self] in rows.withLock { $0 += 1 } }, willCommit: {}, didCommit: {}))
        }
        /// The rows written by `body`.
        func count(_ body: () throws -> Void) rethrows -> Int {
            let before = rows.withLock { $0 }
            try body()
            return rows.withLock { $0 } - before
        }
    }

    /// A store with a list `big` of `size` items ("m0"…) and an empty list `other`.
    static func bigList(_ size: Int, spacing: RankSpacing = .standard) throws -> (
        TemporaryDirectory, ShowcaseStore, big: CollectionID, other: CollectionID
    ) {
        let directory = try TemporaryDirectory()
        let store = try ShowcaseStore(path: directory.file("showcase.sqlite").path, seed: false, spacing: spacing)
        let big = try store.createCollection(ShowcaseCollection(pane: .mail, key: "big", name: "Big", kind: .mailbox))
            .id!
        let other = try store.createCollection(
            ShowcaseCollection(pane: .mail, key: "other", name: "Other", kind: .mailbox)
        )
        .id!
        _ = try store.insert((0..<size).map { NewItem(title: "m\($0)", kind: .message) }, into: big)
        return (directory, store, big, other)
    }

    @Test(
        "S4, U1: in a list of 20,000, moving the first item out and back, a drop at the top, its undo and redo, a removal and its undo each write one row; a reorder writes the moved row only; 200 scattered items out, undone, redone, undone write 200 rows each time"
    )
    func onlyTheRowsThatMove() throws {
        let (_, store, big, other) = try Self.bigList(20_000)
        let counter = RowCounter(store)
        var model = try store.itemIDs(in: big)
        let first = model[0]

        #expect(try counter.count { _ = try store.move([first], to: other) } == 1)
        model.removeFirst()
        #expect(try store.itemIDs(in: big) == model)
        #expect(try counter.count { _ = try store.move([first], to: big, at: 0) } == 1)
        model.insert(first, at: 0)
        #expect(try store.itemIDs(in: big) == model)

        _ = try store.insert([NewItem(title: "elsewhere", kind: .message)], into: other)
        let elsewhere = try store.itemIDs(in: other)[0]
        let drop = store.performDrop(.move, of: [elsewhere], on: ShowcaseTargets.collection(big), at: 0, newItems: [])
        guard case .committed(let undo?, _) = drop else {
            Issue.record("the drop did not commit with an undo: \(drop)")
            return
        }
        #expect(try store.itemIDs(in: big) == [elsewhere] + model)
        #expect(counter.count { undo.undo() } == 1)
        #expect(try store.itemIDs(in: big) == model)
        #expect(counter.count { undo.redo() } == 1)
        #expect(try store.itemIDs(in: big) == [elsewhere] + model)
        #expect(counter.count { undo.undo() } == 1)

        // A removal in the middle, and its undo (the same row back, same id, same rank).
        let middle = model[10_000]
        let before = try #require(try store.item(middle))
        let removal = try store.remove([middle])
        #expect(try store.itemIDs(in: big) == Array(model[..<10_000] + model[10_001...]))
        #expect(counter.count { removal.action.undo() } == 1)
        #expect(try store.item(middle) == before)
        #expect(try store.itemIDs(in: big) == model)

        // A reorder within the list: the moved row is parked, then placed (two writes of it).
        #expect(try counter.count { _ = try store.move([model[19_999]], to: big, at: 0) } == 2)
        model.insert(model.removeLast(), at: 0)
        #expect(try store.itemIDs(in: big) == model)
        #expect(try store.slot(of: model[0]) == ItemSlot(collection: big, position: 0))
        #expect(try store.slot(of: model[15_000]) == ItemSlot(collection: big, position: 15_000))
        // 200 items scattered over the list (every 100th) out and back: 200 rows each way.
        let scattered = stride(from: 50, to: model.count, by: 100).map { model[$0] }
        let out = try store.move(scattered, to: other)
        #expect(try store.itemIDs(in: big) == model.filter { !scattered.contains($0) })
        #expect(counter.count { out.action.undo() } == scattered.count)
        #expect(try store.itemIDs(in: big) == model)
        #expect(counter.count { out.action.redo() } == scattered.count)
        #expect(try store.itemIDs(in: other).suffix(scattered.count) == scattered[...])
        #expect(counter.count { out.action.undo() } == scattered.count)
        #expect(try store.itemIDs(in: big) == model)
        #expect(store.rankStatistics.windows == 0, "no gap ran out")
        #expect(try store.integrityProblems().isEmpty)
    }

    @Test(
        "U1: 1,000 items dropped one by one at the same place in the middle of 5,000 use up gaps again and again; each time a small window is spread out (a few rows per drop, amortized), the order is the array's, and the last 100 undo and redo exactly",
        arguments: [RankSpacing.standard, RankSpacing(spacing: 1 << 16, limit: 1 << 40)])
    func sameSpotAgainAndAgain(spacing: RankSpacing) throws {
        let (_, store, big, _) = try Self.bigList(5_000, spacing: spacing)
        let counter = RowCounter(store)
        var model = try store.itemIDs(in: big)
        var edits: [StoreEdit] = []
        var written = 0
        for n in 0..<1_000 {
            written += try counter.count {
                edits.append(try store.insert([NewItem(title: "new \(n)", kind: .message)], into: big, at: 2_500))
            }
            model.insert(edits.last!.itemIDs[0], at: 2_500)
            // The realized change is the row as stored (its rank too, after a spread) at its slot.
            let realized = edits.last!.change.inserted
            #expect(realized.map(\.slot) == [ItemSlot(collection: big, position: 2_500)])
            #expect(try realized.map(\.item) == [store.item(edits.last!.itemIDs[0])])
            if n % 250 == 249 { #expect(try store.itemIDs(in: big) == model, "after \(n + 1) drops") }
        }
        #expect(try store.itemIDs(in: big) == model)
        let statistics = store.rankStatistics
        print("1,000 drops at one place, spacing \(spacing.spacing): \(written) rows written; \(statistics)")
        #expect(statistics.windows > 0, "the gaps ran out")
        #expect(statistics.wholeCollections == 0, "never the whole list")
        // Each drop writes its row; the spreads add a few rows per drop, not thousands.
        #expect(written <= 1_000 * 12, "\(written) rows written for 1,000 drops")

        let after = model
        for edit in edits.suffix(100).reversed() {
            edit.action.undo()
            model.removeAll { $0 == edit.itemIDs[0] }
        }
        #expect(try store.itemIDs(in: big) == model)
        for edit in edits.suffix(100) { edit.action.redo() }
        #expect(try store.itemIDs(in: big) == after)
        #expect(try store.integrityProblems().isEmpty)
    }

    @Test(
        "S4, A6: a collection with no rank left refuses the item with a clear error and changes nothing; the whole list is spread out when only that has room"
    )
    func noRoomLeft() throws {
        // Ranks -8...8: room for 17 items.
        let (_, store, big, _) = try Self.bigList(15, spacing: RankSpacing(spacing: 1, limit: 8))
        var model = try store.itemIDs(in: big)
        let edit = try store.insert(
            [NewItem(title: "16th", kind: .message), NewItem(title: "17th", kind: .message)], into: big, at: 7)
        model.insert(contentsOf: edit.itemIDs, at: 7)
        #expect(try store.itemIDs(in: big) == model)
        #expect(try edit.change.inserted.map(\.item) == edit.itemIDs.map { try store.item($0) })
        #expect(
            edit.change.inserted.map(\.slot) == [7, 8].map { ItemSlot(collection: big, position: $0) })
        #expect(store.rankStatistics.wholeCollections > 0)
        #expect(throws: ShowcaseStoreError.noRoom(collection: "Big")) {
            try store.insert([NewItem(title: "18th", kind: .message)], into: big, at: 3)
        }
        #expect(ShowcaseStoreError.noRoom(collection: "Big").description == "Big has no room for more items.")
        #expect(try store.itemIDs(in: big) == model)
        #expect(try store.integrityProblems().isEmpty)
    }

    @Test(
        "U1: a change whose second arrival spreads out the window holding its first reports every row as stored, at its slot; its inverse and the change again give the same order"
    )
    func realizedAfterSpread() throws {
        // Ranks 0…9, no gap: the arrival at the top fits (rank -1), the one at index 5 does not.
        let (_, store, big, _) = try Self.bigList(10, spacing: RankSpacing(spacing: 1, limit: 64))
        var model = try store.itemIDs(in: big)
        let change = StoreChange(inserted: [
            StoreChange.Placed(
                ShowcaseItem(collectionId: big, title: "top", kind: .message),
                at: ItemSlot(collection: big, position: 0)),
            StoreChange.Placed(
                ShowcaseItem(collectionId: big, title: "middle", kind: .message),
                at: ItemSlot(collection: big, position: 5)),
        ])
        let realized = try store.apply(change)
        #expect(store.rankStatistics.windows == 1)
        let ids = realized.inserted.compactMap(\.item.id)
        model.insert(ids[0], at: 0)
        model.insert(ids[1], at: 5)
        #expect(try store.itemIDs(in: big) == model)
        #expect(
            try realized.inserted.map(\.item) == ids.map { try store.item($0) }, "the ranks as stored after the spread")
        #expect(realized.inserted.map(\.slot) == [0, 5].map { ItemSlot(collection: big, position: $0) })
        let after = try store.items(in: big)
        try store.apply(realized.inverse)
        #expect(try store.itemIDs(in: big) == model.filter { !ids.contains($0) })
        try store.apply(realized)
        #expect(try store.items(in: big) == after, "the same rows, ranks included")
    }

    // MARK: Migration

    @Test(
        "A database made by the previous version (dense positions, seeded, with All Mail's 100,000) opens migrated once: every collection keeps its order, ranks are 2^32 apart, and moves, drops and undo work"
    )
    func migratesDensePositions() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("showcase.sqlite").path
        // The previous version's file: its migrations (v1, v2), its seed and big data, and
        // positions 0 to n-1. Made here by writing today's data and numbering it densely, as
        // that version did, under the `position` column its schema had.
        var orders: [CollectionID: [ItemID]] = [:]
        do {
            let store = try ShowcaseStore(path: path)
            try store.insertBigDataIfNeeded()
            try store.database.write { db in
                try db.execute(
                    sql: """
                        CREATE TEMP TABLE dense AS
                            SELECT id, ROW_NUMBER() OVER (PARTITION BY collectionId ORDER BY rank) - 1 AS p FROM item;
                        CREATE UNIQUE INDEX temp.dense_id ON dense(id);
                        UPDATE item SET rank = -1 - (SELECT p FROM dense WHERE dense.id = item.id);
                        UPDATE item SET rank = -rank - 1;
                        ALTER TABLE item RENAME COLUMN rank TO position;
                        DELETE FROM grdb_migrations WHERE identifier = 'v3-sparse-ranks';
                        DROP TABLE dense;
                        """)
                for id in try CollectionID.fetchAll(db, sql: "SELECT id FROM collection") {
                    orders[id] = try ItemID.fetchAll(
                        db, sql: "SELECT id FROM item WHERE collectionId = ? ORDER BY position", arguments: [id])
                }
                let columns = try db.columns(in: "item").map(\.name)
                #expect(columns.contains("position") && !columns.contains("rank"))
                #expect(try Int.fetchOne(db, sql: "SELECT MAX(position) FROM item") == ShowcaseBigData.messageCount - 1)
            }
        }
        #expect(orders.count > 20)

        var opened: ShowcaseStore?
        let elapsed = try ContinuousClock().measure { opened = try ShowcaseStore(path: path) }
        let store = try #require(opened)
        print("opening the previous version's file, migration included (printed, not asserted): \(elapsed)")
        try store.database.read { db in
            #expect(try db.columns(in: "item").map(\.name).contains("rank"))
            #expect(try ShowcaseStore.migrator.hasCompletedMigrations(db))
            for id in orders.keys {
                let ranks = try Int64.fetchAll(
                    db, sql: "SELECT rank FROM item WHERE collectionId = ? ORDER BY rank", arguments: [id])
                #expect(ranks == ranks.indices.map { RankSpacing.standard.rank(at: $0) }, "collection \(id)")
            }
        }
        for (id, ids) in orders { #expect(try store.itemIDs(in: id) == ids, "collection \(id)") }
        #expect(try store.integrityProblems().isEmpty)
        #expect(try !store.insertBigDataIfNeeded(), "the big collections are not inserted twice")

        // Edits on the migrated file: All Mail's first message out and back to the top, undone.
        let allMail = try #require(try store.collection(pane: .mail, key: ShowcaseBigData.allMailKey)).id!
        let archive = try #require(try store.collection(pane: .mail, key: "archive")).id!
        let mail = orders[allMail]!
        let out = try store.move([mail[0]], to: archive)
        let top = try store.move([mail[mail.count - 1]], to: allMail, at: 0)
        #expect(try store.items(in: allMail, positions: 0..<2).compactMap(\.id) == [mail[mail.count - 1], mail[1]])
        top.action.undo()
        out.action.undo()
        #expect(try store.itemIDs(in: allMail) == mail)
        #expect(try store.itemIDs(in: archive) == orders[archive]!)

        // Opening it again migrates nothing more.
        let reopened = try ShowcaseStore(path: path)
        #expect(try reopened.itemIDs(in: allMail) == mail)
    }
}
