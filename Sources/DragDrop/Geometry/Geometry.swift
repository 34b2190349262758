// Plain geometry in points. The engine does not depend on CoreGraphics (absent on Linux) or on any
// toolkit's types; platforms convert at the edge.

/// A position in points, in the coordinate space the platform registers frames in.
public struct Point: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Horizontal coordinate, growing to the right.
    public var x: Double
    /// Vertical coordinate, growing downwards.
    public var y: Double

    /// Creates a point.
    @inlinable public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// The origin, `(0, 0)`.
    public static let zero = Point(x: 0, y: 0)

    /// The straight-line distance to `other`. O(1).
    @inlinable public func distance(to other: Point) -> Double {
        let dx = other.x - x
        let dy = other.y - y
        return (dx * dx + dy * dy).squareRoot()
    }

    /// This point moved by `vector`.
    @inlinable public func offset(by vector: Vector) -> Point {
        Point(x: x + vector.dx, y: y + vector.dy)
    }

    public var description: String { "(\(x.compact), \(y.compact))" }
}

/// A displacement in points.
public struct Vector: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Horizontal component.
    public var dx: Double
    /// Vertical component.
    public var dy: Double

    /// Creates a vector.
    @inlinable public init(dx: Double, dy: Double) {
        self.dx = dx
        self.dy = dy
    }

    /// The null vector.
    public static let zero = Vector(dx: 0, dy: 0)

    /// Whether both components are zero.
    @inlinable public var isZero: Bool { dx == 0 && dy == 0 }

    public var description: String { "(\(dx.compact), \(dy.compact))" }
}

/// A width and a height in points.
public struct Size: Hashable, Sendable, Codable {
    /// Horizontal extent.
    public var width: Double
    /// Vertical extent.
    public var height: Double

    /// Creates a size.
    @inlinable public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// The empty size.
    public static let zero = Size(width: 0, height: 0)
}

/// An axis-aligned rectangle. `minX`/`minY` are inclusive and `maxX`/`maxY` exclusive, so two
/// rows that share an edge never both contain the point on it.
public struct Rect: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Top-left corner.
    public var origin: Point
    /// Extent; negative sizes are not supported.
    public var size: Size

    /// Creates a rectangle from its corner and size.
    @inlinable public init(origin: Point, size: Size) {
        self.origin = origin
        self.size = size
    }

    /// Creates a rectangle from its corner coordinates and size.
    @inlinable public init(x: Double, y: Double, width: Double, height: Double) {
        self.origin = Point(x: x, y: y)
        self.size = Size(width: width, height: height)
    }

    /// The empty rectangle at the origin.
    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

    @inlinable public var minX: Double { origin.x }
    @inlinable public var minY: Double { origin.y }
    @inlinable public var maxX: Double { origin.x + size.width }
    @inlinable public var maxY: Double { origin.y + size.height }
    @inlinable public var midX: Double { origin.x + size.width / 2 }
    @inlinable public var midY: Double { origin.y + size.height / 2 }
    @inlinable public var width: Double { size.width }
    @inlinable public var height: Double { size.height }
    /// The centre point.
    @inlinable public var center: Point { Point(x: midX, y: midY) }
    /// Whether the rectangle covers no area.
    @inlinable public var isEmpty: Bool { size.width <= 0 || size.height <= 0 }

    /// Whether `point` lies inside (min edges inclusive, max edges exclusive). O(1).
    @inlinable public func contains(_ point: Point) -> Bool {
        point.x >= origin.x && point.y >= origin.y && point.x < origin.x + size.width
            && point.y < origin.y + size.height
    }

    /// Whether the two rectangles share any area. O(1).
    @inlinable public func intersects(_ other: Rect) -> Bool {
        !isEmpty && !other.isEmpty && other.minX < maxX && minX < other.maxX && other.minY < maxY
            && minY < other.maxY
    }

    /// The rectangle moved by `vector`.
    @inlinable public func offset(by vector: Vector) -> Rect {
        Rect(origin: origin.offset(by: vector), size: size)
    }

    /// The rectangle shrunk by `dx` on the left and right and `dy` on the top and bottom.
    @inlinable public func insetBy(dx: Double, dy: Double) -> Rect {
        Rect(x: minX + dx, y: minY + dy, width: max(0, width - 2 * dx), height: max(0, height - 2 * dy))
    }

    public var description: String {
        "[\(minX.compact), \(minY.compact), \(width.compact), \(height.compact)]"
    }
}

extension Double {
    /// Prints whole numbers without a trailing `.0`, for stable human-readable output.
    @usableFromInline var compact: String {
        if self == rounded(), abs(self) < 1e15 { return String(Int64(self)) }
        return String(self)
    }
}
