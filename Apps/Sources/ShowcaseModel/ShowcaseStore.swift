import DragDrop
import Foundation
import GRDB
import Synchronization

/// Where the showcase keeps its data: `$XDG_DATA_HOME/DragDropShowcase`, or
/// `~/.local/share/DragDropShowcase` when `XDG_DATA_HOME` is unset or not absolute (as the XDG
/// base directory specification says).
public enum ShowcasePaths {
    /// The showcase's data directory for `environment` (default: this process's).
    public static func dataDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg, isDirectory: true).appendingPathComponent(
                "DragDropShowcase", isDirectory: true)
        }
        let home = environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? NSHomeDirectory()
        return URL(fileURLWithPath: home, isDirectory: true)
            .appendingPathComponent(".local/share/DragDropShowcase", isDirectory: true)
    }

    /// The document database: `showcase.sqlite` in the data directory.
    public static func databaseFile(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        dataDirectory(environment: environment).appendingPathComponent("showcase.sqlite")
    }

    /// The Files pane's folders: `Files` in the data directory.
    public static func filesRoot(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        dataDirectory(environment: environment).appendingPathComponent("Files", isDirectory: true)
    }
}

/// One committed operation of the store: what changed, its undo step's name, the items it left
/// in the document, and the undoable action the app registers.
public struct StoreEdit {
    /// What changed, exactly (rows removed and inserted, items moved with both slots).
    public var change: StoreChange
    /// The undo step's name: "Move 3 Reminders", "Copy Photo", "Delete 2 Notes".
    public var name: String
    /// The items the operation left in the document, in order: the moved items, the copies, the
    /// inserted items; empty for a removal.
    public var itemIDs: [ItemID]
    /// Reverts the operation and applies it again, each in one transaction, restoring exact
    /// positions (U1). A failure (the document changed outside the undo stack) changes nothing
    /// and is reported to ``ShowcaseStore/onUndoFailure``.
    public var action: UndoableAction
}

/// The showcase panes' documents: collections of ordered items in one SQLite database, through
/// GRDB.
///
/// Every operation (``insert(_:into:at:)``, ``move(_:to:at:)``, ``copy(_:to:at:)``,
/// ``remove(_:)``) is ONE transaction: it commits whole or not at all, even if the process is
/// killed in the middle (SQLite's journal rolls an unfinished transaction back when the database
/// is next opened). Each returns a ``StoreEdit`` whose undo and redo are single transactions too.
///
/// ## Schema
/// - `collection(id INTEGER PRIMARY KEY AUTOINCREMENT, pane TEXT, key TEXT NULL, name TEXT,
///   kind TEXT, flags INTEGER, position INTEGER)`, unique `(pane, key)`.
/// - `item(id INTEGER PRIMARY KEY AUTOINCREMENT, collectionId INTEGER REFERENCES collection ON
///   DELETE CASCADE, rank INTEGER, title TEXT, kind TEXT, payload BLOB NULL, created
///   DATETIME)`, unique `(collectionId, rank)`: items are in ascending order of rank, with gaps
///   between neighbours, so an operation writes only the rows that move, whatever the size of
///   the collection (see ``RankSpacing``). Migration `v3-sparse-ranks` turned the dense positions
///   0 to n-1 of earlier databases into ranks (`position × 2^32`).
/// - `showcaseMeta(key TEXT PRIMARY KEY, value TEXT)`: `seeded` once the seed data is in.
///
/// The class is `Sendable`: GRDB serializes access to the database. Undo actions are meant to
/// be run from the app's main thread, like ``UndoStack``.
public final class ShowcaseStore: Sendable {
    /// The database. Read it freely (for example with GRDB's `ValueObservation` to refresh a
    /// pane); write only through the store's operations, which keep ranks unique and in range.
    public let database: DatabaseQueue
    /// The database file's path (`:memory:` for an in-memory store).
    public let path: String
    /// How the store spaces the ranks it gives (``RankSpacing/standard`` but in tests that make
    /// gaps run out).
    public let spacing: RankSpacing

    private struct Hooks {
        var beforeCommit: (@Sendable () -> Void)?
        var onUndoFailure: (@Sendable (ShowcaseStoreError) -> Void)?
        var lastUndoFailure: ShowcaseStoreError?
    }
    private let hooks = Mutex(Hooks())
    private let statistics = Mutex(RankStatistics())

    /// How often this store's operations found a gap used up, since it was opened.
    @_spi(CrashTesting)
    public var rankStatistics: RankStatistics { statistics.withLock { $0 } }

    /// Opens (creating if needed) the database at `path` (default
    /// ``ShowcasePaths/databaseFile(environment:)``), migrates it, and inserts the seed data if
    /// `seed` is true and it was never inserted.
    public convenience init(path: String? = nil, seed: Bool = true) throws(ShowcaseStoreError) {
        try self.init(path: path, seed: seed, spacing: .standard)
    }

    /// Opens a store as ``init(path:seed:)`` does, giving ranks with `spacing` (tests: small
    /// gaps, so they run out).
    @_spi(CrashTesting)
    public init(path: String?, seed: Bool, spacing: RankSpacing) throws(ShowcaseStoreError) {
        let path = path ?? ShowcasePaths.databaseFile().path
        self.spacing = spacing
        do {
            let directory = (path as NSString).deletingLastPathComponent
            if !directory.isEmpty {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            }
            var configuration = Configuration()
            configuration.foreignKeysEnabled = true
            configuration.busyMode = .timeout(5)
            configuration.label = "ShowcaseStore"
            // Write-ahead logging with `synchronous = NORMAL`: a commit appends to the log without
            // waiting for the disk (fsync happens at checkpoints), so a drop's transaction on the
            // main thread does not stall the window while the disk is busy. A killed app still
            // reopens to every committed transaction (S4); only a power cut may lose the last ones.
            configuration.prepareDatabase { db in
                try db.execute(sql: "PRAGMA journal_mode = WAL")
                try db.execute(sql: "PRAGMA synchronous = NORMAL")
            }
            self.database = try DatabaseQueue(path: path, configuration: configuration)
            self.path = path
            try Self.migrator.migrate(database)
            if seed { try database.write { db in try Self.seed(db) } }
        } catch {
            throw ShowcaseStoreError.wrap(error)
        }
    }

    /// Inserts each part of the seed data the database has not had yet.
    static func seed(_ db: Database) throws {
        try ShowcaseSeed.insertIfNeeded(db)
        try ControlsSeed.insertIfNeeded(db)
    }

    /// Opens an in-memory store (for previews and quick tests; crash tests need a file).
    public init(inMemorySeeded seed: Bool) throws(ShowcaseStoreError) {
        do {
            var configuration = Configuration()
            configuration.foreignKeysEnabled = true
            self.database = try DatabaseQueue(configuration: configuration)
            self.path = ":memory:"
            self.spacing = .standard
            try Self.migrator.migrate(database)
            if seed { try database.write { db in try Self.seed(db) } }
        } catch {
            throw ShowcaseStoreError.wrap(error)
        }
    }

    /// The schema's migrations.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-collections-items") { db in
            try db.create(table: "collection") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("pane", .text).notNull()
                t.column("key", .text)
                t.column("name", .text).notNull()
                t.column("kind", .text).notNull()
                t.column("flags", .integer).notNull().defaults(to: 0)
                t.column("position", .integer).notNull()
                t.uniqueKey(["pane", "key"])
            }
            try db.create(table: "item") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("collectionId", .integer).notNull().references("collection", onDelete: .cascade)
                t.column("position", .integer).notNull()
                t.column("title", .text).notNull()
                t.column("kind", .text).notNull()
                t.column("payload", .blob)
                t.column("created", .datetime).notNull()
                t.uniqueKey(["collectionId", "position"])
            }
            try db.create(table: "showcaseMeta") { t in
                t.primaryKey("key", .text)
                t.column("value", .text).notNull()
            }
        }
        migrator.registerMigration("v2-settings", migrate: ShowcaseStore.migrateSettings)
        migrator.registerMigration("v3-sparse-ranks", migrate: ShowcaseStore.migrateToRanks)
        migrator.registerMigration("v4-collection-parents") { db in
            // Collections inside collections (Mail's mailboxes): every existing one stays at the top.
            try db.alter(table: "collection") { t in
                t.add(column: "parentId", .integer).references("collection", onDelete: .cascade)
            }
        }
        migrator.registerMigration("v5-collection-children-index") { db in
            // A mailbox's mailboxes, read when it opens: an index, so 100,000 of them cost
            // nothing to a row that holds ten.
            try db.create(index: "collection_children", on: "collection", columns: ["pane", "parentId", "position"])
        }
        return migrator
    }

    /// Dense positions (0 to n-1 per collection) become ranks a standard spacing apart, in the
    /// same order: the column is renamed (its unique index with it) and multiplied, which
    /// cannot collide (a position p < 2^32 becomes p × 2^32, which no position was).
    static func migrateToRanks(_ db: Database) throws {
        try db.execute(sql: "ALTER TABLE item RENAME COLUMN position TO rank")
        try db.execute(sql: "UPDATE item SET rank = rank * ?", arguments: [RankSpacing.standard.spacing])
    }

    // MARK: Hooks

    /// Called when an undo or redo fails (the document changed outside the undo stack): the
    /// failed transaction changed nothing; the app should tell the user.
    public var onUndoFailure: (@Sendable (ShowcaseStoreError) -> Void)? {
        get { hooks.withLock { $0.onUndoFailure } }
        set { hooks.withLock { $0.onUndoFailure = newValue } }
    }

    /// The most recent undo or redo failure, if any.
    public var lastUndoFailure: ShowcaseStoreError? { hooks.withLock { $0.lastUndoFailure } }

    /// Runs `hook` inside every operation's transaction, after all its writes and before its
    /// commit: the crash tests' helper stops there to be killed.
    @_spi(CrashTesting)
    public func setBeforeCommitHook(_ hook: (@Sendable () -> Void)?) {
        hooks.withLock { $0.beforeCommit = hook }
    }

    // MARK: Reading

    /// The collections of `pane`, in order.
    public func collections(in pane: ShowcasePane) throws(ShowcaseStoreError) -> [ShowcaseCollection] {
        try read { db in
            try ShowcaseCollection.filter(Column("pane") == pane).order(Column("position"), Column("id")).fetchAll(db)
        }
    }

    /// The collection with this id, or nil.
    public func collection(_ id: CollectionID) throws(ShowcaseStoreError) -> ShowcaseCollection? {
        try read { db in try ShowcaseCollection.fetchOne(db, key: id) }
    }

    /// The collection of `pane` with this ``ShowcaseCollection/key``, or nil.
    public func collection(pane: ShowcasePane, key: String) throws(ShowcaseStoreError) -> ShowcaseCollection? {
        try read { db in
            try ShowcaseCollection.filter(Column("pane") == pane && Column("key") == key).fetchOne(db)
        }
    }

    /// The items of a collection, in order.
    public func items(in collection: CollectionID) throws(ShowcaseStoreError) -> [ShowcaseItem] {
        try read { db in try Self.items(in: collection, db) }
    }

    /// The ids of a collection's items, in order.
    public func itemIDs(in collection: CollectionID) throws(ShowcaseStoreError) -> [ItemID] {
        // Ids only, from the (collectionId, position) index: a mailbox of 100,000 messages in
        // a few milliseconds, without reading titles and payloads.
        try read { db in
            try ItemID.fetchAll(
                db, sql: "SELECT id FROM item WHERE collectionId = ? ORDER BY rank", arguments: [collection])
        }
    }

    /// The number of items in a collection (a count over the index, without reading them).
    public func itemCount(in collection: CollectionID) throws(ShowcaseStoreError) -> Int {
        try read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item WHERE collectionId = ?", arguments: [collection]) ?? 0
        }
    }

    /// The items of a collection at indices `positions` (fewer at its end), in order: a page of a
    /// large collection, for the rows on screen. `LIMIT`/`OFFSET` over the `(collectionId, rank)`
    /// index, which skips rows without reading them: 128 rows at offset 99,000 of All Mail in
    /// about 2 ms.
    public func items(in collection: CollectionID, positions: Range<Int>) throws(ShowcaseStoreError) -> [ShowcaseItem] {
        guard positions.lowerBound >= 0 else {
            return try items(in: collection, positions: 0..<max(positions.upperBound, 0))
        }
        return try read { db in
            try ShowcaseItem.fetchAll(
                db, sql: "SELECT * FROM item WHERE collectionId = ? ORDER BY rank LIMIT ? OFFSET ?",
                arguments: [collection, positions.count, positions.lowerBound])
        }
    }

    /// The item with this id, or nil.
    public func item(_ id: ItemID) throws(ShowcaseStoreError) -> ShowcaseItem? {
        try read { db in try ShowcaseItem.fetchOne(db, key: id) }
    }

    /// Where an item is (its collection and index), or nil when it does not exist.
    public func slot(of id: ItemID) throws(ShowcaseStoreError) -> ItemSlot? {
        try read { db in
            guard let item = try ShowcaseItem.fetchOne(db, key: id) else { return nil }
            let index = try RankWriter(spacing, db).indices(of: [item.rank], in: item.collectionId)[0]
            return ItemSlot(collection: item.collectionId, position: index)
        }
    }

    /// Observes a collection's items, in order, for a pane to refresh when they change.
    public static func observeItems(in collection: CollectionID) -> ValueObservation<
        ValueReducers.Fetch<[ShowcaseItem]>
    > {
        ValueObservation.tracking { db in try items(in: collection, db) }
    }

    static func items(in collection: CollectionID, _ db: Database) throws -> [ShowcaseItem] {
        try ShowcaseItem.filter(Column("collectionId") == collection).order(Column("rank")).fetchAll(db)
    }

    /// Problems with the database: SQLite's `integrity_check` and `foreign_key_check`, and any
    /// rank out of range (a row left parked). Empty when all is well. (Ranks are unique per
    /// collection by the schema.)
    public func integrityProblems() throws(ShowcaseStoreError) -> [String] {
        try read { db in
            var problems: [String] = []
            let integrity = try String.fetchAll(db, sql: "PRAGMA integrity_check")
            if integrity != ["ok"] { problems += integrity.map { "integrity_check: \($0)" } }
            let foreignKeys = try Row.fetchAll(db, sql: "PRAGMA foreign_key_check")
            problems += foreignKeys.map { "foreign_key_check: \($0)" }
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT collectionId, COUNT(*) AS n, MIN(rank) AS lo, MAX(rank) AS hi FROM item
                    WHERE rank NOT BETWEEN ? AND ? OR typeof(rank) != 'integer' GROUP BY collectionId
                    """,
                arguments: [-spacing.limit, spacing.limit])
            for row in rows {
                let n: Int = row["n"]
                let lo: Int64 = row["lo"]
                let hi: Int64 = row["hi"]
                let collection: Int64 = row["collectionId"]
                problems.append("collection \(collection): \(n) ranks out of range or not integers, \(lo)...\(hi)")
            }
            return problems
        }
    }

    // MARK: Collections

    /// Inserts a collection (setup, not undoable) at the end of its pane, and returns it with
    /// its id.
    @discardableResult
    public func createCollection(_ collection: ShowcaseCollection) throws(ShowcaseStoreError) -> ShowcaseCollection {
        try write { db in try Self.createCollection(collection, db) }
    }

    static func createCollection(_ collection: ShowcaseCollection, _ db: Database) throws -> ShowcaseCollection {
        var collection = collection
        collection.position =
            try Int.fetchOne(
                db, sql: "SELECT COALESCE(MAX(position) + 1, 0) FROM collection WHERE pane = ?",
                arguments: [collection.pane]) ?? 0
        try collection.insert(db)
        return collection
    }

    /// The collection of `pane` with this key, created (empty) if there is none yet: a calendar
    /// day that gets its first event, for example.
    public func ensureCollection(
        pane: ShowcasePane, key: String, name: String, kind: CollectionKind, flags: CollectionFlags = []
    ) throws(ShowcaseStoreError) -> ShowcaseCollection {
        try write { db in
            if let existing = try ShowcaseCollection.filter(Column("pane") == pane && Column("key") == key).fetchOne(db)
            {
                return existing
            }
            return try Self.createCollection(
                ShowcaseCollection(pane: pane, key: key, name: name, kind: kind, flags: flags), db)
        }
    }

    // MARK: Operations

    /// Inserts new items into `collection` at `index` (nil or past the end: at the end), in
    /// order, in one transaction. Undo deletes them; redo puts them back with the same ids.
    public func insert(_ items: [NewItem], into collection: CollectionID, at index: Int? = nil)
        throws(ShowcaseStoreError) -> StoreEdit
    {
        let change = try perform { db in try Self.insertChange(items, into: collection, at: index, db) }
        return edit(change, verb: "Add", kinds: items.map(\.kind))
    }

    /// Moves items to `collection` at `index`, in the order given, in one transaction: only the
    /// moved rows are written (each gets a rank between its new neighbours'); within one
    /// collection this is a reorder.
    ///
    /// `index` counts positions in the destination as it is before the move, dragged items
    /// included (what ``InsertionIndex`` computes from the frames on screen): moving the first
    /// of `[a, b, c, d]` to index 3 gives `[b, c, a, d]`. Nil or past the end: at the end.
    /// Undo puts every item back at its exact original position (U1).
    public func move(_ itemIDs: [ItemID], to collection: CollectionID, at index: Int? = nil)
        throws(ShowcaseStoreError) -> StoreEdit
    {
        let change = try perform { db in try Self.moveChange(itemIDs, to: collection, at: index, db) }
        return edit(change, verb: "Move", kinds: change.moved.map { _ in nil }, ids: itemIDs)
    }

    /// Copies items to `collection` at `index` (the copies get new ids and are created now), in
    /// one transaction. Undo deletes the copies; redo puts them back with the same ids. Items of
    /// a write-only collection cannot be copied (``ShowcaseStoreError/writeOnly(collection:)``).
    public func copy(_ itemIDs: [ItemID], to collection: CollectionID, at index: Int? = nil)
        throws(ShowcaseStoreError) -> StoreEdit
    {
        let change = try perform { db in try Self.copyChange(itemIDs, to: collection, at: index, db) }
        return edit(change, verb: "Copy", kinds: change.inserted.map(\.item.kind))
    }

    /// Removes items, in one transaction. Undo puts them back, same ids and content, at their
    /// exact positions.
    public func remove(_ itemIDs: [ItemID]) throws(ShowcaseStoreError) -> StoreEdit {
        let change = try perform { db in
            var removed: [StoreChange.Placed] = []
            let rows = try ShowcaseItem.rows(itemIDs, db)
            for id in itemIDs {
                guard let row = rows[id] else { throw ShowcaseStoreError.noSuchItem(id) }
                // The slot is the applier's to find (it realizes the change).
                removed.append(StoreChange.Placed(row, at: ItemSlot(collection: row.collectionId, position: 0)))
            }
            return StoreChange(removed: removed)
        }
        return edit(change, verb: "Delete", kinds: change.removed.map(\.item.kind))
    }

    /// Applies a change in one transaction and returns it as realized (see
    /// ``StoreChange``). Reverting an edit is `apply(edit.change.inverse)`.
    @discardableResult
    public func apply(_ change: StoreChange) throws(ShowcaseStoreError) -> StoreChange {
        try perform { _ in change }
    }

    /// An undoable action for a realized change: undo applies its inverse, redo the change
    /// again, each in one transaction. Each direction runs only from the state the other left,
    /// so a failed undo (reported to ``onUndoFailure``) makes the next redo a no-op rather than
    /// applying the change twice.
    public func undoableAction(for change: StoreChange) -> UndoableAction {
        let box = ChangeBox(change)
        return UndoableAction(
            undo: { [self] in
                guard box.applied else { return }
                do {
                    box.change = try apply(box.change.inverse)
                    box.applied = false
                } catch {
                    reportUndoFailure(error)
                }
            },
            redo: { [self] in
                guard !box.applied else { return }
                do {
                    box.change = try apply(box.change.inverse)
                    box.applied = true
                } catch {
                    reportUndoFailure(error)
                }
            })
    }

    // MARK: Changes

    static func insertChange(_ items: [NewItem], into collection: CollectionID, at index: Int?, _ db: Database) throws
        -> StoreChange
    {
        let start = try insertionStart(collection, index, db)
        let now = ShowcaseItem.now()
        let rows = items.enumerated().map { offset, item in
            StoreChange.Placed(
                ShowcaseItem(
                    collectionId: collection, title: item.title, kind: item.kind, payload: item.payload, created: now),
                at: ItemSlot(collection: collection, position: start + offset))
        }
        return StoreChange(inserted: rows)
    }

    static func copyChange(_ itemIDs: [ItemID], to collection: CollectionID, at index: Int?, _ db: Database) throws
        -> StoreChange
    {
        let start = try insertionStart(collection, index, db)
        let now = ShowcaseItem.now()
        var rows: [StoreChange.Placed] = []
        for (offset, id) in itemIDs.enumerated() {
            guard let source = try ShowcaseItem.fetchOne(db, key: id) else { throw ShowcaseStoreError.noSuchItem(id) }
            // What went into a write-only collection cannot be seen, so it cannot be copied out.
            if let from = try ShowcaseCollection.fetchOne(db, key: source.collectionId), from.flags.contains(.writeOnly)
            {
                throw ShowcaseStoreError.writeOnly(collection: from.name)
            }
            rows.append(
                StoreChange.Placed(
                    ShowcaseItem(
                        collectionId: collection, title: source.title, kind: source.kind, payload: source.payload,
                        created: now),
                    at: ItemSlot(collection: collection, position: start + offset)))
        }
        return StoreChange(inserted: rows)
    }

    static func moveChange(_ itemIDs: [ItemID], to collection: CollectionID, at index: Int?, _ db: Database) throws
        -> StoreChange
    {
        guard try ShowcaseCollection.exists(db, key: collection) else {
            throw ShowcaseStoreError.noSuchCollection(collection)
        }
        var seen = Set<ItemID>()
        var sources: [ShowcaseItem] = []
        let rows = try ShowcaseItem.rows(itemIDs, db)
        for id in itemIDs {
            guard seen.insert(id).inserted else { throw ShowcaseStoreError.duplicateItem(id) }
            guard let row = rows[id] else { throw ShowcaseStoreError.noSuchItem(id) }
            sources.append(row)
        }
        let ranks = RankWriter(.standard, db)
        let alreadyHere = sources.filter { $0.collectionId == collection }
        let requested = try ranks.clamped(index, in: collection)
        // The index was counted with the dragged items still in place: those above it (ranked
        // before the item now at `requested`) leave. (Those below it are at most all the items
        // from `requested` on, so the dragged items start at most at the end of the others.)
        let boundary = try ranks.rows(collection, offset: requested, limit: 1).first?.rank
        let before = alreadyHere.filter { row in boundary.map { row.rank < $0 } ?? true }.count
        let start = requested - before
        // The sources' slots are the applier's to find (it realizes the change).
        let moves = sources.enumerated().map { offset, row in
            StoreChange.Move(
                item: row.id!, from: ItemSlot(collection: row.collectionId, position: 0),
                to: ItemSlot(collection: collection, position: start + offset))
        }
        return StoreChange(moved: moves)
    }

    private static func insertionStart(_ collection: CollectionID, _ index: Int?, _ db: Database) throws -> Int {
        guard try ShowcaseCollection.exists(db, key: collection) else {
            throw ShowcaseStoreError.noSuchCollection(collection)
        }
        return try RankWriter(.standard, db).clamped(index, in: collection)
    }

    // MARK: Transactions

    /// Builds a change from the current state and applies it, in ONE write transaction.
    func perform(_ build: (Database) throws -> StoreChange) throws(ShowcaseStoreError) -> StoreChange {
        let hook = hooks.withLock { $0.beforeCommit }
        var spreads = RankStatistics()
        let realized = try write { db in
            spreads = RankStatistics()  // (GRDB may run the block again)
            let change = try build(db)
            let realized = try ChangeApplier.apply(change, spacing: spacing, in: db, statistics: &spreads)
            hook?()
            return realized
        }
        statistics.withLock { $0 += spreads }
        return realized
    }

    func read<T>(_ body: (Database) throws -> T) throws(ShowcaseStoreError) -> T {
        do { return try database.read(body) } catch { throw ShowcaseStoreError.wrap(error) }
    }

    func write<T>(_ body: (Database) throws -> T) throws(ShowcaseStoreError) -> T {
        do { return try database.write(body) } catch { throw ShowcaseStoreError.wrap(error) }
    }

    func reportUndoFailure(_ error: any Error) {
        let failure = ShowcaseStoreError.wrap(error)
        let handler = hooks.withLock { hooks in
            hooks.lastUndoFailure = failure
            return hooks.onUndoFailure
        }
        handler?(failure)
    }

    private func edit(_ change: StoreChange, verb: String, kinds: [ItemKind?], ids: [ItemID]? = nil) -> StoreEdit {
        var kinds = kinds
        if let ids, let rows = try? read({ db in try ShowcaseItem.rows(ids, db) }) {
            kinds = ids.map { rows[$0]?.kind }
        }
        return StoreEdit(
            change: change, name: Self.actionName(verb, kinds.compactMap { $0 }),
            itemIDs: change.resultingItemIDs,
            action: undoableAction(for: change))
    }

    /// "Move Reminder", "Copy 3 Photos", "Delete 2 Items" (mixed kinds).
    static func actionName(_ verb: String, _ kinds: [ItemKind]) -> String {
        let kindSet = Set(kinds)
        let noun = kindSet.count == 1 ? kinds[0].noun : Noun("item")
        let capitalized = { (s: String) in s.prefix(1).uppercased() + s.dropFirst() }
        if kinds.count == 1 { return "\(verb) \(capitalized(noun.singular))" }
        return "\(verb) \(kinds.count) \(capitalized(noun.plural))"
    }
}

/// The latest realized change behind an undo action, and which side of it the document is on.
final class ChangeBox {
    var change: StoreChange
    var applied = true
    init(_ change: StoreChange) { self.change = change }
}
