/// The scenes the lookup benchmarks use, as plain rectangles, so that the engine benchmark and
/// the GTK tool build exactly the same layout and probe exactly the same pointer positions.

/// An axis-aligned rectangle in absolute (window) coordinates; `contains` has the engine's
/// semantics (left and top edges inside, right and bottom edges outside).
public struct Box: Sendable, Equatable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    @inline(__always) public func contains(_ px: Double, _ py: Double) -> Bool {
        px >= x && py >= y && px < x + width && py < y + height
    }
}

/// What a node stands for in the scene (and so which roles it plays).
public enum NodeKind: UInt8, Sendable {
    /// The window: the root, no roles.
    case window
    /// A plain container with no roles (workspace, board, scroll view).
    case container
    /// A column: a destination.
    case column
    /// A column's header: spring-loaded.
    case header
    /// A column's scroll view: autoscrolls.
    case scroll
    /// A list or a section of a list: a destination with an insertion layout.
    case list
    /// A card or a grid cell: draggable, and a destination too (a sortable item, as in dnd-kit,
    /// where every sortable item is also a droppable).
    case card
}

/// One node of a scene: its parent (an index into the scene's nodes, or -1), its absolute
/// frame and its kind. Parents always come before their children.
public struct Node: Sendable {
    public var parent: Int32
    public var frame: Box
    public var kind: NodeKind

    /// Whether the node is a drop destination.
    public var accepts: Bool { kind == .column || kind == .list || kind == .card }
}

/// A scene: nodes in registration order, the extent pointer positions are drawn from, and the
/// number of cards (the "N destinations" of the benchmark's name).
public struct BenchScene: Sendable {
    public enum Layout: String, Sendable, CaseIterable {
        /// A flat grid: a window holding N cells.
        case grid
        /// A board: 50 columns of N/50 cards in sections of up to 100, cards 8 levels deep
        /// (window > workspace > board > column > scroll view > list > section > card).
        case board
    }

    public var layout: Layout
    public var nodes: [Node]
    public var width: Double
    public var height: Double
    public var cardCount: Int

    /// Builds the scene `layout` with `count` cards.
    public static func make(_ layout: Layout, count: Int) -> BenchScene {
        switch layout {
        case .grid: return grid(count: count)
        case .board: return board(cards: count)
        }
    }

    /// A flat grid of `count` 40 x 40 cells on a 44-point pitch in a window.
    public static func grid(count: Int) -> BenchScene {
        let columns = Int((Double(count)).squareRoot().rounded(.up))
        let rows = (count + columns - 1) / columns
        let pitch = 44.0
        let width = Double(columns) * pitch + 4
        let height = Double(rows) * pitch + 4
        var nodes: [Node] = []
        nodes.reserveCapacity(count + 1)
        nodes.append(Node(parent: -1, frame: Box(x: 0, y: 0, width: width, height: height), kind: .window))
        for i in 0..<count {
            let frame = Box(x: 4 + Double(i % columns) * pitch, y: 4 + Double(i / columns) * pitch, width: 40, height: 40)
            nodes.append(Node(parent: 0, frame: frame, kind: .card))
        }
        return BenchScene(layout: .grid, nodes: nodes, width: width, height: height, cardCount: count)
    }

    /// Geometry of the board.
    public enum BoardMetrics {
        public static let columns = 50
        public static let columnPitch = 300.0
        public static let columnWidth = 280.0
        public static let top = 60.0
        public static let headerHeight = 40.0
        public static let sectionSize = 100
        public static let sectionHeader = 24.0
        public static let cardPitch = 40.0
        public static let cardHeight = 36.0
        public static let cardInset = 10.0
    }

    /// A board of 50 columns with `cards / 50` cards each (at least one), grouped in sections of
    /// up to 100 cards. Nothing is clipped: every node lies inside its parent.
    public static func board(cards: Int, viewportHeight: Double? = nil) -> BenchScene {
        typealias M = BoardMetrics
        let perColumn = max(1, cards / M.columns)
        let sections = (perColumn + M.sectionSize - 1) / M.sectionSize
        var contentHeight = 0.0
        for s in 0..<sections {
            let inSection = min(M.sectionSize, perColumn - s * M.sectionSize)
            contentHeight += M.sectionHeader + Double(inSection) * M.cardPitch
        }
        let scrollHeight = viewportHeight ?? contentHeight
        let width = Double(M.columns) * M.columnPitch + 20
        let height = M.top + M.headerHeight + scrollHeight + 20
        var nodes: [Node] = []
        nodes.reserveCapacity(3 + M.columns * (4 + sections) + perColumn * M.columns)
        func add(_ parent: Int, _ frame: Box, _ kind: NodeKind) -> Int {
            nodes.append(Node(parent: Int32(parent), frame: frame, kind: kind))
            return nodes.count - 1
        }
        let window = add(-1, Box(x: 0, y: 0, width: width, height: height), .window)
        let workspace = add(window, Box(x: 0, y: 0, width: width, height: height), .container)
        let board = add(workspace, Box(x: 0, y: M.top - 10, width: width, height: height - M.top + 10), .container)
        for c in 0..<M.columns {
            let x = 20 + Double(c) * M.columnPitch
            let column = add(board, Box(x: x, y: M.top, width: M.columnWidth, height: M.headerHeight + scrollHeight), .column)
            _ = add(column, Box(x: x, y: M.top, width: M.columnWidth, height: M.headerHeight), .header)
            let scrollTop = M.top + M.headerHeight
            let scroll = add(column, Box(x: x, y: scrollTop, width: M.columnWidth, height: scrollHeight), .scroll)
            let list = add(scroll, Box(x: x, y: scrollTop, width: M.columnWidth, height: contentHeight), .list)
            var y = scrollTop
            for s in 0..<sections {
                let inSection = min(M.sectionSize, perColumn - s * M.sectionSize)
                let sectionHeight = M.sectionHeader + Double(inSection) * M.cardPitch
                let section = add(list, Box(x: x, y: y, width: M.columnWidth, height: sectionHeight), .list)
                for k in 0..<inSection {
                    let cardY = y + M.sectionHeader + Double(k) * M.cardPitch
                    _ = add(
                        section,
                        Box(x: x + M.cardInset, y: cardY, width: M.columnWidth - 2 * M.cardInset, height: M.cardHeight),
                        .card)
                }
                y += sectionHeight
            }
        }
        return BenchScene(layout: .board, nodes: nodes, width: width, height: height, cardCount: perColumn * M.columns)
    }

    /// Depth of node `i` (the root is 0).
    public func depth(of i: Int) -> Int {
        var d = 0
        var p = nodes[i].parent
        while p >= 0 {
            d += 1
            p = nodes[Int(p)].parent
        }
        return d
    }

    /// `count` pointer positions drawn uniformly over the scene with a fixed seed.
    public func randomPoints(_ count: Int, seed: UInt64 = 0x5EED) -> [(x: Double, y: Double)] {
        var rng = SplitMix64(seed: seed)
        return (0..<count).map { _ in (rng.nextUnit() * width, rng.nextUnit() * height) }
    }
}

/// A small, fast, seedable generator (SplitMix64), so every run draws the same positions.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A double in 0..<1.
    public mutating func nextUnit() -> Double { Double(next() >> 11) * 0x1p-53 }
}
