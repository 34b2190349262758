import Foundation
import GRDB
import ShowcaseModel
import Testing

/// "If the app is killed in the middle of a move, on restart the item is in exactly one place."
/// A child process (showcase-store-crash-helper) runs the move and is killed with SIGKILL inside
/// its transaction, or right after the commit; the test then reopens the database as the app
/// would on restart.
@Suite("Showcase store crash safety")
struct CrashTests {
    @Test("S4: killed inside a move's transaction, the item is in exactly one place: its source")
    func killedInsideTransaction() throws {
        let f = try Fixture()
        let before = try f.snapshot()
        let item = try f.id("a2")
        let output = try runHelperAndKill(f, mode: "inside", item: item, to: f.b, index: 1)
        #expect(output == "inside transaction")
        // The store logs ahead (WAL): the killed process left its log behind, uncommitted.
        #expect(FileManager.default.fileExists(atPath: f.directory.file("showcase.sqlite-wal").path))

        let restarted = try ShowcaseStore(path: f.directory.file("showcase.sqlite").path, seed: false)
        #expect(try restarted.integrityProblems().isEmpty)
        let integrity = try restarted.database.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
        #expect(integrity == ["ok"])
        #expect(try places(of: "a2", in: restarted) == [ItemSlot(collection: f.a, position: 2)])
        #expect(try [f.a, f.b, f.readOnly].map { try restarted.items(in: $0) } == before)
    }

    @Test("S4: killed right after a move's commit, the item is in exactly one place: its destination")
    func killedAfterCommit() throws {
        let f = try Fixture()
        let item = try f.id("a2")
        let output = try runHelperAndKill(f, mode: "after", item: item, to: f.b, index: 1)
        #expect(output == "committed")

        let restarted = try ShowcaseStore(path: f.directory.file("showcase.sqlite").path, seed: false)
        #expect(try restarted.integrityProblems().isEmpty)
        #expect(try places(of: "a2", in: restarted) == [ItemSlot(collection: f.b, position: 1)])
        #expect(try restarted.items(in: f.a).map(\.title) == ["a0", "a1", "a3", "a4"])
        #expect(try restarted.items(in: f.b).map(\.title) == ["b0", "a2", "b1", "b2"])
    }

    /// Every slot holding an item titled `title`.
    private func places(of title: String, in store: ShowcaseStore) throws -> [ItemSlot] {
        try store.database.read { db in
            try ItemID.fetchAll(db, sql: "SELECT id FROM item WHERE title = ?", arguments: [title])
        }.compactMap { try store.slot(of: $0) }
    }

    /// Starts the helper, waits (at most 20 s) for its first line, kills it with SIGKILL, waits
    /// for it to end, and returns the line.
    private func runHelperAndKill(_ f: Fixture, mode: String, item: ItemID, to collection: CollectionID, index: Int)
        throws -> String
    {
        let helper = try HelperProcess([f.directory.file("showcase.sqlite").path, mode, "\(item)", "\(collection)", "\(index)"])
        guard let line = try helper.nextLine() else { throw HelperProcess.HelperError.endedEarly("") }
        #expect(helper.kill(), "the helper was not ended by SIGKILL")
        return line
    }
}
