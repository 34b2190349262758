/// Finds which registered frames contain a point: a hierarchy of uniform grids of every
/// power-of-two cell width and height, whose cells chain their ids through one array.
///
/// ## Design
///
/// Grid `(X, Y)` (numbered `X << 6 | Y`) has cells `baseCellSize * 2^X` wide and `baseCellSize * 2^Y` tall (each level
/// in `0..<levelCount`). An id goes into the grid whose cells are the narrowest at least as wide
/// as its frame and the shortest at least as tall, so its frame reaches at most one cell further
/// right and one further down there, and it is stored once: in the cell of its top-left corner
/// (its *anchor* cell). A query at `p` therefore looks, in each occupied grid, at `p`'s cell and,
/// when `p` is close enough to that cell's left or top edge for a frame of that grid to reach it
/// from there, at the cells left of, above and above-left of it. Targets of very different sizes
/// and shapes (a window, a board, its tall columns, their wide and short cards) each land in a
/// grid that suits them, with few of them per cell.
///
/// Storage is one array indexed by id plus one hash table, and nothing per cell:
/// - per id, its frame as last inserted or updated (tested exactly with `Rect.contains`), the
///   next id anchored in the same cell (a singly linked chain), and its grid;
/// - `cells`: an open-addressing table (``CellTable``) from a packed cell key (grid, cell x,
///   cell y; coordinates clamped to +/-2^25, which keeps the mapping monotonic) to the first id
///   of that cell's chain.
///
/// An update that keeps a frame's anchor cell only rewrites its frame; otherwise the id is
/// unlinked from one chain and pushed on another. Nothing allocates once the arrays and the table
/// have grown to their working size, so scrolling a virtualized list (rows unregistering and
/// registering) and re-laying out thousands of frames per move cost a few nanoseconds each.
///
/// The cell range of a frame is computed with the same arithmetic as `Rect.contains` (the
/// exclusive edge is `origin + size`, and the last covered cell is that of the largest `Double`
/// below it), and the cell function is monotonic, so a point the frame contains always maps to
/// its anchor cell or the one right of, below, or below-right of it, even for cell sizes that are
/// not powers of two and for frames on exact cell boundaries.
///
/// Frames that can contain no point (zero or negative size, NaN, or so far out that
/// `origin + size == origin`) are counted but not chained. Frames larger than the top level's
/// cells (practically only infinite ones) go to a short overflow list scanned by every query.
///
/// ## Costs
///
/// - `insert`, `remove`, `update`: O(1) expected: one or two table probes plus a walk of one
///   cell's chain (bounded by how many frames of the same grid are anchored in the cell).
/// - `forEachHit`: O(occupied grids × up to 4 probes + ids anchored in the visited cells); it
///   does not allocate.
/// - Memory: 38 bytes per id (frame, link and grid) plus 16 bytes per table bucket (at most two
///   buckets per occupied cell).
struct SpatialIndex {
    /// An id and a frame, for callers that keep frames beside their ids (tests, scans).
    struct Entry {
        /// The caller's identifier.
        var id: Int32
        /// The frame.
        var frame: Rect
    }

    /// Where a non-empty frame is anchored: its grid and its top-left cell there.
    /// `grid == SpatialIndex.overflowGrid` means the overflow list.
    private struct Anchor: Equatable {
        /// Grid number (`widthLevel << 6 | heightLevel`), or ``overflowGrid``.
        var grid: Int
        /// The anchor cell's column.
        var x: Int32
        /// The anchor cell's row.
        var y: Int32
    }

    /// Number of levels per axis; the top level's cells are `baseCellSize * 2^39` points.
    static let levelCount = 40
    /// Number of grid numbers (a width level and a height level each, six bits apiece).
    private static let gridCount = levelCount << 6
    /// The grid of frames too large for any level.
    private static let overflowGrid = gridCount

    /// Cell coordinates are clamped to `-cellLimit..<cellLimit` so that they pack in 26 bits.
    private static let cellLimit: Int32 = 1 << 25

    /// `cellLimit` as a `Double`, for clamping before conversion.
    private static let cellLimitAsDouble = Double(cellLimit)

    /// `next` value of an id that is in no chain (not inserted, empty frame, or overflow).
    private static let unchained: Int32 = -2

    /// Side of a cell at each level, and its reciprocal: cell coordinates are
    /// `floor(coordinate * inverse)`.
    private let levels: ContiguousArray<(side: Double, inverse: Double)>
    /// Whether cell sides are powers of two, so scaling by their reciprocals is exact.
    private let exactCells: Bool
    /// What the index keeps per id, side by side (a chain walk reads a frame and its link from
    /// one place, and an update writes one element).
    private struct Slot {
        /// The frame as last inserted or updated.
        var frame: Rect
        /// The next id in the cell's chain, -1 at the end, ``unchained`` outside chains.
        var next: Int32
        /// The grid the id is anchored in (``overflowGrid`` for the overflow list), or -1 when it
        /// is not stored. Its anchor cell follows from its frame at that grid's levels, so an
        /// update finds the chain to leave without working the placement out again.
        var grid: Int16
    }

    /// Per id: its frame, link and grid.
    private var slots: ContiguousArray<Slot> = []
    /// Occupied cells, by packed key, to the first id of their chain.
    private var cells = CellTable()
    /// Ids whose frames are too large for any level, scanned by every query.
    private var overflow: ContiguousArray<Int32> = []
    /// Per grid: the number of ids stored, and the widest and tallest frame anchored there since
    /// it was last empty (a query looks into the cell left of, or above, the point's only when
    /// the point is closer than that to its cell's left or top edge).
    /// Each grid's place in ``occupied`` is kept with them (-1: absent).
    private var gridInfo: ContiguousArray<GridInfo>
    /// The grids storing at least one id.
    private var occupied: ContiguousArray<Int16> = []

    private struct GridInfo {
        var count: Int32 = 0
        var position: Int32 = -1
        var width: Double = 0
        var height: Double = 0
    }

    /// Number of ids currently stored, including those with frames that can contain no point.
    private(set) var count = 0

    /// Creates an empty index whose finest cells are `baseCellSize` points wide (must be
    /// positive and finite; a power of two keeps the cell arithmetic exact).
    init(baseCellSize: Double = 32) {
        precondition(baseCellSize > 0 && baseCellSize.isFinite, "baseCellSize must be positive and finite")
        var levels = ContiguousArray<(side: Double, inverse: Double)>()
        levels.reserveCapacity(Self.levelCount)
        for level in 0..<Self.levelCount {
            let size = baseCellSize * Double(sign: .plus, exponent: level, significand: 1)
            levels.append((size, 1 / size))
        }
        self.levels = levels
        exactCells = baseCellSize.significand == 1 && baseCellSize.exponent > -900
        gridInfo = ContiguousArray(repeating: GridInfo(), count: Self.gridCount)
    }

    /// The frame `id` was last inserted or updated with. `id` must be stored.
    @inline(__always) func frame(of id: Int32) -> Rect { slots[Int(id)].frame }

    // MARK: - Queries

    /// Calls `body` once for every id whose frame contains `point` (`Rect.contains` semantics),
    /// in no particular order. O(occupied grids + ids anchored in the visited cells); does not
    /// allocate. `body` must not mutate this index.
    func forEachHit(at point: Point, _ body: (Int32) -> Void) {
        slots.withUnsafeBufferPointer { slots in
            for grid in occupied {
                let g = Int(grid)
                let levelX = g >> 6
                let levelY = g & 63
                let inverseX = levels[levelX].inverse
                let inverseY = levels[levelY].inverse
                let cx = Self.cell(point.x, inverseX)
                let cy = Self.cell(point.y, inverseY)
                // The frames that can contain `point` are anchored in its cell or one cell
                // left, up, or up-left of it (none lies left of the lowest cell); a frame
                // anchored one cell left reaches at most its width into this one. The
                // margin covers rounding in the offset (cells not a power of two wide).
                let extent = gridInfo[g]
                let intoX = (point.x * inverseX - Double(cx)) * levels[levelX].side
                let intoY = (point.y * inverseY - Double(cy)) * levels[levelY].side
                let left: Int32 = cx > -Self.cellLimit && !(intoX > extent.width * 1.000_001 + 1e-9) ? 1 : 0
                let up: Int32 = cy > -Self.cellLimit && !(intoY > extent.height * 1.000_001 + 1e-9) ? 1 : 0
                for dy: Int32 in 0...up {
                    for dx: Int32 in 0...left {
                        var id = cells.head(of: Self.key(grid: g, x: cx - dx, y: cy - dy))
                        while id >= 0 {
                            let slot = slots[Int(id)]
                            if slot.frame.contains(point) { body(id) }
                            id = slot.next
                        }
                    }
                }
            }
            for id in overflow where slots[Int(id)].frame.contains(point) { body(id) }
        }
    }

    /// Approximate heap bytes used by the index: the per-id frames and links, the cell table's
    /// buckets, the per-grid counters and the overflow list (capacities, not counts). Ignores
    /// allocator rounding.
    var approximateMemoryFootprint: Int {
        let header = 32  // Swift array storage header on 64-bit platforms.
        return header + slots.capacity * MemoryLayout<Slot>.stride
            + cells.approximateMemoryFootprint + header + overflow.capacity * MemoryLayout<Int32>.stride
            + gridInfo.capacity * MemoryLayout<GridInfo>.stride + occupied.capacity * 2
    }

    // MARK: - Updates

    /// Adds `id` with `frame`. Each id is inserted at most once at a time (the caller
    /// guarantees it); ids are small array indexes (slots). O(1) expected.
    mutating func insert(_ id: Int32, frame: Rect) {
        precondition(id >= 0, "SpatialIndex ids are array indexes")
        let i = Int(id)
        if i >= slots.count {
            slots.append(
                contentsOf: repeatElement(
                    Slot(frame: .zero, next: Self.unchained, grid: -1), count: i + 1 - slots.count))
        }
        count += 1
        slots[i] = Slot(frame: frame, next: Self.unchained, grid: -1)
        guard let anchor = anchor(of: frame) else { return }
        link(id, at: anchor)
    }

    /// Removes `id`, which was inserted (or last updated) with exactly `frame`. O(1) expected.
    mutating func remove(_ id: Int32, frame: Rect) {
        precondition(count > 0, "remove from an empty SpatialIndex")
        count -= 1
        if let anchor = storedAnchor(of: slots[Int(id)]) { unlink(id, at: anchor) }
        slots[Int(id)].next = Self.unchained
        slots[Int(id)].grid = -1
    }

    /// Moves `id` from `old` (its current frame) to `new`. O(1) expected; when the frame keeps
    /// its anchor cell only the stored frame is rewritten.
    mutating func update(_ id: Int32, from old: Rect, to new: Rect) { move(id, to: new) }

    /// Moves `id` by `delta` (its content scrolled).
    @inline(__always) mutating func offset(_ id: Int32, by delta: Vector) {
        move(id, to: slots[Int(id)].frame.offset(by: delta))
    }

    /// Gives `id` the frame `new`; nothing happens when it is the frame stored. O(1) expected;
    /// when the frame keeps its anchor cell only the stored frame is rewritten, and when it only
    /// changes cells within its grid (a row scrolled, an item shifted by one place) it moves from
    /// one chain to the other without touching the grid's bookkeeping.
    mutating func move(_ id: Int32, to new: Rect) {
        let i = Int(id)
        var slot = slots[i]
        guard slot.frame != new else { return }
        let from = storedAnchor(of: slot)
        // A frame that keeps its size usually keeps its grid: only the new anchor cell is
        // worked out.
        var to: Anchor?
        if let from, from.grid < Self.overflowGrid, new.size == slot.frame.size {
            to = anchor(of: new, in: from.grid) ?? anchor(of: new)
        } else {
            to = anchor(of: new)
        }
        guard from != to else {
            slot.frame = new
            slots[i] = slot
            if let to, to.grid < Self.overflowGrid { grow(extentOf: to.grid, to: new.size) }
            return
        }
        if let from, let to, from.grid == to.grid, from.grid < Self.overflowGrid {
            // Same grid, another cell: leave one chain, join the other.
            detach(id, next: slot.next, fromCell: Self.key(grid: from.grid, x: from.x, y: from.y))
            slot.frame = new
            slot.next = cells.push(id, key: Self.key(grid: to.grid, x: to.x, y: to.y))
            slots[i] = slot
            grow(extentOf: to.grid, to: new.size)
            return
        }
        if let from { unlink(id, at: from) }
        slots[i].frame = new
        if let to { link(id, at: to) }
    }

    // MARK: - Placement

    /// Where an id with `slot` is stored now, from its grid and its frame.
    @inline(__always) private func storedAnchor(of slot: Slot) -> Anchor? {
        let grid = Int(slot.grid)
        guard grid >= 0 else { return nil }
        guard grid < Self.overflowGrid else { return Anchor(grid: grid, x: 0, y: 0) }
        let frame = slot.frame
        return Anchor(
            grid: grid, x: Self.cell(frame.origin.x, levels[grid >> 6].inverse),
            y: Self.cell(frame.origin.y, levels[grid & 63].inverse))
    }

    /// The anchor of `frame` in `grid` if the frame covers at most two cells per axis there
    /// (any such grid finds it, as long as its extents are known), else nil.
    @inline(__always) private func anchor(of frame: Rect, in grid: Int) -> Anchor? {
        let maxX = frame.origin.x + frame.size.width
        let maxY = frame.origin.y + frame.size.height
        guard frame.origin.x < maxX, frame.origin.y < maxY else { return nil }
        let inverseX = levels[grid >> 6].inverse
        let inverseY = levels[grid & 63].inverse
        let x = Self.cell(frame.origin.x, inverseX)
        let y = Self.cell(frame.origin.y, inverseY)
        // With cells a power of two long the scaling is exact: a frame no longer than a cell
        // covers at most two of them wherever it lies. Otherwise rounding is checked.
        guard
            exactCells
                || (Self.cell(maxX.nextDown, inverseX) - x <= 1 && Self.cell(maxY.nextDown, inverseY) - y <= 1)
        else { return nil }
        return Anchor(grid: grid, x: x, y: y)
    }

    /// Where `frame` is anchored, or `nil` when it can contain no point and is not stored.
    private func anchor(of frame: Rect) -> Anchor? {
        let minX = frame.origin.x
        let minY = frame.origin.y
        // The same sums as `Rect.contains`, so the exclusive edges match it bit for bit.
        let maxX = frame.origin.x + frame.size.width
        let maxY = frame.origin.y + frame.size.height
        // Also rejects NaN, non-positive sizes, and sizes lost to rounding at large coordinates.
        guard minX < maxX, minY < maxY else { return nil }
        // The largest coordinates the frame contains.
        guard let (levelX, x) = place(minX, maxX.nextDown, side: frame.size.width),
            let (levelY, y) = place(minY, maxY.nextDown, side: frame.size.height)
        else { return Anchor(grid: Self.overflowGrid, x: 0, y: 0) }
        return Anchor(grid: levelX << 6 | levelY, x: x, y: y)
    }

    /// The level and first cell of an extent `first...last` of length `side` on one axis: the
    /// lowest level whose cells are at least `side` long and where the extent covers at most two
    /// cells. Nil when no level is large enough.
    private func place(_ first: Double, _ last: Double, side: Double) -> (Int, Int32)? {
        guard side <= levels[Self.levelCount - 1].side else { return nil }
        var level = 0
        let ratio = side * levels[0].inverse
        if ratio > 1 {
            // ceil(log2(ratio)), then corrected for rounding in `ratio`.
            level = Int(ratio.exponent)
            if ratio > Double(sign: .plus, exponent: level, significand: 1) { level += 1 }
            level = Swift.min(level, Self.levelCount - 1)
            while level > 0 && levels[level - 1].side >= side { level -= 1 }
            while level < Self.levelCount - 1 && levels[level].side < side { level += 1 }
        }
        // An extent no longer than a cell covers at most two cells; the loop only guards against
        // rounding at cell boundaries.
        while level < Self.levelCount {
            let inverse = levels[level].inverse
            let c0 = Self.cell(first, inverse)
            if Self.cell(last, inverse) - c0 <= 1 { return (level, c0) }
            level += 1
        }
        return nil
    }

    /// The cell coordinate of `value` on a level: `floor(value * inverse)` clamped to
    /// `-cellLimit..<cellLimit` (NaN maps to the lowest cell). Monotonic in `value`.
    @inline(__always)
    private static func cell(_ value: Double, _ inverse: Double) -> Int32 {
        let scaled = (value * inverse).rounded(.down)
        if scaled >= cellLimitAsDouble { return cellLimit - 1 }
        guard scaled >= -cellLimitAsDouble else { return -cellLimit }
        return Int32(scaled)
    }

    /// Packs a grid (11 bits) and cell coordinates (26 bits each, biased) into a table key:
    /// the x coordinate's lowest bit is bit 26, the y coordinate's bit 0 (``CellTable`` keeps
    /// 2 × 2 blocks of cells together by them).
    @inline(__always)
    private static func key(grid: Int, x: Int32, y: Int32) -> UInt64 {
        UInt64(truncatingIfNeeded: grid) << 52
            | UInt64(UInt32(bitPattern: x &+ cellLimit)) << 26
            | UInt64(UInt32(bitPattern: y &+ cellLimit))
    }

    // MARK: - Storage

    /// Pushes `id` on the chain of its anchor cell and counts it in its grid.
    private mutating func link(_ id: Int32, at anchor: Anchor) {
        slots[Int(id)].grid = Int16(anchor.grid)
        guard anchor.grid < Self.overflowGrid else {
            overflow.append(id)
            return
        }
        slots[Int(id)].next = cells.push(id, key: Self.key(grid: anchor.grid, x: anchor.x, y: anchor.y))
        if gridInfo[anchor.grid].count == 0 {
            gridInfo[anchor.grid].position = Int32(occupied.count)
            occupied.append(Int16(anchor.grid))
        }
        gridInfo[anchor.grid].count += 1
        grow(extentOf: anchor.grid, to: slots[Int(id)].frame.size)
    }

    @inline(__always) private mutating func grow(extentOf grid: Int, to size: Size) {
        if size.width > gridInfo[grid].width { gridInfo[grid].width = size.width }
        if size.height > gridInfo[grid].height { gridInfo[grid].height = size.height }
    }

    /// Takes `id` (whose link is `next`) off the chain of cell `key`; the cell leaves the table
    /// when its chain empties.
    private mutating func detach(_ id: Int32, next: Int32, fromCell key: UInt64) {
        guard let bucket = cells.location(of: key) else {
            assertionFailure("SpatialIndex: id \(id) is not stored with this frame")
            return
        }
        let head = cells.head(at: bucket)
        if head == id {
            cells.setHead(next, at: bucket)
            return
        }
        var previous = head
        while previous >= 0, slots[Int(previous)].next != id { previous = slots[Int(previous)].next }
        guard previous >= 0 else {
            assertionFailure("SpatialIndex: id \(id) is not stored with this frame")
            return
        }
        slots[Int(previous)].next = next
    }

    /// Takes `id` off the chain of its anchor cell and forgets its grid when it empties.
    private mutating func unlink(_ id: Int32, at anchor: Anchor) {
        slots[Int(id)].grid = -1
        guard anchor.grid < Self.overflowGrid else {
            guard let index = overflow.firstIndex(of: id) else {
                assertionFailure("SpatialIndex: id \(id) is not stored with this frame")
                return
            }
            overflow.swapAt(index, overflow.count - 1)
            overflow.removeLast()
            return
        }
        detach(id, next: slots[Int(id)].next, fromCell: Self.key(grid: anchor.grid, x: anchor.x, y: anchor.y))
        slots[Int(id)].next = Self.unchained
        gridInfo[anchor.grid].count -= 1
        if gridInfo[anchor.grid].count == 0 {
            let position = Int(gridInfo[anchor.grid].position)
            gridInfo[anchor.grid] = GridInfo()
            let last = occupied.removeLast()
            if position < occupied.count {
                occupied[position] = last
                gridInfo[Int(last)].position = Int32(position)
            }
        }
    }
}

/// An open-addressing hash table from packed cell keys to the first id of the cell's chain:
/// linear probing over a power-of-two number of buckets, at most half full, and backward-shift
/// deletion (no tombstones, so churn never degrades probes). A bucket holds its key and head
/// side by side (one cache line read per probe), and the four cells of an aligned 2 × 2 block
/// hash to four neighbouring buckets, so the up-to-four cells a query looks at share cache
/// lines. Keys are mixed with a multiply and shift (Fibonacci hashing), much cheaper than
/// `Hasher` for one `UInt64`.
struct CellTable {
    private struct Bucket {
        var key: UInt64
        var head: Int32
    }

    /// The key of an empty bucket: grid 4095 does not exist.
    private static let empty = UInt64.max
    private var buckets: ContiguousArray<Bucket>
    private var shift: UInt64
    private(set) var count = 0

    init() {
        buckets = ContiguousArray(repeating: Bucket(key: Self.empty, head: -1), count: 16)
        shift = 64 - 2
    }

    /// Heap bytes of the buckets.
    var approximateMemoryFootprint: Int { 32 + buckets.capacity * MemoryLayout<Bucket>.stride }

    /// The home bucket of `key`: its 2 × 2 block's hash, then its place in the block (the low bit
    /// of each cell coordinate, bits 0 and 26 of the key).
    @inline(__always) private func home(_ key: UInt64) -> Int {
        let block = key & ~(1 | 1 << 26)
        let quad = Int(truncatingIfNeeded: (key & 1) | (key >> 25) & 2)
        return Int(truncatingIfNeeded: (block &* 0x9E37_79B9_7F4A_7C15) >> shift) << 2 | quad
    }

    /// The bucket holding `key`, or nil.
    @inline(__always) private func bucket(of key: UInt64) -> Int? {
        buckets.withUnsafeBufferPointer { buckets in
            let mask = buckets.count - 1
            var i = home(key)
            while true {
                let k = buckets[i].key
                if k == key { return i }
                if k == Self.empty { return nil }
                i = (i + 1) & mask
            }
        }
    }

    /// The first id chained in cell `key`, or -1.
    @inline(__always) func head(of key: UInt64) -> Int32 {
        buckets.withUnsafeBufferPointer { buckets in
            let mask = buckets.count - 1
            var i = home(key)
            while true {
                let bucket = buckets[i]
                if bucket.key == key { return bucket.head }
                if bucket.key == Self.empty { return -1 }
                i = (i + 1) & mask
            }
        }
    }

    /// Makes `id` the first of cell `key`'s chain; returns the previous first id (-1 if none).
    /// One probe: a new key goes into the empty bucket that ended the search.
    mutating func push(_ id: Int32, key: UInt64) -> Int32 {
        if (count + 1) * 2 > buckets.count { grow() }
        let start = home(key)
        let (previous, added) = buckets.withUnsafeMutableBufferPointer { buckets -> (Int32, Bool) in
            let mask = buckets.count - 1
            var i = start
            while true {
                let k = buckets[i].key
                if k == key {
                    let previous = buckets[i].head
                    buckets[i].head = id
                    return (previous, false)
                }
                if k == Self.empty {
                    buckets[i] = Bucket(key: key, head: id)
                    return (-1, true)
                }
                i = (i + 1) & mask
            }
        }
        if added { count += 1 }
        return previous
    }

    /// The bucket of cell `key` (which must be in the table), for ``head(at:)`` and
    /// ``setHead(_:at:)``: one probe for a read and a write.
    @inline(__always) func location(of key: UInt64) -> Int? { bucket(of: key) }

    /// The first id of the cell in bucket `i`.
    @inline(__always) func head(at i: Int) -> Int32 { buckets[i].head }

    /// Sets the first id of cell `key` (which is in the table); -1 removes the cell.
    mutating func setHead(_ id: Int32, of key: UInt64) {
        guard let found = bucket(of: key) else { return }
        setHead(id, at: found)
    }

    /// Sets the first id of the cell in bucket `found`; -1 removes the cell (later buckets of
    /// its probe run may move, so bucket numbers are stale afterwards).
    mutating func setHead(_ id: Int32, at found: Int) {
        guard id < 0 else {
            buckets[found].head = id
            return
        }
        // Backward-shift deletion: move later members of the probe run into the hole.
        let mask = buckets.count - 1
        var hole = found
        var i = (hole + 1) & mask
        while buckets[i].key != Self.empty {
            let h = home(buckets[i].key)
            // Move the entry at i into the hole if its home is not in (hole, i] cyclically.
            let between = hole <= i ? (h > hole && h <= i) : (h > hole || h <= i)
            if !between {
                buckets[hole] = buckets[i]
                hole = i
            }
            i = (i + 1) & mask
        }
        buckets[hole] = Bucket(key: Self.empty, head: -1)
        count -= 1
    }

    private mutating func place(_ bucket: Bucket) {
        let mask = buckets.count - 1
        var i = home(bucket.key)
        while buckets[i].key != Self.empty { i = (i + 1) & mask }
        buckets[i] = bucket
    }

    private mutating func grow() {
        let old = buckets
        buckets = ContiguousArray(repeating: Bucket(key: Self.empty, head: -1), count: old.count * 2)
        shift -= 1
        for bucket in old where bucket.key != Self.empty { place(bucket) }
    }
}
