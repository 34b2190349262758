@testable import DragDrop
import Testing

/// A tiny seeded generator (SplitMix64) so randomized tests are reproducible on every platform.
/// File-private so that other test files can have their own.
private struct SplitMix64: RandomNumberGenerator {
    /// The running state.
    private var state: UInt64

    /// Creates a generator that produces the sequence for `seed`.
    init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite("SpatialIndex")
struct SpatialIndexTests {
    /// The ids `index` reports at `point`, sorted (duplicates kept, so double reports show).
    fileprivate static func hits(_ index: SpatialIndex, at point: Point) -> [Int32] {
        var ids: [Int32] = []
        index.forEachHit(at: point) { ids.append($0) }
        return ids.sorted()
    }

    /// The ids whose frame contains `point`, by linear scan.
    fileprivate static func bruteForceHits(_ frames: [Int32: Rect], at point: Point) -> [Int32] {
        bruteForceHits(ContiguousArray(frames.map { SpatialIndex.Entry(id: $0.key, frame: $0.value) }), at: point)
    }

    /// The ids whose frame contains `point`, by linear scan of `entries`.
    fileprivate static func bruteForceHits(_ entries: ContiguousArray<SpatialIndex.Entry>, at point: Point) -> [Int32] {
        var ids: [Int32] = []
        entries.withUnsafeBufferPointer { entries in
            for entry in entries where entry.frame.contains(point) { ids.append(entry.id) }
        }
        return ids.sorted()
    }

    /// A random frame from a mix of sizes and positions that stress the grid.
    fileprivate static func randomFrame(using rng: inout SplitMix64, cell: Double) -> Rect {
        let span = 40_000.0
        switch Int.random(in: 0..<10, using: &rng) {
        case 0:  // Tiny, fractional.
            return Rect(
                x: Double.random(in: -span...span, using: &rng), y: Double.random(in: -span...span, using: &rng),
                width: Double.random(in: 0.01...4, using: &rng), height: Double.random(in: 0.01...4, using: &rng))
        case 1, 2, 3:  // Cards and rows.
            return Rect(
                x: Double.random(in: -span...span, using: &rng).rounded(),
                y: Double.random(in: -span...span, using: &rng).rounded(),
                width: Double.random(in: 20...320, using: &rng).rounded(),
                height: Double.random(in: 20...120, using: &rng).rounded())
        case 4:  // Containers, some huge, some long and thin.
            return Rect(
                x: Double.random(in: -span...span, using: &rng), y: Double.random(in: -span...span, using: &rng),
                width: Double.random(in: 200...60_000, using: &rng), height: Double.random(in: 10...90_000, using: &rng)
            )
        case 5, 6:  // Exactly on cell boundaries, exactly one or more cells wide.
            let sizes = [cell / 2, cell, cell * 2, cell * 4, cell * 3, cell * 64]
            return Rect(
                x: Double(Int.random(in: -500...500, using: &rng)) * cell,
                y: Double(Int.random(in: -500...500, using: &rng)) * cell,
                width: sizes.randomElement(using: &rng)!, height: sizes.randomElement(using: &rng)!)
        case 7:  // Just around cell boundaries.
            let x = Double(Int.random(in: -500...500, using: &rng)) * cell
            let y = Double(Int.random(in: -500...500, using: &rng)) * cell
            return Rect(
                x: Bool.random(using: &rng) ? x.nextDown : x.nextUp, y: Bool.random(using: &rng) ? y.nextUp : y,
                width: Bool.random(using: &rng) ? cell : cell.nextUp, height: cell * 2)
        case 8:  // Empty: zero width or height.
            return Rect(
                x: Double.random(in: -span...span, using: &rng), y: Double.random(in: -span...span, using: &rng),
                width: Bool.random(using: &rng) ? 0 : 50, height: Bool.random(using: &rng) ? 0 : 30)
        default:  // Windows around the origin.
            return Rect(
                x: Double.random(in: -2_000...0, using: &rng), y: Double.random(in: -2_000...0, using: &rng),
                width: Double.random(in: 800...3_000, using: &rng), height: Double.random(in: 600...2_000, using: &rng))
        }
    }

    /// Query points: random ones, cell corners, and every frame's corners and edges.
    fileprivate static func probePoints(_ frames: [Int32: Rect], using rng: inout SplitMix64, cell: Double) -> [Point] {
        var points: [Point] = []
        for _ in 0..<1_500 {
            points.append(
                Point(
                    x: Double.random(in: -45_000...45_000, using: &rng),
                    y: Double.random(in: -45_000...45_000, using: &rng)))
            points.append(
                Point(
                    x: Double(Int.random(in: -520...520, using: &rng)) * cell,
                    y: Double(Int.random(in: -520...520, using: &rng)) * cell))
        }
        let sample = frames.sorted { $0.key < $1.key }.shuffled(using: &rng).prefix(800).map(\.value)
        for frame in sample {
            points.append(Point(x: frame.minX, y: frame.minY))
            points.append(Point(x: frame.maxX, y: frame.maxY))
            points.append(Point(x: frame.maxX.nextDown, y: frame.maxY.nextDown))
            points.append(Point(x: frame.maxX, y: frame.midY))
            points.append(Point(x: frame.minX.nextDown, y: frame.midY))
            points.append(Point(x: frame.midX, y: frame.maxY))
            points.append(frame.center)
        }
        return points
    }

    /// Checks every probe point against the linear scan; returns how many points hit something.
    @discardableResult
    fileprivate static func expectMatchesBruteForce(
        _ index: SpatialIndex, _ frames: [Int32: Rect], using rng: inout SplitMix64, cell: Double,
        phase: String
    ) -> Int {
        #expect(index.count == frames.count, "\(phase): count")
        let entries = ContiguousArray(frames.map { SpatialIndex.Entry(id: $0.key, frame: $0.value) })
        var mismatches = 0
        var pointsWithHits = 0
        for point in probePoints(frames, using: &rng, cell: cell) {
            let expected = bruteForceHits(entries, at: point)
            let actual = hits(index, at: point)
            if !expected.isEmpty { pointsWithHits += 1 }
            if actual != expected {
                mismatches += 1
                if mismatches <= 5 {
                    Issue.record("\(phase): at \(point) expected \(expected), got \(actual)")
                }
            }
        }
        #expect(mismatches == 0, "\(phase): \(mismatches) mismatching queries")
        return pointsWithHits
    }

    /// Differential test against a linear scan through inserts, moves, resizes and removes.
    @Test("Randomized inserts, updates and removes agree with a linear scan", arguments: [32.0, 30.0, 7.5])
    func differential(baseCellSize: Double) {
        var rng = SplitMix64(seed: 0x5EED_0000 ^ UInt64(baseCellSize * 1_000))
        var index = SpatialIndex(baseCellSize: baseCellSize)
        var frames: [Int32: Rect] = [:]
        for id in Int32(0)..<4_000 {
            let frame = Self.randomFrame(using: &rng, cell: baseCellSize)
            frames[id] = frame
            index.insert(id, frame: frame)
        }
        let pointsWithHits = Self.expectMatchesBruteForce(
            index, frames, using: &rng, cell: baseCellSize, phase: "insert")
        #expect(pointsWithHits > 3_000, "most probe points should land in frames")

        // Small moves, mostly staying in the same cells.
        for id in frames.keys.sorted() where Int.random(in: 0..<3, using: &rng) != 0 {
            let old = frames[id]!
            let new = old.offset(
                by: Vector(dx: Double.random(in: -3...3, using: &rng), dy: Double.random(in: -3...3, using: &rng)))
            index.update(id, from: old, to: new)
            frames[id] = new
        }
        Self.expectMatchesBruteForce(index, frames, using: &rng, cell: baseCellSize, phase: "small moves")

        // Large moves, resizes across levels, to and from empty frames.
        for id in frames.keys.sorted() where Int.random(in: 0..<2, using: &rng) != 0 {
            let old = frames[id]!
            let new: Rect
            switch Int.random(in: 0..<4, using: &rng) {
            case 0:
                new = old.offset(
                    by: Vector(
                        dx: Double.random(in: -9_000...9_000, using: &rng),
                        dy: Double.random(in: -9_000...9_000, using: &rng)))
            case 1:
                let scale = Double.random(in: 0.05...20, using: &rng)
                new = Rect(origin: old.origin, size: Size(width: old.width * scale, height: old.height * scale))
            case 2:
                new = Rect(origin: old.origin, size: Size(width: Bool.random(using: &rng) ? 0 : old.width, height: 0))
            default:
                new = Self.randomFrame(using: &rng, cell: baseCellSize)
            }
            index.update(id, from: old, to: new)
            frames[id] = new
        }
        Self.expectMatchesBruteForce(index, frames, using: &rng, cell: baseCellSize, phase: "large moves")

        // Remove about half, then re-insert some new ids, reusing recycled buckets.
        for id in frames.keys.sorted() where Bool.random(using: &rng) {
            index.remove(id, frame: frames[id]!)
            frames[id] = nil
        }
        Self.expectMatchesBruteForce(index, frames, using: &rng, cell: baseCellSize, phase: "removes")
        for id in Int32(10_000)..<11_000 {
            let frame = Self.randomFrame(using: &rng, cell: baseCellSize)
            frames[id] = frame
            index.insert(id, frame: frame)
        }
        Self.expectMatchesBruteForce(index, frames, using: &rng, cell: baseCellSize, phase: "re-inserts")

        // Remove everything.
        for (id, frame) in frames { index.remove(id, frame: frame) }
        frames.removeAll()
        Self.expectMatchesBruteForce(index, frames, using: &rng, cell: baseCellSize, phase: "empty")
    }

    /// A board of 50 columns of 2,000 cards: ids 0 (board), 1...50 (columns), 100 + card.
    fileprivate static func board() -> (index: SpatialIndex, cards: [Rect]) {
        var index = SpatialIndex()
        var cards: [Rect] = []
        cards.reserveCapacity(100_000)
        index.insert(0, frame: Rect(x: 0, y: 0, width: 50 * 320 + 20, height: 40 + 2_000 * 70 + 40))
        for column in 0..<50 {
            let x = 20 + Double(column) * 320
            index.insert(Int32(1 + column), frame: Rect(x: x, y: 40, width: 300, height: 2_000 * 70 + 10))
            for row in 0..<2_000 {
                let card = Rect(x: x + 10, y: 50 + Double(row) * 70, width: 280, height: 60)
                index.insert(Int32(100 + cards.count), frame: card)
                cards.append(card)
            }
        }
        return (index, cards)
    }

    /// The board from the performance scenario returns exactly the nested targets under a point.
    @Test("Nested board: a point in a card hits exactly the card, its column and the board")
    func nestedBoard() {
        let (index, cards) = Self.board()
        #expect(index.count == 100_051)
        var rng = SplitMix64(seed: 42)
        for _ in 0..<20_000 {
            let card = Int.random(in: 0..<cards.count, using: &rng)
            let frame = cards[card]
            let point = Point(
                x: Double.random(in: frame.minX..<frame.maxX, using: &rng),
                y: Double.random(in: frame.minY..<frame.maxY, using: &rng))
            let column = Int32(1 + card / 2_000)
            #expect(Self.hits(index, at: point) == [0, column, Int32(100 + card)])
        }
        // Between two cards: the column and the board; in the board's margin: the board alone.
        #expect(Self.hits(index, at: Point(x: 100, y: 115)) == [0, 1])
        #expect(Self.hits(index, at: Point(x: 5, y: 5)) == [0])
        #expect(Self.hits(index, at: Point(x: -1, y: 5)).isEmpty)
    }

    /// Exercises the query path over 100k targets; speed is measured elsewhere.
    @Test("Many queries over 100k targets (no timing asserted)")
    func manyQueries() {
        let (index, _) = Self.board()
        var rng = SplitMix64(seed: 7)
        var total = 0
        for _ in 0..<200_000 {
            let point = Point(
                x: Double.random(in: -100...16_200, using: &rng), y: Double.random(in: -100...140_200, using: &rng))
            index.forEachHit(at: point) { _ in total += 1 }
        }
        #expect(total > 200_000)
    }

    /// Max edges are exclusive, also where they coincide with cell boundaries.
    @Test("A point on the shared edge of adjacent frames hits only the lower or right one")
    func sharedEdges() {
        for base in [32.0, 30.0] {
            var index = SpatialIndex(baseCellSize: base)
            // Rows of a list 32 points tall: shared edges fall on cell boundaries too.
            for row in 0..<100 {
                index.insert(Int32(row), frame: Rect(x: 0, y: Double(row) * 32, width: 400, height: 32))
            }
            // Two side-by-side columns, left of the origin.
            index.insert(1_000, frame: Rect(x: -600, y: 0, width: 300, height: 200))
            index.insert(1_001, frame: Rect(x: -300, y: 0, width: 300, height: 200))
            for row in 1..<100 {
                #expect(Self.hits(index, at: Point(x: 17, y: Double(row) * 32)) == [Int32(row)])
                #expect(Self.hits(index, at: Point(x: 17, y: (Double(row) * 32).nextDown)) == [Int32(row - 1)])
            }
            #expect(Self.hits(index, at: Point(x: 0, y: 0)) == [0])
            #expect(Self.hits(index, at: Point(x: 400, y: 10)).isEmpty)
            #expect(Self.hits(index, at: Point(x: 17, y: 3_200)).isEmpty)
            #expect(Self.hits(index, at: Point(x: -300, y: 100)) == [1_001])
            #expect(Self.hits(index, at: Point(x: -600, y: 100)) == [1_000])
            #expect(Self.hits(index, at: Point(x: 0, y: 100)) == [3])
            #expect(Self.hits(index, at: Point(x: -300, y: 200)).isEmpty)
        }
    }

    /// Empty frames are counted but never hit, and moving them in and out of emptiness works.
    @Test("Zero-size frames are never hit, and can be updated and removed")
    func zeroSize() {
        var index = SpatialIndex()
        let empties = [
            Rect(x: 10, y: 10, width: 0, height: 0),
            Rect(x: 10, y: 10, width: 0, height: 50),
            Rect(x: 10, y: 10, width: 50, height: 0),
            Rect(x: -64, y: -64, width: 0, height: 0),
        ]
        for (id, frame) in empties.enumerated() { index.insert(Int32(id), frame: frame) }
        #expect(index.count == 4)
        for point in [Point(x: 10, y: 10), Point(x: 10, y: 20), Point(x: 20, y: 10), Point(x: -64, y: -64)] {
            #expect(Self.hits(index, at: point).isEmpty)
        }
        let grown = Rect(x: 10, y: 10, width: 20, height: 20)
        index.update(0, from: empties[0], to: grown)
        #expect(Self.hits(index, at: Point(x: 10, y: 10)) == [0])
        index.update(0, from: grown, to: .zero)
        #expect(Self.hits(index, at: Point(x: 10, y: 10)).isEmpty)
        #expect(Self.hits(index, at: .zero).isEmpty)
        index.update(1, from: empties[1], to: empties[2])
        index.remove(0, frame: .zero)
        index.remove(1, frame: empties[2])
        index.remove(2, frame: empties[2])
        #expect(index.count == 1)
        index.remove(3, frame: empties[3])
        #expect(index.count == 0)
    }

    /// Clamped cells, overflow frames and non-finite values still agree with `Rect.contains`.
    @Test("Extreme coordinates: far away, huge, infinite and non-finite frames")
    func extremes() {
        var index = SpatialIndex()
        let frames: [Int32: Rect] = [
            0: Rect(x: 1e12, y: -1e12, width: 10, height: 10),
            1: Rect(x: 1e12 + 5, y: -1e12, width: 10, height: 10),
            2: Rect(x: -1e15, y: -1e15, width: 2e15, height: 2e15),
            3: Rect(x: -1e300, y: -1e300, width: 1e301, height: 1e301),
            4: Rect(x: -1e30, y: 0, width: 2e30, height: 100),
            9: Rect(x: -.infinity, y: 0, width: .infinity, height: 100),
            5: Rect(x: 0, y: 0, width: .infinity, height: .infinity),
            6: Rect(x: .nan, y: 0, width: 10, height: 10),
            7: Rect(x: 1e20, y: 0, width: 1, height: 1),
            8: Rect(x: 0, y: 0, width: 20, height: 20),
        ]
        for (id, frame) in frames { index.insert(id, frame: frame) }
        let points = [
            Point(x: 1e12, y: -1e12), Point(x: 1e12 + 7, y: -1e12 + 1), Point(x: 1e12 + 15, y: -1e12 + 9),
            Point(x: 1e12 + 1e6, y: -1e12), Point(x: 0, y: 0), Point(x: -5, y: 50), Point(x: 5, y: 50),
            Point(x: 1e20, y: 0), Point(x: 1e200, y: 1e200), Point(x: -1e200, y: 50), Point(x: .nan, y: 0),
            Point(x: .infinity, y: 10), Point(x: 10, y: 10),
        ]
        for point in points {
            #expect(Self.hits(index, at: point) == Self.bruteForceHits(frames, at: point), "at \(point)")
        }
        #expect(Self.hits(index, at: Point(x: 10, y: 10)) == [2, 3, 4, 5, 8])
        index.update(5, from: frames[5]!, to: Rect(x: 0, y: 0, width: 1, height: 1))
        index.update(8, from: frames[8]!, to: Rect(x: 0, y: 0, width: .infinity, height: 1))
        #expect(Self.hits(index, at: Point(x: 10, y: 0)) == [2, 3, 4, 8])
        #expect(Self.hits(index, at: Point(x: 0, y: 0)) == [2, 3, 4, 5, 8])
        for (id, frame) in frames where id != 5 && id != 8 { index.remove(id, frame: frame) }
        index.remove(5, frame: Rect(x: 0, y: 0, width: 1, height: 1))
        index.remove(8, frame: Rect(x: 0, y: 0, width: .infinity, height: 1))
        #expect(index.count == 0)
        #expect(Self.hits(index, at: Point(x: 0, y: 0)).isEmpty)
    }

    /// Virtualized-list churn reuses the per-id arrays and the cell table, and moves do not
    /// allocate new storage.
    @Test("Updates within the same cells and re-registered rows keep memory flat")
    func recycling() {
        var index = SpatialIndex()
        var frames: [Rect] = []
        for row in 0..<1_000 {
            let frame = Rect(x: 0, y: Double(row) * 44, width: 320, height: 44)
            frames.append(frame)
            index.insert(Int32(row), frame: frame)
        }
        let initial = index.approximateMemoryFootprint
        #expect(initial >= 1_000 * MemoryLayout<Rect>.stride)
        // Scroll a virtualized list: unregister all rows and register them again, a few times.
        // Recycled buckets may land on cells that need a little more room, but nothing leaks.
        for _ in 0..<4 {
            for (row, frame) in frames.enumerated() { index.remove(Int32(row), frame: frame) }
            #expect(index.count == 0)
            #expect(Self.hits(index, at: Point(x: 1, y: 44)).isEmpty)
            for (row, frame) in frames.enumerated() { index.insert(Int32(row), frame: frame) }
        }
        let footprint = index.approximateMemoryFootprint
        #expect(footprint <= initial + initial / 8)
        // Nudge every row by a point: it stays in its cells.
        for (row, frame) in frames.enumerated() {
            let moved = frame.offset(by: Vector(dx: 1, dy: 0))
            index.update(Int32(row), from: frame, to: moved)
            frames[row] = moved
        }
        #expect(index.approximateMemoryFootprint == footprint)
        #expect(Self.hits(index, at: Point(x: 0, y: 10)).isEmpty)
        #expect(Self.hits(index, at: Point(x: 1, y: 44)) == [1])
    }
}
