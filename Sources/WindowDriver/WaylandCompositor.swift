import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Which windowing system the apps under test run on.
public enum DisplayBackend: String, Sendable, CaseIterable {
    /// X11: the apps on Xvfb directly (GDK_BACKEND=x11).
    case x11
    /// Wayland: the apps on weston, nested in Xvfb (GDK_BACKEND=wayland); input and screenshots
    /// still go through the Xvfb.
    case wayland

    /// The environment variable choosing the backend of private displays.
    public static let variable = "DRAGDROP_DISPLAY_BACKEND"

    /// `$DRAGDROP_DISPLAY_BACKEND` ("x11" or "wayland"), x11 when unset or unknown.
    public static var current: DisplayBackend {
        ProcessInfo.processInfo.environment[variable].flatMap { DisplayBackend(rawValue: $0.lowercased()) } ?? .x11
    }
}

/// A window on the screen: its frame (the X window, or the Wayland surface with GTK's
/// client-side shadow) and its content (where the app's window coordinates start).
public struct PlacedWindow: Sendable {
    public var frame: ScreenRect
    public var content: ScreenRect
}

/// A headless Wayland compositor for tests: Debian's weston with its X11 backend, nested in an
/// Xvfb and filling it with one output, its desktop shell without panel, lock or animations.
///
/// xdotool drives the pointer and keys on the Xvfb; weston's output window passes them on to
/// the Wayland apps, and a drag between two apps stays on that one output. Apps keep the size
/// they ask for; the shell puts a new window where it likes, so ``place(windowNamed:at:)`` reads
/// where it is from weston's scene graph (weston runs with `--debug`; `weston-debug
/// scene-graph` prints every view) and moves it as a person does, dragging it with Super held.
///
/// The Xvfb is one pixel wider than the output: weston's X11 backend follows the X pointer by
/// relative motion from where it last entered the window, so the pointer is taken out of the
/// window and back in (an `EnterNotify`, which carries the absolute position) before windows
/// are placed; without that, weston's pointer sat a constant offset away from the X pointer.
public final class WaylandCompositor: @unchecked Sendable {
    /// The compositor's socket name (`WAYLAND_DISPLAY`).
    public let socket = "wayland-dragdrop"
    /// The private runtime directory (`XDG_RUNTIME_DIR`) holding the socket, weston.ini and
    /// the log.
    public let runtimeDirectory: String
    /// The output's size.
    public let width: Int
    public let height: Int
    private let display: String
    private let process: ChildProcess

    /// weston's log file (for failure messages).
    public var logPath: String { runtimeDirectory + "/weston.log" }

    /// Why weston cannot run here, or nil when it can.
    public static var missing: String? {
        for tool in ["weston", "weston-debug", "xwininfo"] where Tools.find(tool) == nil {
            return "\(tool) is not installed (apt-get install weston x11-utils, or `make deps`)."
        }
        return nil
    }

    /// Starts weston on X display `display` (at least `width` + 1 pixels wide) with one output of
    /// `width` × `height` at the top-left corner, and waits until it accepts clients (15 s).
    public init(on display: String, width: Int, height: Int) throws {
        if let missing = Self.missing { throw DriverError(missing) }
        var template = Array("/tmp/dragdrop-wayland-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else {
            throw DriverError("Could not create a runtime directory for weston: \(String(cString: strerror(errno))).")
        }
        let directory = String(cString: made)
        chmod(directory, 0o700)
        runtimeDirectory = directory
        self.display = display
        self.width = width
        self.height = height
        // No panel (windows may go to the top), no screen lock, no animations (a window is where
        // it stays the moment it maps), no on-screen keyboard.
        let ini = """
            [core]
            idle-time=0
            require-input=false

            [shell]
            panel-position=none
            locking=false
            background-color=0xff2e3436
            animation=none
            close-animation=none
            startup-animation=none
            focus-animation=none

            [input-method]
            path=

            """
        let config = directory + "/weston.ini"
        try ini.write(toFile: config, atomically: true, encoding: .utf8)
        let log = open(directory + "/weston.log", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        defer { if log >= 0 { close(log) } }
        process = try ChildProcess(
            Tools.find("weston") ?? "weston",
            [
                "--backend=x11-backend.so", "--use-pixman", "--socket=\(socket)", "--width=\(width)",
                "--height=\(height)", "--shell=desktop-shell.so", "--config=\(config)", "--idle-time=0", "--debug",
            ],
            environment: ["DISPLAY": display, "XDG_RUNTIME_DIR": directory, "WAYLAND_DISPLAY": ""],
            stdout: log >= 0 ? log : nil, stderr: log >= 0 ? log : nil)
        do {
            try waitUntilReady()
        } catch {
            stop()
            throw error
        }
    }

    /// Waits for the socket and weston's output window, puts the window at the top-left corner
    /// and brings weston's pointer to the X pointer.
    private func waitUntilReady() throws {
        let deadline = Date().addingTimeInterval(15)
        let x = XDisplay.existing(display)
        while Date() < deadline {
            guard process.isRunning else {
                throw DriverError("weston exited while starting. Its log:\n\(logTail)")
            }
            // weston names its window in _NET_WM_NAME only, which xdotool's name search does not
            // read; xwininfo shows it.
            if FileManager.default.fileExists(atPath: runtimeDirectory + "/" + socket),
                let tree = try? Tools.run(
                    Tools.find("xwininfo") ?? "xwininfo", ["-root", "-tree"], environment: ["DISPLAY": display]),
                let line = String(decoding: tree, as: UTF8.self).split(separator: "\n").first(where: {
                    $0.contains("\"Weston Compositor - screen0\"")
                }),
                let window = line.split(separator: " ").first
            {
                try x.xdotool(["windowmove", "--sync", String(window), "0", "0"])
                try resyncPointer(at: (Double(width / 2), Double(height / 2)))
                return
            }
            usleep(50_000)
        }
        throw DriverError("weston did not start within 15 s. Its log:\n\(logTail)")
    }

    /// Takes the X pointer out of weston's window (the Xvfb's last column) and back in at
    /// `point`, so that weston's pointer is where the X pointer is.
    public func resyncPointer(at point: ScreenPoint) throws {
        try XDisplay.existing(display).xdotool(
            ["mousemove", String(width), String(height / 2), "sleep", "0.05", "mousemove"] + Pointer.at(point)
                + ["sleep", "0.05"])
    }

    /// The environment a GTK app needs to run on this compositor.
    public var appEnvironment: [String: String] {
        ["WAYLAND_DISPLAY": socket, "XDG_RUNTIME_DIR": runtimeDirectory, "GDK_BACKEND": "wayland"]
    }

    // MARK: Windows

    /// A toplevel window as weston's scene graph shows it.
    struct View {
        var title: String
        var frame: ScreenRect
        /// The opaque part: GTK's window without its shadow.
        var opaque: ScreenRect?
    }

    /// The toplevel windows, topmost first.
    func views() throws -> [View] {
        let output = try Tools.run(
            Tools.find("weston-debug") ?? "weston-debug", ["scene-graph"],
            environment: ["WAYLAND_DISPLAY": socket, "XDG_RUNTIME_DIR": runtimeDirectory], timeout: 10)
        return Self.parseViews(String(decoding: output, as: UTF8.self))
    }

    /// The toplevel views in `sceneGraph` (weston-debug's text), in its order.
    static func parseViews(_ sceneGraph: String) -> [View] {
        var views: [View] = []
        var inToplevel = false  // the lines below belong to a toplevel's view
        for line in sceneGraph.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            if line.hasPrefix("View ") || line.hasPrefix("Layer ") || line.hasPrefix("Output ") {
                inToplevel = false
                guard line.hasPrefix("View "), line.contains("role xdg_toplevel"),
                    let start = line.range(of: "top-level window '"),
                    let end = line.range(of: "' of ", options: .backwards), start.upperBound <= end.lowerBound
                else { continue }
                views.append(
                    View(
                        title: String(line[start.upperBound..<end.lowerBound]),
                        frame: ScreenRect(x: 0, y: 0, width: 0, height: 0), opaque: nil))
                inToplevel = true
            } else if inToplevel, line.hasPrefix("position:"), let rect = parseCorners(line.dropFirst(9)) {
                views[views.count - 1].frame = rect
            } else if inToplevel, line.hasPrefix("[opaque:"), let rect = parseCorners(line.dropFirst(8)) {
                views[views.count - 1].opaque = rect
            }
        }
        return views
    }

    /// The content (GTK's window without its shadow) of the topmost window whose title matches
    /// `pattern` (a regular expression), nil when none is shown.
    public func contentFrame(ofWindowNamed pattern: String) throws -> ScreenRect? {
        let regex = try NSRegularExpression(pattern: pattern)
        return try views().first { view in
            view.opaque != nil && regex.firstMatch(in: view.title, range: NSRange(view.title.startIndex..., in: view.title)) != nil
        }?.opaque
    }

    /// "(611, 178) -> (1279, 627)" as a rectangle.
    private static func parseCorners(_ text: Substring) -> ScreenRect? {
        let numbers = text.split(whereSeparator: { !"-0123456789.".contains($0) }).compactMap { Double($0) }
        guard numbers.count >= 4 else { return nil }
        return ScreenRect(x: numbers[0], y: numbers[1], width: numbers[2] - numbers[0], height: numbers[3] - numbers[1])
    }

    /// Waits (at most `timeout` seconds) for the topmost window whose title matches `pattern` (a
    /// regular expression) to be shown and still, moves it so that its content's top-left
    /// corner is at `position` (where an X11 window's would be: GTK's shadow lies around it) by
    /// dragging it with Super held (the desktop shell's move binding), and returns where it is.
    public func place(windowNamed pattern: String, at position: (Int, Int), timeout: Double = 10) throws
        -> PlacedWindow
    {
        let regex = try NSRegularExpression(pattern: pattern)
        let titled: (View) -> Bool = { view in
            regex.firstMatch(in: view.title, range: NSRange(view.title.startIndex..., in: view.title)) != nil
        }
        // GTK tells weston which part of its surface is opaque (the window without its shadow);
        // a window that never does (LibreOffice's) is all content, once it has been seen a while.
        var unshaded = 0
        let matches: (View) -> Bool = { view in titled(view) && (view.opaque != nil || unshaded >= 8) }
        let target = (x: Double(position.0), y: Double(position.1))
        let deadline = Date().addingTimeInterval(timeout)
        var last: View?
        var attempts = 0
        while Date() < deadline {
            let all = try views()
            if all.contains(where: { titled($0) && $0.opaque == nil }) { unshaded += 1 }
            guard let index = all.firstIndex(where: matches), let content = all[index].opaque ?? Optional(all[index].frame)
            else {
                last = nil
                usleep(50_000)
                continue
            }
            let view = all[index]
            defer { last = view }
            // A window the shell has just mapped may still be settling: act once it stands still.
            guard let previous = last, previous.frame.x == view.frame.x, previous.frame.y == view.frame.y,
                (previous.opaque ?? previous.frame).x == content.x, (previous.opaque ?? previous.frame).y == content.y
            else {
                usleep(80_000)
                continue
            }
            if content.x == target.x, content.y == target.y {
                return PlacedWindow(frame: view.frame, content: content)
            }
            guard attempts < 4 else { break }
            attempts += 1
            // Grab it where no window above it covers it (the shell moves what is under the pointer).
            guard let grab = Self.uncoveredPoint(of: content, under: all[..<index].map(\.frame)) else {
                // Wholly under another window (one the same app mapped with it and a move then
                // raised): bring it up with the shell's window switcher, Super+Tab.
                try XDisplay.existing(display).xdotool(["key", "super+Tab", "sleep", "0.2"])
                last = nil
                attempts += 1
                continue
            }
            try drag(from: grab, by: (target.x - content.x, target.y - content.y))
            last = nil
        }
        let now = try? views().first(where: titled)
        throw DriverError(
            "The Wayland window '\(pattern)' was not shown at \(position) within \(timeout) s (its content is at "
                + "\(now.map { ($0.opaque ?? $0.frame).description } ?? "nowhere"), after \(attempts) moves; windows: "
                + "\((try? views().map(\.title)) ?? [])).")
    }

    /// A point of `content` outside every rectangle in `covers`: its middle if free, else the
    /// first free point of a grid over it.
    static func uncoveredPoint(of content: ScreenRect, under covers: [ScreenRect]) -> ScreenPoint? {
        let free: (ScreenPoint) -> Bool = { p in
            !covers.contains { p.x >= $0.x && p.x < $0.maxX && p.y >= $0.y && p.y < $0.maxY }
        }
        if free(content.center) { return content.center }
        for row in 0..<8 {
            for column in 0..<8 {
                let p = (
                    content.x + 8 + (content.width - 16) * Double(column) / 7,
                    content.y + 8 + (content.height - 16) * Double(row) / 7
                )
                if free(p) { return p }
            }
        }
        return nil
    }

    /// Drags a window by `delta` with Super held, grabbing it at `from`.
    private func drag(from: ScreenPoint, by delta: (Double, Double)) throws {
        let to = (from.0 + delta.0, from.1 + delta.1)
        let middle = ((from.0 + to.0) / 2, (from.1 + to.1) / 2)
        try resyncPointer(at: from)
        try XDisplay.existing(display).xdotool(
            ["keydown", "super", "sleep", "0.05", "mousedown", "1", "sleep", "0.05", "mousemove"] + Pointer.at(middle)
                + ["sleep", "0.05", "mousemove"] + Pointer.at(to) + ["sleep", "0.05", "mouseup", "1", "sleep", "0.05"]
                + ["keyup", "super", "sleep", "0.1"])
    }

    /// Whether weston still runs.
    public var isRunning: Bool { process.isRunning }

    /// Stops weston and removes its runtime directory.
    public func stop() {
        process.stop()
        try? FileManager.default.removeItem(atPath: runtimeDirectory)
    }

    private var logTail: String {
        let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").suffix(20).joined(separator: "\n")
    }
}
