import DriverProtocol
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

    /// A frame an app printed in its window's coordinates, on the screen: `origin` is its
    /// window's (or surface's) corner there.
    public init(_ frame: Frame, from origin: ScreenPoint) {
        self.init(x: origin.x + frame.x, y: origin.y + frame.y, width: frame.width, height: frame.height)
    }

    /// Rows an app printed by list, on the screen (`origin`: see ``init(_:from:)``); nil if a
    /// row has no frame (not laid out).
    public static func rows(
        _ printed: [String: [TitledFrame]]?, from origin: ScreenPoint
    ) -> [String: [(title: String, frame: ScreenRect)]]? {
        var rows: [String: [(title: String, frame: ScreenRect)]] = [:]
        for (list, printedRows) in printed ?? [:] {
            var frames: [(title: String, frame: ScreenRect)] = []
            for row in printedRows {
                guard let frame = row.frame else { return nil }
                frames.append((row.title, ScreenRect(frame, from: origin)))
            }
            rows[list] = frames
        }
        return rows
    }

    /// Frames an app printed by name, on the screen (those printed as null are left out).
    public static func frames(_ printed: [String: Frame?]?, from origin: ScreenPoint) -> [String: ScreenRect] {
        (printed ?? [:]).compactMapValues { $0.map { ScreenRect($0, from: origin) } }
    }

    public var midX: Double { x + width / 2 }
    public var midY: Double { y + height / 2 }
    public var maxX: Double { x + width }
    public var maxY: Double { y + height }
    public var center: ScreenPoint { (midX, midY) }
    public var description: String { "(\(x), \(y), \(width)×\(height))" }

    /// The rectangle shrunk by `dx`, `dy` on each side (grown for negative values).
    public func insetBy(_ dx: Double, _ dy: Double) -> ScreenRect {
        ScreenRect(x: x + dx, y: y + dy, width: width - 2 * dx, height: height - 2 * dy)
    }

    /// The square of side `2 * radius` centred on `point`.
    public static func around(_ point: ScreenPoint, radius: Double) -> ScreenRect {
        ScreenRect(x: point.x - radius, y: point.y - radius, width: 2 * radius, height: 2 * radius)
    }
}

/// Real pointer and keyboard input through XTEST (xdotool) on one display.
public struct Pointer: Sendable {
    public let display: XDisplay

    public init(display: XDisplay) { self.display = display }

    /// A point as xdotool's two words (whole pixels), to build command sequences such as a
    /// drag's `then` commands.
    public static func at(_ point: ScreenPoint) -> [String] {
        [String(Int(point.x.rounded())), String(Int(point.y.rounded()))]
    }

    /// Commands pressing button 1 at `from` and moving past the 3-pixel threshold (F1), after
    /// the same pause as a click's (a tooltip hides).
    private static func lifting(at from: ScreenPoint) -> [String] {
        ["mousemove"] + at(from) + ["sleep", "0.15", "mousedown", "1", "sleep", "0.05"]
            + ["mousemove"] + at((from.x + 4, from.y + 4)) + ["sleep", "0.05"]
    }

    /// Commands moving in `steps` small steps with short pauses from `from` to `to`.
    private static func path(from: ScreenPoint, to: ScreenPoint, steps: Int) -> [String] {
        var args: [String] = []
        for step in 1...max(1, steps) {
            let t = Double(step) / Double(max(1, steps))
            args +=
                ["mousemove"] + at((from.x + (to.x - from.x) * t, from.y + (to.y - from.y) * t)) + ["sleep", "0.03"]
        }
        return args
    }

    /// Commands wiggling a pixel at `to` so GTK sees motion there, then resting `pause` seconds.
    private static func arriving(at to: ScreenPoint, pause: Double) -> [String] {
        ["mousemove"] + at((to.x + 1, to.y)) + ["sleep", "0.05"] + ["mousemove"] + at(to) + ["sleep", String(pause)]
    }

    /// Presses button 1 at `from`, moves in small steps with short pauses to `to`, wiggles a
    /// pixel there so GTK sees motion at the destination, rests `pause` seconds, runs `then`
    /// (more xdotool commands, the button still held), and releases unless `release` is false.
    /// `holding` keys ("ctrl") are pressed once the drag is under way and released after the
    /// button. On Wayland they are pressed after the button and before the pointer leaves the
    /// press, as the drag starts: a Wayland drag states what it offers then, and the compositor
    /// keeps the keyboard until the drop (docs/wayland.md). The press itself is without them, so
    /// it does not change the selection.
    public func drag(
        from: ScreenPoint, to: ScreenPoint, steps: Int = 10, holding keys: [String] = [], pause: Double = 0.1,
        then extra: [String] = [], release: Bool = true
    ) throws {
        var args: [String]
        if display.backend == .wayland, !keys.isEmpty {
            args = ["mousemove"] + Self.at(from) + ["sleep", "0.15", "mousedown", "1", "sleep", "0.05"]
            for key in keys { args += ["keydown", key, "sleep", "0.05"] }
            args += ["mousemove"] + Self.at((from.x + 4, from.y + 4)) + ["sleep", "0.05"]
            args += Self.path(from: from, to: to, steps: steps)
        } else {
            args = Self.lifting(at: from) + Self.path(from: from, to: to, steps: steps)
            for key in keys { args += ["keydown", key, "sleep", "0.05"] }
        }
        args += Self.arriving(at: to, pause: pause) + extra
        if release {
            args += ["mouseup", "1"]
            for key in keys { args += ["sleep", "0.05", "keyup", key] }
        }
        try display.xdotool(args)
    }

    /// Presses button 1 at `at` and moves past the drag threshold (F1): a drag is under way, to
    /// be continued with ``move(from:to:steps:)`` and ended with ``release()``.
    public func lift(at: ScreenPoint) throws { try display.xdotool(Self.lifting(at: at)) }

    /// Moves the pointer from `from` to `to` in `steps` steps (the button held or not), then
    /// wiggles a pixel there so GTK sees motion at the destination.
    public func move(from: ScreenPoint, to: ScreenPoint, steps: Int = 6) throws {
        try display.xdotool(Self.path(from: from, to: to, steps: steps) + Self.arriving(at: to, pause: 0.1))
    }

    /// Releases button 1 where the pointer is (ends a drag started with `release: false`).
    public func release() throws { try display.xdotool(["mouseup", "1"]) }

    /// Presses button 1 at `at`, moves by `dx`, `dy` in one-pixel steps, and releases (a press
    /// that moves less than the drag threshold is a click).
    public func press(at: ScreenPoint, movingBy dx: Double, _ dy: Double) throws {
        var args = ["mousemove"] + Self.at(at) + ["sleep", "0.1", "mousedown", "1", "sleep", "0.05"]
        let steps = Int(max(abs(dx), abs(dy)))
        for step in stride(from: 1, through: steps, by: 1) {
            let t = Double(step) / Double(steps)
            args += ["mousemove"] + Self.at((at.x + dx * t, at.y + dy * t)) + ["sleep", "0.04"]
        }
        try display.xdotool(args + ["sleep", "0.1", "mouseup", "1"])
    }

    /// Commands clicking `button` `count` times in quick succession at `at` with `keys` down.
    private static func clicking(at: ScreenPoint, button: Int, count: Int, holding keys: [String]) -> [String] {
        // A pause after the jump: a tooltip shown for the widget the pointer rested on (the
        // Photos' Select button) lies over what is below it until GTK sees the pointer leave and
        // hides it, and took the press (a person's pointer glides away; xdotool's jumps).
        var args = ["mousemove"] + Self.at(at) + ["sleep", "0.15"]
        for key in keys { args += ["keydown", key, "sleep", "0.03"] }
        args += ["click"] + (count > 1 ? ["--repeat", String(count), "--delay", "80"] : []) + [String(button)]
        args += ["sleep", "0.05"]
        for key in keys { args += ["keyup", key] }
        return args
    }

    /// Clicks `button` `count` times in quick succession at `at` (two select a word, three a
    /// line), with `holding` keys down ("ctrl" adds to a selection).
    public func click(at: ScreenPoint, button: Int = 1, count: Int = 1, holding keys: [String] = []) throws {
        try display.xdotool(Self.clicking(at: at, button: button, count: count, holding: keys))
    }

    /// Double-clicks button 1 at `at`, then waits past the double-click time so a following
    /// press is not a third click.
    public func doubleClick(at: ScreenPoint) throws {
        try display.xdotool(Self.clicking(at: at, button: 1, count: 2, holding: []) + ["sleep", "0.6"])
    }

    /// Types a key combination ("ctrl+z").
    public func key(_ combination: String) throws { try display.xdotool(["key", combination]) }

    /// Presses `key` ("ctrl") and keeps it down until ``keyUp(_:)``.
    public func keyDown(_ key: String) throws { try display.xdotool(["keydown", key, "sleep", "0.05"]) }

    /// Releases `key`.
    public func keyUp(_ key: String) throws { try display.xdotool(["keyup", key, "sleep", "0.05"]) }

    /// Types `text` into the focused widget, a character every `delay` milliseconds.
    ///
    /// On Wayland, characters beyond ASCII are entered as a person without a keyboard layout
    /// for them would in a GTK app: Ctrl+Shift+U, the code point in hex, Space (GTK's own
    /// input method). xdotool types such characters by remapping a spare key on the X server,
    /// and weston keeps the key map it read when it started, so they would arrive as nothing.
    public func type(_ text: String, delay: Int = 40) throws {
        guard display.backend == .wayland, text.unicodeScalars.contains(where: { !$0.isASCII }) else {
            try display.xdotool(["type", "--delay", String(delay), text])
            return
        }
        // xdotool's `type` takes every word after it as text, so each plain run is a call of
        // its own; a code point is keys: "ctrl+shift+u", its hex digits, "space".
        var plain = ""
        func flush() throws {
            if !plain.isEmpty { try display.xdotool(["type", "--delay", String(delay), plain]) }
            plain = ""
        }
        for scalar in text.unicodeScalars {
            if scalar.isASCII {
                plain.unicodeScalars.append(scalar)
                continue
            }
            try flush()
            let digits = String(scalar.value, radix: 16).map(String.init)
            try display.xdotool(["key", "--delay", String(delay), "ctrl+shift+u"] + digits + ["space"])
        }
        try flush()
    }

    /// Moves the pointer without pressing anything.
    public func move(to: ScreenPoint) throws { try display.xdotool(["mousemove"] + Self.at(to)) }
}
