import DragDrop
import DragDropTesting
import Testing

@testable import DragDropGTK

/// `DragCollectionView.Lag`: a big insertion or removal shown to GTK a slice a frame. No window
/// needed: the steps are replayed on a list of identifiers, and after every step every row
/// shown must be the data source's item at the data index the view reads for it (what binds
/// the rows GTK keeps), the shown items must keep their order, and the change must end.
@Suite("Collection publishing: big changes shown a slice a frame")
struct CollectionPublishingTests {
    typealias Lag = DragCollectionView.Lag
    static let slice = DragCollectionView.sliceRows
    static let kept = DragCollectionView.keptRows

    /// Replays `lag` step by step on `shown`, the rows GTK has (`data`: the data source's items
    /// after the change), checking the mapping after each step; returns the slice sizes.
    static func replay(_ start: Lag, shown: inout [String], data: [String]) -> [Int] {
        var lag: Lag? = start
        var sizes: [Int] = []
        while let current = lag, sizes.count <= data.count + 1 {
            let (slice, after) = current.next(all: false)
            switch slice {
            case .insert(let items, let at):
                shown.insert(contentsOf: items.map { data[$0] }, at: at)
                sizes.append(items.count)
            case .remove(let rows):
                shown.removeSubrange(rows)
                sizes.append(rows.count)
            }
            lag = after
            guard let lag else { break }
            for (position, id) in shown.enumerated() {
                if let index = lag.dataIndex(ofPosition: position) {
                    #expect(data[index] == id, "position \(position) reads \(data[index]), shows \(id)")
                    #expect(lag.position(ofDataIndex: index) == position)
                } else {
                    #expect(!data.contains(id), "a row without a data index shows \(id), still there")
                }
            }
        }
        return sizes
    }

    @Test("A4, S4: 10,000 items inserted above 6: shown from both ends 48 a frame, then the middle at once, every row reading its own item")
    func insertionAtTheTop() {
        let old = (0..<6).map { "old \($0)" }
        let new = (0..<10_000).map { "new \($0)" }
        var shown = old
        let sizes = Self.replay(.inserting(at: 0, count: new.count, front: 0, back: 0), shown: &shown, data: new + old)
        #expect(shown == new + old)
        #expect(sizes.dropLast().allSatisfy { $0 <= Self.slice })
        let most = 2 * (Self.kept / Self.slice + 1) + 1
        #expect(sizes.count <= most, "\(sizes)")
    }

    @Test("A4, S4, U1: random insertions and removals of 49 to 5,000 items in lists of up to 1,500: each step keeps every shown row on its item, and the list ends as the data source's")
    func randomChanges() {
        var random = SeededRandom(seed: 26)
        for _ in 0..<60 {
            let old = (0..<Int.random(in: 0...1_500, using: &random)).map { "old \($0)" }
            if Bool.random(using: &random) || old.count <= Self.slice {
                let count = Int.random(in: (Self.slice + 1)...5_000, using: &random)
                let at = Int.random(in: 0...old.count, using: &random)
                let data = Array(old[..<at]) + (0..<count).map { "new \($0)" } + Array(old[at...])
                var shown = old
                let sizes = Self.replay(.inserting(at: at, count: count, front: 0, back: 0), shown: &shown, data: data)
                #expect(shown == data)
                #expect(sizes.reduce(0, +) == count)
                #expect(sizes.dropLast().allSatisfy { $0 <= Self.slice })
            } else {
                let at = Int.random(in: 0..<(old.count - Self.slice), using: &random)
                let left = Int.random(in: (Self.slice + 1)...(old.count - at), using: &random)
                let data = Array(old[..<at]) + Array(old[(at + left)...])
                var shown = old
                let sizes = Self.replay(.removing(at: at, left: left), shown: &shown, data: data)
                #expect(shown == data)
                #expect(sizes.allSatisfy { $0 <= Self.slice })
            }
        }
    }

    @Test("A4: 100,000 items into an empty view: the first rows shown are the first items (GTK anchors the view to them), and the last step takes all after the first 288")
    func intoAnEmptyView() {
        let new = (0..<100_000).map { "new \($0)" }
        var shown: [String] = []
        let first = DragCollectionView.Lag.inserting(at: 0, count: new.count, front: 0, back: Self.kept).next(all: false)
        #expect(first.slice == .insert(items: 0..<Self.slice, at: 0))
        let sizes = Self.replay(.inserting(at: 0, count: new.count, front: 0, back: Self.kept), shown: &shown, data: new)
        #expect(shown == new)
        #expect(sizes.count == Self.kept / Self.slice + 2, "\(sizes)")
    }

    @Test("S4: the rest of a change shown at once (another change, a drop, a selection) leaves the data source's list")
    func restAtOnce() {
        let old = (0..<300).map { "old \($0)" }
        let new = (0..<1_000).map { "new \($0)" }
        let data = Array(old[..<100]) + new + Array(old[100...])
        var shown = old
        var lag = Lag.inserting(at: 100, count: new.count, front: 0, back: 0)
        for _ in 0..<3 {
            let (slice, after) = lag.next(all: false)
            if case .insert(let items, let at) = slice { shown.insert(contentsOf: items.map { data[$0] }, at: at) }
            lag = after!
        }
        let (slice, after) = lag.next(all: true)
        if case .insert(let items, let at) = slice { shown.insert(contentsOf: items.map { data[$0] }, at: at) }
        #expect(after == nil)
        #expect(shown == data)
        let removal = Lag.removing(at: 10, left: 200).next(all: true)
        #expect(removal.slice == .remove(rows: 10..<210))
        #expect(removal.after == nil)
    }
}
