import DragDrop
import Foundation
import GRDB
@testable import ShowcaseModel
import Synchronization
import Testing

@Suite("Showcase store")
struct StoreTests {
    @Test("Seed data: every pane has collections, inserted once")
    func seedOnce() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("showcase.sqlite").path
        let store = try ShowcaseStore(path: path)
        for pane in ShowcasePane.allCases {
            #expect(try !store.collections(in: pane).isEmpty, "\(pane) has no collections")
        }
        let groceries = try #require(try store.collection(pane: .reminders, key: "groceries"))
        #expect(try store.items(in: groceries.id!).map(\.title).prefix(2) == ["Oat milk", "Lemons"])
        let dropBox = try #require(try store.collection(pane: .files, key: "Drop Box"))
        #expect(dropBox.requiresConfirmation)
        #expect(try store.collection(pane: .photos, key: "family-stream")?.flags.contains(.shared) == true)
        let count = try store.database.read { db in try ShowcaseItem.fetchCount(db) }
        #expect(try store.integrityProblems().isEmpty)

        // Opening again does not seed again.
        let reopened = try ShowcaseStore(path: path)
        #expect(try reopened.database.read { db in try ShowcaseItem.fetchCount(db) } == count)
        #expect(try reopened.collections(in: .reminders).count == 3)
    }

    @Test("Default path follows XDG_DATA_HOME, else ~/.local/share")
    func defaultPaths() {
        #expect(
            ShowcasePaths.databaseFile(environment: ["XDG_DATA_HOME": "/x/data", "HOME": "/home/sam"]).path
                == "/x/data/DragDropShowcase/showcase.sqlite")
        #expect(
            ShowcasePaths.databaseFile(environment: ["XDG_DATA_HOME": "relative", "HOME": "/home/sam"]).path
                == "/home/sam/.local/share/DragDropShowcase/showcase.sqlite")
        #expect(ShowcasePaths.filesRoot(environment: ["HOME": "/home/sam"]).path == "/home/sam/.local/share/DragDropShowcase/Files")
    }

    @Test("A home-screen folder icon opens its folder's collection")
    func folderIcon() throws {
        let store = try ShowcaseStore(inMemorySeeded: true)
        let page = try #require(try store.collection(pane: .homeScreen, key: "page-1"))
        let icon = try #require(try store.items(in: page.id!).first { $0.kind == .folder })
        let target = try #require(try store.dropCollection(for: icon.targetID))
        #expect(target.0 == (try store.collection(pane: .homeScreen, key: "folder-utilities"))?.id)
        #expect(target.usesIndex == false)
    }

    // MARK: Operations and U1

    @Test("U1: a move between collections renumbers both; undo restores exact positions; redo repeats it")
    func moveBetweenCollections() throws {
        let f = try Fixture()
        let before = try f.snapshot()
        let edit = try f.store.move([f.id("a1"), f.id("a3")], to: f.b, at: 1)
        #expect(edit.name == "Move 2 Reminders")
        #expect(try f.titles(f.a) == ["a0", "a2", "a4"])
        #expect(try f.titles(f.b) == ["b0", "a1", "a3", "b1", "b2"])
        #expect(try f.store.integrityProblems().isEmpty)
        let after = try f.snapshot()

        edit.action.undo()
        #expect(try f.snapshot() == before)
        edit.action.redo()
        #expect(try f.snapshot() == after)
        edit.action.undo()
        #expect(try f.snapshot() == before)
        #expect(try f.store.integrityProblems().isEmpty)
    }

    @Test("U1: a reorder counts the index with the dragged items in place; undo restores it exactly")
    func reorder() throws {
        let f = try Fixture()
        let before = try f.snapshot()
        // [a0 a1 a2 a3 a4]: dropping a0 between a2 and a3 (index 3) gives [a1 a2 a0 a3 a4].
        let edit = try f.store.move([f.id("a0")], to: f.a, at: 3)
        #expect(try f.titles(f.a) == ["a1", "a2", "a0", "a3", "a4"])
        let after = try f.snapshot()
        // Several scattered items to the end, and to the top.
        let toEnd = try f.store.move([f.id("a1"), f.id("a3")], to: f.a, at: nil)
        #expect(try f.titles(f.a) == ["a2", "a0", "a4", "a1", "a3"])
        let toTop = try f.store.move([f.id("a4"), f.id("a2")], to: f.a, at: 0)
        #expect(try f.titles(f.a) == ["a4", "a2", "a0", "a1", "a3"])
        toTop.action.undo()
        #expect(try f.titles(f.a) == ["a2", "a0", "a4", "a1", "a3"])
        toEnd.action.undo()
        #expect(try f.snapshot() == after)
        edit.action.undo()
        #expect(try f.snapshot() == before)
        edit.action.redo()
        #expect(try f.snapshot() == after)
        #expect(try f.store.integrityProblems().isEmpty)
    }

    @Test("U1: a copy gets new ids; undo removes the copies; redo brings back the same ids and places")
    func copy() throws {
        let f = try Fixture()
        let before = try f.snapshot()
        let edit = try f.store.copy([f.id("a0"), f.id("a4")], to: f.b, at: 2)
        #expect(edit.name == "Copy 2 Reminders")
        #expect(try f.titles(f.b) == ["b0", "b1", "a0", "a4", "b2"])
        #expect(try f.titles(f.a) == ["a0", "a1", "a2", "a3", "a4"])
        #expect(Set(edit.itemIDs).isDisjoint(with: [try f.id("a0")]))
        #expect(edit.itemIDs.count == 2)
        let after = try f.snapshot()
        edit.action.undo()
        #expect(try f.snapshot() == before)
        edit.action.redo()
        #expect(try f.snapshot() == after)
        #expect(try f.store.items(in: f.b).map(\.id)[2...3].elementsEqual(edit.itemIDs.map(Optional.some)))
    }

    @Test("U1: a copy within one collection lands at the index as seen")
    func copyWithin() throws {
        let f = try Fixture()
        let edit = try f.store.copy([f.id("a1")], to: f.a, at: 0)
        #expect(try f.titles(f.a) == ["a1", "a0", "a1", "a2", "a3", "a4"])
        edit.action.undo()
        #expect(try f.titles(f.a) == ["a0", "a1", "a2", "a3", "a4"])
    }

    @Test("U1: remove and undo put the same rows back at their exact positions")
    func remove() throws {
        let f = try Fixture()
        let before = try f.snapshot()
        let edit = try f.store.remove([f.id("a3"), f.id("b0"), f.id("a0")])
        #expect(edit.name == "Delete 3 Reminders")
        #expect(try f.titles(f.a) == ["a1", "a2", "a4"])
        #expect(try f.titles(f.b) == ["b1", "b2"])
        let after = try f.snapshot()
        edit.action.undo()
        #expect(try f.snapshot() == before)
        edit.action.redo()
        #expect(try f.snapshot() == after)
        edit.action.undo()
        #expect(try f.snapshot() == before)
    }

    @Test("U1: insert at an index; undo and redo")
    func insert() throws {
        let f = try Fixture()
        let before = try f.snapshot()
        let edit = try f.store.insert([NewItem(title: "n0", kind: .note), NewItem(title: "n1", kind: .note)], into: f.b, at: 1)
        #expect(edit.name == "Add 2 Notes")
        #expect(try f.titles(f.b) == ["b0", "n0", "n1", "b1", "b2"])
        let after = try f.snapshot()
        edit.action.undo()
        #expect(try f.snapshot() == before)
        edit.action.redo()
        #expect(try f.snapshot() == after)
    }

    @Test("U1: several steps undone in reverse order and redone in order, through an UndoStack")
    func undoStackSequence() throws {
        let f = try Fixture()
        let stack = UndoStack()
        var states = [try f.snapshot()]
        let steps: [() throws -> StoreEdit] = [
            { try f.store.move([f.id("a0"), f.id("a2")], to: f.b, at: 3) },
            { try f.store.copy([f.id("b1")], to: f.a, at: 0) },
            { try f.store.move([f.id("b0")], to: f.b, at: 5) },
            { try f.store.remove([f.id("a4")]) },
            { try f.store.move([f.id("a2"), f.id("a1")], to: f.a, at: 1) },
        ]
        for step in steps {
            let edit = try step()
            stack.register(edit.action)
            stack.setActionName(edit.name)
            states.append(try f.snapshot())
            #expect(try f.store.integrityProblems().isEmpty)
        }
        for expected in states.dropLast().reversed() {
            stack.undo()
            #expect(try f.snapshot() == expected)
        }
        for expected in states.dropFirst() {
            stack.redo()
            #expect(try f.snapshot() == expected)
        }
        #expect(try f.store.integrityProblems().isEmpty)
    }

    // MARK: S4 / A6: failures change nothing

    @Test("S4, A6: an operation naming a missing item changes nothing")
    func missingItemChangesNothing() throws {
        let f = try Fixture()
        let before = try f.snapshot()
        #expect(throws: ShowcaseStoreError.noSuchItem(9999)) { try f.store.move([f.id("a0"), 9999], to: f.b, at: 0) }
        #expect(throws: ShowcaseStoreError.noSuchItem(9999)) { try f.store.copy([f.id("a0"), 9999], to: f.b) }
        #expect(throws: ShowcaseStoreError.noSuchItem(9999)) { try f.store.remove([f.id("a0"), 9999]) }
        #expect(throws: ShowcaseStoreError.noSuchCollection(9999)) { try f.store.move([f.id("a0")], to: 9999) }
        #expect(throws: ShowcaseStoreError.duplicateItem(try f.id("a0"))) {
            try f.store.move([f.id("a0"), f.id("a0")], to: f.b)
        }
        #expect(try f.snapshot() == before)
    }

    @Test("S4, A6: read-only collections take nothing and give nothing up")
    func readOnly() throws {
        let f = try Fixture()
        let before = try f.snapshot()
        #expect(throws: ShowcaseStoreError.readOnly(collection: "Read Only")) { try f.store.move([f.id("a0")], to: f.readOnly) }
        #expect(throws: ShowcaseStoreError.readOnly(collection: "Read Only")) { try f.store.move([f.id("r0")], to: f.a) }
        #expect(throws: ShowcaseStoreError.readOnly(collection: "Read Only")) { try f.store.remove([f.id("r0")]) }
        #expect(throws: ShowcaseStoreError.readOnly(collection: "Read Only")) {
            try f.store.insert([NewItem(title: "x", kind: .reminder)], into: f.readOnly)
        }
        // Copying out of a read-only collection is fine.
        let copy = try f.store.copy([f.id("r0")], to: f.a, at: 0)
        #expect(try f.titles(f.a).first == "r0")
        copy.action.undo()
        #expect(try f.snapshot() == before)
    }

    @Test("U2: nothing leaves a write-only collection: no move, copy or removal, and no undo of an earlier step")
    func writeOnlyKeepsWhatItTook() throws {
        let f = try Fixture()
        let dropBox = try f.store.createCollection(
            ShowcaseCollection(pane: .files, key: "drop", name: "Drop Box", kind: .folder, flags: .writeOnly)
        ).id!
        let failures = Failures()
        f.store.onUndoFailure = { failures.append($0) }
        // a0 moves to B (undoable), then is dropped into the drop box (confirmed, no undo).
        let earlier = try f.store.move([f.id("a0")], to: f.b, at: 0)
        let drop = f.store.performDrop(.move, of: [try f.id("a0")], on: ShowcaseTargets.collection(dropBox), at: nil, newItems: [])
        guard case .committed(undo: nil, cancellation: nil) = drop else {
            Issue.record("the drop into the drop box should commit with no undo, got \(drop)")
            return
        }
        let before = try f.snapshot()
        let boxed = try f.store.itemIDs(in: dropBox)
        let refusal = ShowcaseStoreError.writeOnly(collection: "Drop Box")
        #expect(throws: refusal) { try f.store.move(boxed, to: f.a) }
        #expect(throws: refusal) { try f.store.copy(boxed, to: f.a) }
        #expect(throws: refusal) { try f.store.remove(boxed) }
        // Undoing the earlier move would take a0 back out of the drop box: refused, reported.
        earlier.action.undo()
        #expect(failures.all == [refusal])
        #expect(try f.snapshot() == before)
        #expect(try f.store.itemIDs(in: dropBox) == boxed)
        #expect(refusal.description == "Drop Box is write-only: nothing can be taken out of it.")
    }

    @Test("S4, A6: a failure inside the transaction, after rows were written, rolls everything back")
    func failureMidTransaction() throws {
        let f = try Fixture()
        let before = try f.snapshot()
        // A trigger that fails the transaction when a1, the second item, lands in B, i.e.
        // after the first rows of the move have been written.
        let a1 = try f.id("a1")
        try f.store.database.write { db in
            try db.execute(
                sql: """
                    CREATE TEMP TRIGGER refuse AFTER UPDATE OF collectionId, rank ON item
                    WHEN NEW.collectionId = \(f.b) AND NEW.id = \(a1)
                    BEGIN SELECT RAISE(ABORT, 'disk full (simulated)'); END
                    """)
        }
        #expect(throws: ShowcaseStoreError.self) { try f.store.move([f.id("a0"), f.id("a1")], to: f.b, at: 3) }
        #expect(try f.snapshot() == before)
        #expect(try f.store.integrityProblems().isEmpty)
    }

    @Test("U1, A6: an undo whose items are gone fails, changes nothing, reports it, and redo does not double-apply")
    func undoAfterOutsideChange() throws {
        let f = try Fixture()
        let failures = Failures()
        f.store.onUndoFailure = { failures.append($0) }
        let copy = try f.store.copy([f.id("a0")], to: f.b, at: 0)
        let copyID = try #require(copy.itemIDs.first)
        // The copy disappears outside the undo stack.
        _ = try f.store.remove([copyID])
        let before = try f.snapshot()
        copy.action.undo()
        #expect(try f.snapshot() == before)
        #expect(failures.all == [.noSuchItem(copyID)])
        #expect(f.store.lastUndoFailure == .noSuchItem(copyID))
        copy.action.redo()  // the document is still on the "applied" side: nothing to redo
        #expect(try f.snapshot() == before)
    }
}

/// Collects undo failures reported from the store.
final class Failures: Sendable {
    private let list = Mutex<[ShowcaseStoreError]>([])
    func append(_ error: ShowcaseStoreError) { list.withLock { $0.append(error) } }
    var all: [ShowcaseStoreError] { list.withLock { $0 } }
}

@Suite("Showcase store, random operations")
struct RandomOperationTests {
    @Test("U1: 60 random moves, reorders, copies, inserts and removals undo to every earlier state exactly, and redo", arguments: [1, 2, 3] as [UInt64])
    func randomSequence(seed: UInt64) throws {
        var random = SplitMix(state: seed)
        let f = try Fixture()
        let collections = [f.a, f.b]
        let stack = UndoStack()
        var states = [try f.snapshot()]
        for step in 0..<60 {
            let all = try collections.flatMap { try f.store.itemIDs(in: $0) }
            let target = collections.randomElement(using: &random)!
            let count = try f.store.itemIDs(in: target).count
            let index = Int.random(in: 0...(count + 1), using: &random)  // past the end too
            let picked = Array(all.shuffled(using: &random).prefix(Int.random(in: 1...3, using: &random)))
            let edit: StoreEdit
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<5: edit = try f.store.move(picked, to: target, at: index)
            case 5..<7: edit = try f.store.copy(picked, to: target, at: index)
            case 7..<8 where all.count > 4: edit = try f.store.remove(picked)
            default: edit = try f.store.insert([NewItem(title: "new \(step)", kind: .reminder)], into: target, at: index)
            }
            stack.register(edit.action)
            states.append(try f.snapshot())
            let problems = try f.store.integrityProblems()
            #expect(problems.isEmpty, "step \(step): \(problems)")
        }
        for expected in states.dropLast().reversed() {
            stack.undo()
            #expect(try f.snapshot() == expected)
        }
        for expected in states.dropFirst() {
            stack.redo()
            #expect(try f.snapshot() == expected)
        }
    }
}
