/// Finds which registered frames contain a point: a hierarchical ("multi-level") uniform grid.
///
/// ## Design
///
/// Level `L` is a uniform grid of square cells of side `baseCellSize * 2^L` (levels
/// `0..<levelCount`). An entry goes into the lowest level whose cell side is at least
/// `max(width, height)` of its frame, so it overlaps at most 2 x 2 cells there, and it is stored
/// (id and frame, inline) in every cell it overlaps. Nested targets of very different sizes (a
/// window, a board, its columns, their cards) therefore each land on a level that suits them,
/// and no cell is flooded by one huge frame repeated everywhere.
///
/// Cells are found through one `Dictionary` keyed by a packed `UInt64` (level, cell x, cell y;
/// cell coordinates are clamped to +/-2^28, which keeps the mapping monotonic, so clamped cells
/// merely get shared) whose values are the buckets themselves: `ContiguousArray`s of inline
/// `(id, frame)` entries, one hop from the hash table. Emptied buckets keep their capacity on a
/// free list for reuse, which makes scrolling a virtualized list (rows unregistering and
/// registering) nearly allocation-free once warm. A per-level count and a bitmask of occupied
/// levels let a query skip empty levels.
///
/// A query at `p` looks up, on each occupied level, the single cell containing `p`, and tests
/// the entries stored there with `Rect.contains`. An entry is stored only on its own level, and
/// the query visits one cell per level, so every hit is reported exactly once.
///
/// The cell range of a frame is computed with the same arithmetic as `Rect.contains` (the
/// exclusive edge is `origin + size`, and the last covered cell is that of the largest `Double`
/// below it), so a point the frame contains always maps to one of the frame's cells, even for
/// cell sizes that are not powers of two and for frames on exact cell boundaries.
///
/// Frames that can contain no point (zero or negative size, NaN, or so far out that
/// `origin + size == origin`) are counted but not stored. Frames larger than the top level's
/// cells (practically only infinite ones) go to a short overflow list scanned by every query.
///
/// ## Costs
///
/// - `insert`, `remove`, `update`: O(1) expected — at most 4 cells, each one hash lookup plus a
///   scan of that cell's bucket (bounded by how many same-level frames overlap the cell). An
///   `update` that keeps the frame in the same cells rewrites the stored frames in place.
/// - `forEachHit`: O(occupied levels + entries in the visited cells), typically O(levels + hits);
///   it does not allocate.
/// - Memory: one entry (40 bytes) per covered cell, at most 4 per frame, plus bucket and
///   dictionary overhead per occupied cell.
struct SpatialIndex {
    /// One stored frame, kept inline in a bucket.
    struct Entry {
        /// The caller's identifier.
        var id: Int32
        /// The frame as registered, tested with `Rect.contains`.
        var frame: Rect
    }

    /// Where a non-empty frame is stored: its level and the inclusive range of its cells there.
    /// `level == SpatialIndex.levelCount` means the overflow list.
    private struct Placement {
        /// Grid level, or `levelCount` for the overflow list.
        var level: Int
        /// First cell column covered.
        var x0: Int32
        /// Last cell column covered (inclusive).
        var x1: Int32
        /// First cell row covered.
        var y0: Int32
        /// Last cell row covered (inclusive).
        var y1: Int32

        /// Whether cell `(x, y)` is in the range.
        func covers(_ x: Int32, _ y: Int32) -> Bool {
            x >= x0 && x <= x1 && y >= y0 && y <= y1
        }
    }

    /// Number of grid levels; the top level's cells are `baseCellSize * 2^39` points wide.
    static let levelCount = 40

    /// Cell coordinates are clamped to `-cellLimit..<cellLimit` so that they pack in 29 bits.
    private static let cellLimit: Int32 = 1 << 28

    /// `cellLimit` as a `Double`, for clamping before conversion.
    private static let cellLimitAsDouble = Double(cellLimit)

    /// Side of a cell at each level.
    private let cellSizes: ContiguousArray<Double>
    /// Reciprocal of each level's cell side: cell coordinates are `floor(coordinate * inverse)`.
    private let inverseCellSizes: ContiguousArray<Double>
    /// Occupied cells, by packed key, to their (never empty) bucket of entries.
    private var cells: [UInt64: ContiguousArray<Entry>] = [:]
    /// Empty buckets ready for reuse (they keep their capacity).
    private var freeBuckets: ContiguousArray<ContiguousArray<Entry>> = []
    /// Frames too large for any level, scanned by every query.
    private var overflow: ContiguousArray<Entry> = []
    /// Number of entries (ids, not cells) stored at each level.
    private var levelCounts: ContiguousArray<Int>
    /// Bit `L` is set when level `L` stores at least one entry.
    private var occupiedLevels: UInt64 = 0

    /// Number of ids currently stored, including those with frames that can contain no point.
    private(set) var count = 0

    /// Creates an empty index whose finest cells are `baseCellSize` points wide (must be
    /// positive and finite; a power of two keeps the cell arithmetic exact).
    init(baseCellSize: Double = 32) {
        precondition(baseCellSize > 0 && baseCellSize.isFinite, "baseCellSize must be positive and finite")
        var sizes = ContiguousArray<Double>()
        var inverses = ContiguousArray<Double>()
        sizes.reserveCapacity(Self.levelCount)
        inverses.reserveCapacity(Self.levelCount)
        for level in 0..<Self.levelCount {
            let size = baseCellSize * Double(sign: .plus, exponent: level, significand: 1)
            sizes.append(size)
            inverses.append(1 / size)
        }
        cellSizes = sizes
        inverseCellSizes = inverses
        levelCounts = ContiguousArray(repeating: 0, count: Self.levelCount)
    }

    // MARK: - Queries

    /// Calls `body` once for every id whose frame contains `point` (`Rect.contains` semantics),
    /// in no particular order. O(occupied levels + entries in the visited cells); does not
    /// allocate. `body` must not mutate this index.
    func forEachHit(at point: Point, _ body: (Int32) -> Void) {
        var levels = occupiedLevels
        if levels != 0 {
            inverseCellSizes.withUnsafeBufferPointer { inverses in
                while levels != 0 {
                    let level = levels.trailingZeroBitCount
                    levels &= levels &- 1
                    let inverse = inverses[level]
                    let key = Self.key(
                        level: level,
                        x: Self.cell(point.x, inverse),
                        y: Self.cell(point.y, inverse))
                    guard let bucket = cells[key] else { continue }
                    bucket.withUnsafeBufferPointer { entries in
                        for entry in entries where entry.frame.contains(point) {
                            body(entry.id)
                        }
                    }
                }
            }
        }
        if !overflow.isEmpty {
            overflow.withUnsafeBufferPointer { entries in
                for entry in entries where entry.frame.contains(point) {
                    body(entry.id)
                }
            }
        }
    }

    /// Approximate heap bytes used by the index: every bucket's (live or recycled) capacity
    /// times the entry size plus its array header, the dictionary's capacity times key plus
    /// value size, and the free and overflow lists. Ignores allocator rounding and the
    /// dictionary's occupancy bitmap. O(buckets); meant for benchmarks, not hot paths.
    var approximateMemoryFootprint: Int {
        let header = 32  // Swift array storage header on 64-bit platforms.
        var bytes = 0
        for bucket in cells.values { bytes += header + bucket.capacity * MemoryLayout<Entry>.stride }
        for bucket in freeBuckets { bytes += header + bucket.capacity * MemoryLayout<Entry>.stride }
        bytes += cells.capacity * (MemoryLayout<UInt64>.stride + MemoryLayout<ContiguousArray<Entry>>.stride)
        bytes += header + freeBuckets.capacity * MemoryLayout<ContiguousArray<Entry>>.stride
        bytes += header + overflow.capacity * MemoryLayout<Entry>.stride
        return bytes
    }

    // MARK: - Updates

    /// Adds `id` with `frame`. Each id is inserted at most once at a time (the caller
    /// guarantees it). O(1) expected.
    mutating func insert(_ id: Int32, frame: Rect) {
        count += 1
        guard let placement = placement(of: frame) else { return }
        store(Entry(id: id, frame: frame), at: placement)
    }

    /// Removes `id`, which was inserted (or last updated) with exactly `frame`. O(1) expected.
    mutating func remove(_ id: Int32, frame: Rect) {
        precondition(count > 0, "remove from an empty SpatialIndex")
        count -= 1
        guard let placement = placement(of: frame) else { return }
        unstore(id, at: placement)
    }

    /// Moves `id` from `old` (its current frame) to `new`. O(1) expected; when the frame stays
    /// in the same cells only the stored frames are rewritten in place, and when it shares some
    /// cells with its old placement only the difference is added or removed.
    mutating func update(_ id: Int32, from old: Rect, to new: Rect) {
        let oldPlacement = placement(of: old)
        let newPlacement = placement(of: new)
        guard let from = oldPlacement, let to = newPlacement, from.level == to.level else {
            if let from = oldPlacement { unstore(id, at: from) }
            if let to = newPlacement { store(Entry(id: id, frame: new), at: to) }
            return
        }
        if from.level == Self.levelCount {
            Self.rewrite(id, frame: new, in: &overflow)
            return
        }
        for y in from.y0...from.y1 {
            for x in from.x0...from.x1 {
                let key = Self.key(level: from.level, x: x, y: y)
                if to.covers(x, y) {
                    rewrite(id, frame: new, inCell: key)
                } else {
                    removeEntry(id, fromCell: key)
                }
            }
        }
        for y in to.y0...to.y1 {
            for x in to.x0...to.x1 where !from.covers(x, y) {
                append(Entry(id: id, frame: new), toCell: Self.key(level: to.level, x: x, y: y))
            }
        }
    }

    // MARK: - Placement

    /// Where `frame` is stored, or `nil` when it can contain no point and is not stored.
    private func placement(of frame: Rect) -> Placement? {
        let minX = frame.origin.x
        let minY = frame.origin.y
        // The same sums as `Rect.contains`, so the exclusive edges match it bit for bit.
        let maxX = frame.origin.x + frame.size.width
        let maxY = frame.origin.y + frame.size.height
        // Also rejects NaN, non-positive sizes, and sizes lost to rounding at large coordinates.
        guard minX < maxX, minY < maxY else { return nil }
        // The largest coordinates the frame contains.
        let lastX = maxX.nextDown
        let lastY = maxY.nextDown

        let side = Swift.max(frame.size.width, frame.size.height)
        guard side <= cellSizes[Self.levelCount - 1] else {
            return Placement(level: Self.levelCount, x0: 0, x1: 0, y0: 0, y1: 0)
        }
        var level = 0
        let ratio = side * inverseCellSizes[0]
        if ratio > 1 {
            // ceil(log2(ratio)), then corrected for rounding in `ratio`.
            level = Int(ratio.exponent)
            if ratio > Double(sign: .plus, exponent: level, significand: 1) { level += 1 }
            level = Swift.min(level, Self.levelCount - 1)
            while level > 0 && cellSizes[level - 1] >= side { level -= 1 }
            while level < Self.levelCount - 1 && cellSizes[level] < side { level += 1 }
        }
        // A frame no wider than a cell spans at most two cells per axis; the loop only guards
        // against rounding at cell boundaries.
        while level < Self.levelCount {
            let inverse = inverseCellSizes[level]
            let placement = Placement(
                level: level,
                x0: Self.cell(minX, inverse), x1: Self.cell(lastX, inverse),
                y0: Self.cell(minY, inverse), y1: Self.cell(lastY, inverse))
            if placement.x1 - placement.x0 <= 1 && placement.y1 - placement.y0 <= 1 {
                return placement
            }
            level += 1
        }
        return Placement(level: Self.levelCount, x0: 0, x1: 0, y0: 0, y1: 0)
    }

    /// The cell coordinate of `value` on a level: `floor(value * inverse)` clamped to
    /// `-cellLimit..<cellLimit` (NaN maps to the lowest cell). Monotonic in `value`.
    @inline(__always)
    private static func cell(_ value: Double, _ inverse: Double) -> Int32 {
        let scaled = value * inverse
        if scaled >= cellLimitAsDouble { return cellLimit - 1 }
        guard scaled >= -cellLimitAsDouble else { return -cellLimit }
        var cell = Int32(scaled)  // Truncates toward zero; adjust to floor.
        if Double(cell) > scaled { cell -= 1 }
        return cell
    }

    /// Packs a level (6 bits) and cell coordinates (29 bits each, biased) into a dictionary key.
    @inline(__always)
    private static func key(level: Int, x: Int32, y: Int32) -> UInt64 {
        UInt64(truncatingIfNeeded: level) << 58
            | UInt64(UInt32(bitPattern: x &+ cellLimit)) << 29
            | UInt64(UInt32(bitPattern: y &+ cellLimit))
    }

    // MARK: - Storage

    /// Stores `entry` in every cell of `placement` and marks its level occupied.
    private mutating func store(_ entry: Entry, at placement: Placement) {
        guard placement.level < Self.levelCount else {
            overflow.append(entry)
            return
        }
        for y in placement.y0...placement.y1 {
            for x in placement.x0...placement.x1 {
                append(entry, toCell: Self.key(level: placement.level, x: x, y: y))
            }
        }
        levelCounts[placement.level] += 1
        occupiedLevels |= 1 << UInt64(placement.level)
    }

    /// Removes `id` from every cell of `placement` and clears its level's bit when it empties.
    private mutating func unstore(_ id: Int32, at placement: Placement) {
        guard placement.level < Self.levelCount else {
            guard let index = overflow.firstIndex(where: { $0.id == id }) else {
                assertionFailure("SpatialIndex: id \(id) is not stored with this frame")
                return
            }
            overflow.swapAt(index, overflow.count - 1)
            overflow.removeLast()
            return
        }
        for y in placement.y0...placement.y1 {
            for x in placement.x0...placement.x1 {
                removeEntry(id, fromCell: Self.key(level: placement.level, x: x, y: y))
            }
        }
        levelCounts[placement.level] -= 1
        if levelCounts[placement.level] == 0 {
            occupiedLevels &= ~(1 << UInt64(placement.level))
        }
    }

    /// Appends `entry` to the bucket of cell `key`, taking a recycled bucket for a new cell.
    private mutating func append(_ entry: Entry, toCell key: UInt64) {
        if let index = cells.index(forKey: key) {
            cells.values[index].append(entry)
            return
        }
        var bucket = freeBuckets.popLast() ?? ContiguousArray()
        bucket.append(entry)
        cells[key] = bucket
    }

    /// Swap-removes `id` from the bucket of cell `key`, recycling the bucket when it empties.
    private mutating func removeEntry(_ id: Int32, fromCell key: UInt64) {
        guard let index = cells.index(forKey: key) else {
            assertionFailure("SpatialIndex: id \(id) is not stored with this frame")
            return
        }
        let found = cells.values[index].withUnsafeMutableBufferPointer { entries -> Bool in
            guard let position = entries.firstIndex(where: { $0.id == id }) else { return false }
            entries.swapAt(position, entries.count - 1)
            return true
        }
        guard found else {
            assertionFailure("SpatialIndex: id \(id) is not stored with this frame")
            return
        }
        cells.values[index].removeLast()
        if cells.values[index].isEmpty {
            freeBuckets.append(cells.remove(at: index).value)
        }
    }

    /// Replaces the stored frame of `id` in the bucket of cell `key`.
    private mutating func rewrite(_ id: Int32, frame: Rect, inCell key: UInt64) {
        guard let index = cells.index(forKey: key) else {
            assertionFailure("SpatialIndex: id \(id) is not stored with this frame")
            return
        }
        Self.rewrite(id, frame: frame, in: &cells.values[index])
    }

    /// Replaces the stored frame of `id` in `entries`.
    private static func rewrite(_ id: Int32, frame: Rect, in entries: inout ContiguousArray<Entry>) {
        let found = entries.withUnsafeMutableBufferPointer { entries -> Bool in
            guard let position = entries.firstIndex(where: { $0.id == id }) else { return false }
            entries[position].frame = frame
            return true
        }
        assert(found, "SpatialIndex: id \(id) is not stored with this frame")
    }
}
