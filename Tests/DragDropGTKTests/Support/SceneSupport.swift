import Foundation
import Testing

/// Frames a scene prints (`{"kind":"layout","frames":{name:[x,y,w,h]},"words":{view:{word:…}}}`),
/// in screen coordinates.
struct SceneLayout {
    var frames: [String: ScreenRect] = [:]
    var words: [String: [String: ScreenRect]] = [:]

    func frame(_ name: String) throws -> ScreenRect {
        guard let frame = frames[name] else { throw GtkTestError("No frame '\(name)' in \(frames.keys.sorted())") }
        return frame
    }

    func word(_ word: String, in view: String) throws -> ScreenRect {
        guard let frame = words[view]?[word] else {
            throw GtkTestError("No word '\(word)' in view '\(view)': \(words[view]?.keys.sorted() ?? [])")
        }
        return frame
    }
}

extension FixtureApp {
    /// Launches the fixture's `--scene NAME` on a fresh display, runs `body`, and stops both.
    static func withScene(
        _ scene: String, size: (Int, Int) = (640, 420), _ body: (FixtureApp, Pointer) async throws -> Void
    ) async throws {
        let display = try await VirtualDisplay.start()
        defer { display.stop() }
        let app = try await FixtureApp.launch(on: display, size: size, arguments: ["--scene", scene])
        defer { app.stop() }
        try await body(app, Pointer(display: display))
    }

    /// The newest layout line, once none arrived for `quiet` seconds.
    func settledSceneLayout(quiet: Double = 0.3, timeout: Double = 10) async throws -> SceneLayout {
        let deadline = Date().addingTimeInterval(timeout)
        var last = -1
        var lastChange = Date()
        while Date() < deadline {
            let layouts = objects().enumerated().filter { $0.element["kind"] as? String == "layout" }
            if let newest = layouts.last {
                if newest.offset != last {
                    last = newest.offset
                    lastChange = Date()
                } else if Date().timeIntervalSince(lastChange) >= quiet {
                    return sceneLayout(newest.element)
                }
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw GtkTestError("The scene's layout did not settle within \(timeout) s.")
    }

    private func sceneLayout(_ object: JSONObject) -> SceneLayout {
        func rect(_ value: Any?) -> ScreenRect? {
            guard let a = value as? [Double], a.count == 4 else { return nil }
            return ScreenRect(x: origin.x + a[0], y: origin.y + a[1], width: a[2], height: a[3])
        }
        var layout = SceneLayout()
        for (name, value) in object["frames"] as? [String: Any] ?? [:] { layout.frames[name] = rect(value) }
        for (view, words) in object["words"] as? [String: [String: Any]] ?? [:] {
            layout.words[view] = words.compactMapValues(rect)
        }
        return layout
    }

    /// Waits for a line of `kind` at or after `index` where `predicate` holds.
    @discardableResult
    func waitFor(
        kind: String, _ what: String, after index: Int, timeout: Double = 10,
        where predicate: (JSONObject) -> Bool = { _ in true }
    ) async throws -> JSONObject {
        try await waitFor(what, after: index, timeout: timeout) { $0["kind"] as? String == kind && predicate($0) }
    }

    /// The newest line of `kind` with `"id": id` (when given).
    func latest(kind: String, id: String? = nil) -> JSONObject? {
        objects().last { $0["kind"] as? String == kind && (id == nil || $0["id"] as? String == id) }
    }

    /// The feedback event names at or after `index`.
    func eventNames(from index: Int) -> [String] { events(from: index).compactMap { $0["event"] as? String } }

    /// Opens the edit menu with a secondary click at `at` and returns its items and their frames
    /// (screen coordinates).
    func openMenu(at point: (x: Double, y: Double), pointer: Pointer, owner: String) async throws
        -> (items: [String], frames: [String: ScreenRect])
    {
        let mark = lineCount
        try pointer.click(at: point, button: 3)
        let menu = try await waitFor(kind: "menu", "the \(owner) edit menu", after: mark) {
            $0["owner"] as? String == owner
        }
        var frames: [String: ScreenRect] = [:]
        for (title, value) in menu["frames"] as? [String: Any] ?? [:] {
            if let a = value as? [Double], a.count == 4 {
                frames[title] = ScreenRect(x: origin.x + a[0], y: origin.y + a[1], width: a[2], height: a[3])
            }
        }
        return (menu["items"] as? [String] ?? [], frames)
    }

    /// Opens the edit menu at `at` and clicks its item `title`.
    func chooseMenuItem(_ title: String, at point: (x: Double, y: Double), pointer: Pointer, owner: String) async throws
    {
        let menu = try await openMenu(at: point, pointer: pointer, owner: owner)
        guard let frame = menu.frames[title] else {
            throw GtkTestError("The \(owner) menu has no '\(title)': \(menu.items)")
        }
        try await Task.sleep(for: .milliseconds(150))
        try pointer.click(at: (frame.midX, frame.midY))
    }
}

extension Pointer {
    /// Runs xdotool with `arguments` on this display.
    func run(_ arguments: [String]) throws {
        guard let xdotool = Tools.xdotool else {
            throw GtkTestError("xdotool is not installed (apt-get install xdotool).")
        }
        try Tools.run(xdotool, arguments, environment: ["DISPLAY": display.name])
    }

    static func at(_ point: (x: Double, y: Double)) -> [String] {
        [String(Int(point.x.rounded())), String(Int(point.y.rounded()))]
    }

    /// Clicks `button` at `at`, holding `keys` (e.g. "ctrl") during the click.
    func click(at point: (x: Double, y: Double), button: Int = 1, holding keys: [String] = []) throws {
        var args = ["mousemove"] + Self.at(point) + ["sleep", "0.1"]
        for key in keys { args += ["keydown", key, "sleep", "0.03"] }
        args += ["click", String(button)]
        for key in keys { args += ["sleep", "0.03", "keyup", key] }
        try run(args)
    }

    /// Double-clicks button 1 at `at`, then waits past the double-click time so a following press
    /// is not a third click.
    func doubleClick(at point: (x: Double, y: Double)) throws {
        try run(
            ["mousemove"] + Self.at(point) + [
                "sleep", "0.1", "click", "--repeat", "2", "--delay", "80", "1", "sleep", "0.6",
            ])
    }

    /// Presses at `from`, moves in steps to `to`, pauses there for `pause` seconds, runs `then`
    /// (more xdotool commands, with the button still held), and releases unless `release` is false.
    func drag(
        from: (x: Double, y: Double), to: (x: Double, y: Double), pause: Double, then extra: [String] = [],
        release: Bool = true
    ) throws {
        var args = ["mousemove"] + Self.at(from) + ["sleep", "0.1", "mousedown", "1", "sleep", "0.05"]
        args += ["mousemove"] + Self.at((from.x + 4, from.y + 4)) + ["sleep", "0.04"]
        for step in 1...8 {
            let t = Double(step) / 8
            args +=
                ["mousemove"] + Self.at((from.x + (to.x - from.x) * t, from.y + (to.y - from.y) * t)) + [
                    "sleep", "0.03",
                ]
        }
        args += ["mousemove"] + Self.at((to.x + 1, to.y)) + ["sleep", "0.05"]
        args += ["mousemove"] + Self.at(to) + ["sleep", String(pause)]
        args += extra
        if release { args += ["mouseup", "1"] }
        try run(args)
    }
}
