import DragDrop
import Foundation
import GRDB
@testable import ShowcaseModel
import Testing

/// Collections inside collections (issue 23: Mail's nested mailboxes): the store keeps each
/// collection's parent and place; an arrangement is one transaction, undone exactly; a
/// collection never ends up inside itself; a database from before parents opens with every
/// collection at the top level, in its order.
@Suite("Showcase store, nested mailboxes")
struct MailboxTreeTests {
    /// The mail pane's outline as names, two spaces a level.
    static func outline(_ store: ShowcaseStore) throws -> [String] {
        let collections = try store.collections(in: .mail)
        let children = Dictionary(grouping: collections, by: \.parentId)
        func walk(_ parent: CollectionID?, _ indent: String) -> [String] {
            (children[parent] ?? []).flatMap { [indent + $0.name] + walk($0.id, indent + "  ") }
        }
        return walk(nil, "")
    }

    static func id(_ store: ShowcaseStore, _ key: String) throws -> CollectionID {
        try #require(try store.collection(pane: .mail, key: key)?.id)
    }

    static let seeded = ["Inbox", "Archive", "Sent", "Drafts", "Work", "  Projects", "    2026", "  Receipts"]

    @Test("T1: the seed nests Work ▸ Projects ▸ 2026 and Work ▸ Receipts; the other mailboxes are at the top level")
    func seedNests() throws {
        let fixture = try Fixture(seed: true)
        #expect(try Self.outline(fixture.store) == Self.seeded)
        #expect(try fixture.store.items(in: try Self.id(fixture.store, "2026")).map(\.title) == ["Kick-off agenda"])
    }

    @Test(
        "T1, T6: an arrangement puts mailboxes under new parents in one transaction and returns where they were; its undo restores every parent and place exactly, and redo the arrangement"
    )
    func arrangeAndUndo() throws {
        let store = try Fixture(seed: true).store
        let before = try store.places(in: .mail)
        let receipts = try Self.id(store, "receipts")
        let archive = try Self.id(store, "archive")
        // Receipts into Archive: the outline's order read top to bottom.
        var after = before.filter { $0.id != receipts }
        let at = try #require(after.firstIndex { $0.id == archive }) + 1
        after.insert(CollectionPlace(id: receipts, parent: archive, position: 0), at: at)
        after = after.enumerated().map { CollectionPlace(id: $1.id, parent: $1.parent, position: $0) }
        let returned = try store.arrange(after)
        #expect(Set(returned) == Set(before))
        #expect(
            try Self.outline(store) == [
                "Inbox", "Archive", "  Receipts", "Sent", "Drafts", "Work", "  Projects", "    2026",
            ])
        let step = store.undoableArrangement(from: returned, to: after)
        step.undo()
        #expect(try store.places(in: .mail) == before)
        #expect(try Self.outline(store) == Self.seeded)
        step.redo()
        #expect(try store.places(in: .mail) == after)
        #expect(try store.integrityProblems().isEmpty)
    }

    @Test(
        "T3: a mailbox put inside its own sub-mailbox, under a collection of another pane or an unknown one is refused with a typed error, and nothing changes"
    )
    func refusalsChangeNothing() throws {
        let fixture = try Fixture(seed: true)
        let store = fixture.store
        let before = try store.places(in: .mail)
        let work = try Self.id(store, "work")
        let year = try Self.id(store, "2026")
        let place = try #require(before.first { $0.id == work })
        #expect(throws: ShowcaseStoreError.insideItself(collection: "Work")) {
            try store.arrange([CollectionPlace(id: work, parent: year, position: place.position)])
        }
        #expect(throws: ShowcaseStoreError.insideItself(collection: "Work")) {
            try store.arrange([CollectionPlace(id: work, parent: fixture.a, position: place.position)])
        }
        #expect(throws: ShowcaseStoreError.noSuchCollection(999_999)) {
            try store.arrange([CollectionPlace(id: work, parent: 999_999, position: place.position)])
        }
        #expect(ShowcaseStoreError.insideItself(collection: "Work").description == "Work cannot go inside itself.")
        #expect(try store.places(in: .mail) == before)
    }

    @Test(
        "A database from before collections had parents (v3) opens migrated: every collection at the top level in its order, its items kept; mailboxes can then be nested"
    )
    func migratesFromV3() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("showcase.sqlite").path
        do {
            let queue = try DatabaseQueue(path: path)
            try ShowcaseStore.migrator.migrate(queue, upTo: "v3-sparse-ranks")
            try queue.write { db in
                for (position, name) in ["Inbox", "Archive", "Sent"].enumerated() {
                    try db.execute(
                        sql:
                            "INSERT INTO collection (pane, key, name, kind, flags, position) VALUES (?, ?, ?, ?, 0, ?)",
                        arguments: [ShowcasePane.mail.rawValue, name.lowercased(), name, "mailbox", position])
                }
                try db.execute(
                    sql: """
                        INSERT INTO item (collectionId, rank, title, kind, created)
                        SELECT id, 0, 'Hello', 'message', '2026-01-01 00:00:00' FROM collection WHERE key = 'inbox'
                        """)
            }
        }
        let store = try ShowcaseStore(path: path, seed: false)
        #expect(try Self.outline(store) == ["Inbox", "Archive", "Sent"])
        let inbox = try Self.id(store, "inbox")
        #expect(try store.items(in: inbox).map(\.title) == ["Hello"])
        var places = try store.places(in: .mail)
        #expect(places[1].id == (try Self.id(store, "archive")))
        places[1].parent = inbox
        try store.arrange(places)
        #expect(try Self.outline(store) == ["Inbox", "  Archive", "Sent"])
    }
}
