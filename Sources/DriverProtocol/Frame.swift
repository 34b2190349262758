/// A rectangle in an app's window coordinates, printed as `[x, y, width, height]`.
public struct Frame: Codable, Sendable, Hashable, CustomStringConvertible {
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

    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        x = try container.decode(Double.self)
        y = try container.decode(Double.self)
        width = try container.decode(Double.self)
        height = try container.decode(Double.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        for value in [x, y, width, height] { try container.encode(value) }
    }

    public var description: String { "[\(x), \(y), \(width), \(height)]" }
}

/// A titled thing on screen (a row, a tile): its title and frame (nil while not laid out).
public struct TitledFrame: Codable, Sendable, Hashable {
    public var title: String
    public var frame: Frame?

    public init(title: String, frame: Frame?) {
        self.title = title
        self.frame = frame
    }
}
