import Foundation

/// Real pointer and keyboard input through XTEST (xdotool), on one virtual display.
struct Pointer {
    let display: VirtualDisplay

    private func xdotool(_ arguments: [String]) throws {
        guard let xdotool = Tools.xdotool else {
            throw GtkTestError("xdotool is not installed (apt-get install xdotool).")
        }
        try Tools.run(xdotool, arguments, environment: ["DISPLAY": display.name])
    }

    private static func coordinates(_ x: Double, _ y: Double) -> [String] {
        [String(Int(x.rounded())), String(Int(y.rounded()))]
    }

    /// Presses button 1 at `from`, moves in small steps with short pauses to `to`, wiggles a
    /// pixel there so GTK sees motion at the destination, and releases unless `release` is false.
    /// `holding` keys (e.g. "ctrl") are pressed once the drag is under way and released at the end.
    func drag(
        from: (x: Double, y: Double), to: (x: Double, y: Double), steps: Int = 8, holding keys: [String] = [],
        release: Bool = true
    ) throws {
        var args =
            ["mousemove"] + Self.coordinates(from.x, from.y) + ["sleep", "0.1", "mousedown", "1", "sleep", "0.05"]
        // Past the 3-pixel threshold first (F1), then the way to the destination.
        args += ["mousemove"] + Self.coordinates(from.x + 4, from.y + 4) + ["sleep", "0.04"]
        for step in 1...steps {
            let t = Double(step) / Double(steps)
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
        try xdotool(args)
    }

    /// Releases button 1 where the pointer is (ends a drag started with `release: false`).
    func release() throws { try xdotool(["mouseup", "1"]) }

    /// Presses button 1 at `at`, moves by `dx`, `dy` in one-pixel steps, and releases.
    func press(at: (x: Double, y: Double), movingBy dx: Double, _ dy: Double) throws {
        var args = ["mousemove"] + Self.coordinates(at.x, at.y) + ["sleep", "0.1", "mousedown", "1", "sleep", "0.05"]
        let steps = Int(max(abs(dx), abs(dy)))
        for step in stride(from: 1, through: steps, by: 1) {
            let t = Double(step) / Double(steps)
            args += ["mousemove"] + Self.coordinates(at.x + dx * t, at.y + dy * t) + ["sleep", "0.04"]
        }
        args += ["sleep", "0.1", "mouseup", "1"]
        try xdotool(args)
    }

    /// Types a key combination ("ctrl+z").
    func key(_ combination: String) throws { try xdotool(["key", combination]) }
}
