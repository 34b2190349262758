import Foundation

/// An 8-bit RGB colour.
typealias RGB = (red: UInt8, green: UInt8, blue: UInt8)

/// Raw XTEST input for sequences `Pointer` does not cover: holding the button across several
/// moves, keys held across phases, clicks.
struct XInput {
    let display: VirtualDisplay

    func run(_ arguments: [String]) throws {
        guard let xdotool = Tools.xdotool else {
            throw GtkTestError("xdotool is not installed (apt-get install xdotool).")
        }
        try Tools.run(xdotool, arguments, environment: ["DISPLAY": display.name])
    }

    static func at(_ x: Double, _ y: Double) -> [String] { [String(Int(x.rounded())), String(Int(y.rounded()))] }

    /// Presses button 1 at `from` and moves past the drag threshold (F1); the drag is under way.
    func lift(at from: (x: Double, y: Double)) throws {
        try run(
            ["mousemove"] + Self.at(from.x, from.y) + ["sleep", "0.1", "mousedown", "1", "sleep", "0.05", "mousemove"]
                + Self.at(from.x + 4, from.y + 4) + ["sleep", "0.05"])
    }

    /// Moves the pointer to `to` in `steps` steps (button held or not), then wiggles a pixel so
    /// GTK sees motion there.
    func move(from: (x: Double, y: Double), to: (x: Double, y: Double), steps: Int = 6) throws {
        var args: [String] = []
        for step in 1...max(1, steps) {
            let t = Double(step) / Double(max(1, steps))
            args +=
                ["mousemove"] + Self.at(from.x + (to.x - from.x) * t, from.y + (to.y - from.y) * t) + ["sleep", "0.03"]
        }
        args += ["mousemove"] + Self.at(to.x + 1, to.y) + ["sleep", "0.05", "mousemove"] + Self.at(to.x, to.y)
        args += ["sleep", "0.1"]
        try run(args)
    }

    func release() throws { try run(["mouseup", "1"]) }
    func keyDown(_ key: String) throws { try run(["keydown", key, "sleep", "0.05"]) }
    func keyUp(_ key: String) throws { try run(["keyup", key, "sleep", "0.05"]) }

    /// A click at `at`, optionally with a key held (Ctrl-click adds to the selection).
    func click(at: (x: Double, y: Double), holding key: String? = nil) throws {
        var args = ["mousemove"] + Self.at(at.x, at.y) + ["sleep", "0.1"]
        if let key { args += ["keydown", key, "sleep", "0.05"] }
        args += ["click", "1", "sleep", "0.1"]
        if let key { args += ["keyup", key, "sleep", "0.05"] }
        try run(args)
    }
}

extension ScreenRect {
    var maxX: Double { x + width }

    /// The rectangle shrunk by `dx`, `dy` on each side (grown for negative values).
    func insetBy(_ dx: Double, _ dy: Double) -> ScreenRect {
        ScreenRect(x: x + dx, y: y + dy, width: width - 2 * dx, height: height - 2 * dy)
    }

    /// The square of side `2 * radius` centred on a point.
    static func around(_ point: (x: Double, y: Double), radius: Double) -> ScreenRect {
        ScreenRect(x: point.x - radius, y: point.y - radius, width: 2 * radius, height: 2 * radius)
    }
}

extension Screenshot {
    /// The pixel at `x`, `y` (clamped to the screen).
    func pixel(_ x: Int, _ y: Int) -> RGB {
        let cx = min(max(0, x), width - 1), cy = min(max(0, y), height - 1)
        let o = (cy * width + cx) * 3
        return (pixels[o], pixels[o + 1], pixels[o + 2])
    }

    /// How many pixels inside `rect` satisfy `predicate`.
    func count(in rect: ScreenRect, where predicate: (RGB) -> Bool) -> Int {
        let x0 = max(0, Int(rect.x)), y0 = max(0, Int(rect.y))
        let x1 = min(width, Int(rect.x + rect.width)), y1 = min(height, Int(rect.y + rect.height))
        guard x0 < x1, y0 < y1 else { return 0 }
        var matches = 0
        for y in y0..<y1 {
            for x in x0..<x1 where predicate(pixel(x, y)) { matches += 1 }
        }
        return matches
    }

    /// The smallest rectangle holding every pixel inside `rect` that satisfies `predicate`, or
    /// nil if none does.
    func bounds(in rect: ScreenRect, where predicate: (RGB) -> Bool) -> ScreenRect? {
        var minX = Int.max, minY = Int.max, maxX = Int.min, maxY = Int.min
        let x0 = max(0, Int(rect.x)), y0 = max(0, Int(rect.y))
        let x1 = min(width, Int(rect.x + rect.width)), y1 = min(height, Int(rect.y + rect.height))
        guard x0 < x1, y0 < y1 else { return nil }
        for y in y0..<y1 {
            for x in x0..<x1 where predicate(pixel(x, y)) {
                minX = min(minX, x)
                maxX = max(maxX, x)
                minY = min(minY, y)
                maxY = max(maxY, y)
            }
        }
        guard minX <= maxX else { return nil }
        return ScreenRect(
            x: Double(minX), y: Double(minY), width: Double(maxX - minX + 1), height: Double(maxY - minY + 1))
    }

    /// The smallest rectangle inside `rect` holding every pixel that differs from `other`'s by
    /// more than `tolerance` on a channel, or nil if none does.
    func differenceBounds(from other: Screenshot, in rect: ScreenRect, tolerance: Int = 8) -> ScreenRect? {
        let x0 = max(0, Int(rect.x)), y0 = max(0, Int(rect.y))
        let x1 = min(width, other.width, Int(rect.x + rect.width))
        let y1 = min(height, other.height, Int(rect.y + rect.height))
        guard x0 < x1, y0 < y1 else { return nil }
        var minX = Int.max, minY = Int.max, maxX = Int.min, maxY = Int.min
        for y in y0..<y1 {
            for x in x0..<x1 {
                let a = pixel(x, y), b = other.pixel(x, y)
                guard
                    abs(Int(a.red) - Int(b.red)) > tolerance || abs(Int(a.green) - Int(b.green)) > tolerance
                        || abs(Int(a.blue) - Int(b.blue)) > tolerance
                else { continue }
                minX = min(minX, x)
                maxX = max(maxX, x)
                minY = min(minY, y)
                maxY = max(maxY, y)
            }
        }
        guard minX <= maxX else { return nil }
        return ScreenRect(
            x: Double(minX), y: Double(minY), width: Double(maxX - minX + 1), height: Double(maxY - minY + 1))
    }

    /// How many pixels inside `rect` differ from `other`'s by more than `tolerance` on a channel.
    func differences(from other: Screenshot, in rect: ScreenRect, tolerance: Int = 8) -> Int {
        var changed = 0
        let x0 = max(0, Int(rect.x)), y0 = max(0, Int(rect.y))
        let x1 = min(width, other.width, Int(rect.x + rect.width))
        let y1 = min(height, other.height, Int(rect.y + rect.height))
        guard x0 < x1, y0 < y1 else { return 0 }
        for y in y0..<y1 {
            for x in x0..<x1 {
                let a = pixel(x, y), b = other.pixel(x, y)
                if abs(Int(a.red) - Int(b.red)) > tolerance || abs(Int(a.green) - Int(b.green)) > tolerance
                    || abs(Int(a.blue) - Int(b.blue)) > tolerance
                {
                    changed += 1
                }
            }
        }
        return changed
    }
}

/// Whether a pixel is within `tolerance` of `color` on every channel.
func near(_ color: RGB, _ tolerance: Int = 3) -> (RGB) -> Bool {
    { p in
        abs(Int(p.red) - Int(color.red)) <= tolerance && abs(Int(p.green) - Int(color.green)) <= tolerance
            && abs(Int(p.blue) - Int(color.blue)) <= tolerance
    }
}

extension FixtureApp {
    /// The latest `controls` line of the visuals scene, in screen coordinates.
    func controls() throws -> [String: ScreenRect] {
        guard let line = objects().last(where: { $0["kind"] as? String == "controls" }) else {
            throw GtkTestError("The fixture printed no controls line (is it running --scene visuals?)")
        }
        var result: [String: ScreenRect] = [:]
        for (name, value) in line {
            guard let a = value as? [Double], a.count == 4 else { continue }
            result[name] = ScreenRect(x: origin.x + a[0], y: origin.y + a[1], width: a[2], height: a[3])
        }
        return result
    }

    /// A window-relative rectangle printed by the fixture, in screen coordinates.
    func screenRect(_ value: Any?) -> ScreenRect? {
        guard let a = value as? [Double], a.count == 4 else { return nil }
        return ScreenRect(x: origin.x + a[0], y: origin.y + a[1], width: a[2], height: a[3])
    }

    /// The latest offset the Notes scroll view reported (0 before any scrolling).
    var notesOffset: Double {
        objects().last { $0["kind"] as? String == "scroll" }?["offset"] as? Double ?? 0
    }
}
