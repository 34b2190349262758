import DragDrop
import DragDropGTK
import DragDropTesting
import Testing

/// `DragCollectionView.changes(from:to:)`: what an app works out off the main thread and hands
/// to `applyChanges(_:selecting:)`. No window needed: the changes are checked by replaying them
/// on the old identifiers.
@Suite("Collection changes: the splices from one list of items to another")
struct CollectionChangesTests {
    /// `old` with `changes` applied, the inserted items taken from `new` at their places.
    static func replay(_ changes: [DragCollectionView.Change], on old: [TargetID], new: [TargetID]) -> [TargetID]? {
        var items = old
        var end = 0
        for change in changes {
            guard change.index >= end, change.index + change.removed <= items.count else { return nil }
            let inserted = new[change.index..<(change.index + change.inserted)]
            items.replaceSubrange(change.index..<(change.index + change.removed), with: inserted)
            end = change.index + change.inserted
        }
        return items
    }

    static func ids(_ names: [Int]) -> [TargetID] { names.map { TargetID("item \($0)") } }

    @Test("F8, S4: an insertion, a removal and a move are one or two changes at their places; nothing changed is nothing")
    func smallChanges() {
        let old = Self.ids(Array(0..<10))
        #expect(DragCollectionView.changes(from: old, to: old).isEmpty)
        let inserted = Self.ids([0, 1, 2, 100, 101, 3, 4, 5, 6, 7, 8, 9])
        #expect(DragCollectionView.changes(from: old, to: inserted) == [.insert(2, at: 3)])
        let removed = Self.ids([0, 1, 2, 3, 6, 7, 8, 9])
        #expect(DragCollectionView.changes(from: old, to: removed) == [.remove(2, at: 4)])
        let moved = Self.ids([0, 1, 2, 3, 4, 5, 6, 7, 9, 8])
        let changes = DragCollectionView.changes(from: old, to: moved)
        #expect(changes.count <= 2)
        #expect(Self.replay(changes, on: old, new: moved) == moved)
        #expect(DragCollectionView.changes(from: [], to: old) == [.insert(10, at: 0)])
        #expect(DragCollectionView.changes(from: old, to: []) == [.remove(10, at: 0)])
    }

    @Test("F8, S4, U1: random edits of up to 2,000 items: the changes, replayed left to right, give the new list")
    func randomEdits() {
        var random = SeededRandom(seed: 12)
        for round in 0..<300 {
            let count = Int.random(in: 0...2_000, using: &random)
            var names = Array(0..<count)
            var next = count
            for _ in 0..<Int.random(in: 0...12, using: &random) {
                switch Int.random(in: 0..<4, using: &random) {
                case 0:
                    let k = Int.random(in: 1...50, using: &random)
                    names.insert(contentsOf: (next..<(next + k)), at: Int.random(in: 0...names.count, using: &random))
                    next += k
                case 1 where !names.isEmpty:
                    let at = Int.random(in: 0..<names.count, using: &random)
                    names.removeSubrange(at..<min(names.count, at + Int.random(in: 1...50, using: &random)))
                case 2 where names.count > 1:
                    let item = names.remove(at: Int.random(in: 0..<names.count, using: &random))
                    names.insert(item, at: Int.random(in: 0...names.count, using: &random))
                default:
                    names.shuffle(using: &random)
                }
            }
            let old = Self.ids(Array(0..<count))
            let new = Self.ids(names)
            let changes = DragCollectionView.changes(from: old, to: new)
            #expect(Self.replay(changes, on: old, new: new) == new, "round \(round): \(changes)")
            #expect(changes.count <= 25, "round \(round): \(changes.count) changes")
        }
    }
}
