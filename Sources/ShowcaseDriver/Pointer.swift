import Foundation

/// A point on the screen, in X pixels.
public typealias ScreenPoint = (x: Double, y: Double)

/// A screen rectangle (X pixels).
public struct ScreenRect: Sendable, CustomStringConvertible {
    public var x, y, width, height: Double
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
    public var midX: Double { x + width / 2 }
    public var midY: Double { y + height / 2 }
    public var maxX: Double { x + width }
    public var maxY: Double { y + height }
    public var center: ScreenPoint { (midX, midY) }
    public var description: String { "(\(x), \(y), \(width)×\(height))" }
}

/// Real pointer and keyboard input through XTEST (xdotool) on one display.
public struct Pointer: Sendable {
    public let display: XDisplay

    public init(display: XDisplay) { self.display = display }

    private static func coordinates(_ x: Double, _ y: Double) -> [String] {
        [String(Int(x.rounded())), String(Int(y.rounded()))]
    }

    /// Presses button 1 at `from`, moves in small steps with short pauses to `to`, wiggles a
    /// pixel there so GTK sees motion at the destination, and releases unless `release` is
    /// false. `holding` keys ("ctrl") are pressed once the drag is under way and released after
    /// the button.
    public func drag(
        from: ScreenPoint, to: ScreenPoint, steps: Int = 10, holding keys: [String] = [], release: Bool = true
    ) throws {
        var args =
            ["mousemove"] + Self.coordinates(from.x, from.y) + ["sleep", "0.1", "mousedown", "1", "sleep", "0.05"]
        // Past the 3-pixel threshold first (F1), then the way to the destination.
        args += ["mousemove"] + Self.coordinates(from.x + 4, from.y + 4) + ["sleep", "0.05"]
        for step in 1...max(1, steps) {
            let t = Double(step) / Double(max(1, steps))
            args += ["mousemove"] + Self.coordinates(from.x + (to.x - from.x) * t, from.y + (to.y - from.y) * t)
            args += ["sleep", "0.03"]
        }
        for key in keys { args += ["keydown", key, "sleep", "0.05"] }
        args += ["mousemove"] + Self.coordinates(to.x + 1, to.y) + ["sleep", "0.05"]
        args += ["mousemove"] + Self.coordinates(to.x, to.y) + ["sleep", "0.1"]
        if release {
            args += ["mouseup", "1"]
            for key in keys { args += ["sleep", "0.05", "keyup", key] }
        }
        try display.xdotool(args)
    }

    /// Releases button 1 where the pointer is (ends a drag started with `release: false`).
    public func release() throws { try display.xdotool(["mouseup", "1"]) }

    /// Clicks button 1 at `at`, with `holding` keys down ("ctrl" adds to a selection).
    public func click(at: ScreenPoint, holding keys: [String] = []) throws {
        var args = ["mousemove"] + Self.coordinates(at.x, at.y) + ["sleep", "0.05"]
        for key in keys { args += ["keydown", key, "sleep", "0.03"] }
        args += ["click", "1", "sleep", "0.05"]
        for key in keys { args += ["keyup", key] }
        try display.xdotool(args)
    }

    /// Types a key combination ("ctrl+z").
    public func key(_ combination: String) throws { try display.xdotool(["key", combination]) }

    /// Moves the pointer without pressing anything.
    public func move(to: ScreenPoint) throws { try display.xdotool(["mousemove"] + Self.coordinates(to.x, to.y)) }
}
