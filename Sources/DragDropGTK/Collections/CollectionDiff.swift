import DragDrop

/// The changes that turn one list of unique identifiers into another, as a few splices: what a
/// virtualized list tells GTK (`items-changed`) after its model changed, so only the rows that
/// changed are rebuilt and the rows on screen stay where they are (a deletion far above does
/// not scroll the list to its top).
///
/// Common ends are trimmed; in the middle, the identifiers present on both sides that keep
/// their relative order (a longest increasing subsequence) stay, and everything between two of
/// them is one splice. A reorder of one item is a removal and an insertion. When the middle
/// would need more than ``maximumSplices`` splices, it is replaced in one.
///
/// Cost: O(n) for the ends, O(m log m) for a middle of m identifiers.
struct CollectionDiff {
    /// Replace `removed` identifiers at `position` with the new list's identifiers at `added`
    /// (positions in the list as it is after the splices before this one).
    struct Splice: Equatable {
        var position: Int
        var removed: Int
        var added: Range<Int>
    }

    /// More splices than this become one (each costs GTK a pass over its row widgets).
    static let maximumSplices = 24

    /// The splices from `old` to `new`, left to right. Identifiers must be unique on each side.
    static func splices<ID: Hashable>(from old: [ID], to new: [ID]) -> [Splice] {
        var prefix = 0
        let shorter = min(old.count, new.count)
        while prefix < shorter, old[prefix] == new[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < shorter - prefix, old[old.count - 1 - suffix] == new[new.count - 1 - suffix] { suffix += 1 }
        let oldMiddle = old[prefix..<(old.count - suffix)]
        let newMiddle = new[prefix..<(new.count - suffix)]
        if oldMiddle.isEmpty && newMiddle.isEmpty { return [] }
        let whole = [Splice(position: prefix, removed: oldMiddle.count, added: newMiddle.indices)]
        if oldMiddle.isEmpty || newMiddle.isEmpty { return whole }

        // Identifiers on both sides, as (old index, new index) in old order.
        var newIndex: [ID: Int] = [:]
        newIndex.reserveCapacity(newMiddle.count)
        for i in newMiddle.indices { newIndex[newMiddle[i]] = i }
        var pairs: [(old: Int, new: Int)] = []
        for i in oldMiddle.indices { if let j = newIndex[oldMiddle[i]] { pairs.append((i, j)) } }
        let kept = longestIncreasing(pairs)

        var splices: [Splice] = []
        var oldStart = oldMiddle.startIndex
        var newStart = newMiddle.startIndex
        for pair in kept + [(oldMiddle.endIndex, newMiddle.endIndex)] {
            let removed = pair.old - oldStart
            let added = newStart..<pair.new
            if removed > 0 || !added.isEmpty {
                splices.append(Splice(position: newStart, removed: removed, added: added))
                if splices.count > maximumSplices { return whole }
            }
            oldStart = pair.old + 1
            newStart = pair.new + 1
        }
        return splices
    }

    /// The longest subsequence of `pairs` (in old order) whose new indexes increase: the items
    /// that keep their places relative to each other. Patience sorting, O(m log m).
    private static func longestIncreasing(_ pairs: [(old: Int, new: Int)]) -> [(old: Int, new: Int)] {
        guard !pairs.isEmpty else { return [] }
        var tails: [Int] = []  // indexes into pairs: the smallest tail of each run length
        var previous = [Int](repeating: -1, count: pairs.count)
        for (i, pair) in pairs.enumerated() {
            var low = 0
            var high = tails.count
            while low < high {
                let mid = (low + high) / 2
                if pairs[tails[mid]].new < pair.new { low = mid + 1 } else { high = mid }
            }
            if low > 0 { previous[i] = tails[low - 1] }
            if low == tails.count { tails.append(i) } else { tails[low] = i }
        }
        var result: [(old: Int, new: Int)] = []
        var k = tails.last ?? -1
        while k >= 0 {
            result.append(pairs[k])
            k = previous[k]
        }
        return result.reversed()
    }
}
