import DragDrop
import Foundation
import ShowcaseModel
import Testing

/// A temporary directory, removed when the value is released.
final class TemporaryDirectory: Sendable {
    let url: URL
    var path: String { url.path }

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("ShowcaseModelTests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    func file(_ name: String) -> URL { url.appendingPathComponent(name) }
}

/// A store on disk in a temporary directory, with two reminder-like lists:
/// `a` = [a0, a1, a2, a3, a4] and `b` = [b0, b1, b2], plus a read-only list `ro` = [r0].
struct Fixture {
    let directory: TemporaryDirectory
    let store: ShowcaseStore
    let a: CollectionID
    let b: CollectionID
    let readOnly: CollectionID

    init(seed: Bool = false) throws {
        directory = try TemporaryDirectory()
        store = try ShowcaseStore(path: directory.file("showcase.sqlite").path, seed: seed)
        a = try store.createCollection(ShowcaseCollection(pane: .reminders, key: "a", name: "A", kind: .list)).id!
        b = try store.createCollection(ShowcaseCollection(pane: .reminders, key: "b", name: "B", kind: .list)).id!
        readOnly = try store.createCollection(
            ShowcaseCollection(pane: .reminders, key: "ro", name: "Read Only", kind: .list, flags: .readOnly)
        ).id!
        _ = try store.insert((0..<5).map { NewItem(title: "a\($0)", kind: .reminder) }, into: a)
        _ = try store.insert((0..<3).map { NewItem(title: "b\($0)", kind: .reminder) }, into: b)
        // Read-only collections refuse inserts through the store; seed it directly.
        try store.database.write { db in
            var row = ShowcaseItem(collectionId: readOnly, rank: 0, title: "r0", kind: .reminder)
            try row.insert(db)
        }
    }

    /// Titles of a collection, in order.
    func titles(_ collection: CollectionID) throws -> [String] { try store.items(in: collection).map(\.title) }

    /// The id of the item titled `title`.
    func id(_ title: String) throws -> ItemID {
        try store.database.read { db in
            try ItemID.fetchOne(db, sql: "SELECT id FROM item WHERE title = ?", arguments: [title])!
        }
    }

    /// Every row of the fixture's collections, exactly (ids, positions, content, dates).
    func snapshot() throws -> [[ShowcaseItem]] { try [a, b, readOnly].map { try store.items(in: $0) } }
}
