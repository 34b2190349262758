import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A real browser on a display (``Chromium``, ``Firefox``), as another app to drag to and from:
/// one process with a private, temporary profile, its windows found, placed and read through
/// xdotool. Pages report what happened through their title.
public class BrowserWindows: @unchecked Sendable {
    public let display: XDisplay
    /// "Chromium", "Firefox": for messages.
    let browserName: String
    /// The private profile, removed by ``stop()``.
    let profile: URL
    /// What the browser adds after a page's title in its window's title (" — Mozilla Firefox").
    let titleSuffix: String
    var process: ChildProcess!

    /// A browser on `display` whose profile is `profile` (created here).
    init(display: XDisplay, browserName: String, profile: URL, titleSuffix: String = "") throws {
        self.display = display
        self.browserName = browserName
        self.titleSuffix = titleSuffix
        self.profile = profile
        try FileManager.default.createDirectory(at: profile, withIntermediateDirectories: true)
    }

    /// A new private profile's folder for `browserName`.
    static func newProfile(_ browserName: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent(
            "dragdrop-\(browserName.lowercased())-\(UUID().uuidString)")
    }

    /// The browser's output, in its profile.
    var logPath: String { profile.appendingPathComponent("\(browserName.lowercased()).log").path }

    /// Starts the browser's process, its output going to ``logPath``.
    func launch(_ arguments: [String], environment: [String: String]) throws {
        let log = Glibc.open(logPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        defer { if log >= 0 { close(log) } }
        process = try ChildProcess(
            arguments[0], Array(arguments.dropFirst()), environment: environment, stdout: log >= 0 ? log : nil,
            stderr: log >= 0 ? log : nil)
    }

    /// The browser's process ended before its window showed: the error says how, with the end of
    /// its output (the log goes with the profile).
    func exitedError() -> DriverError {
        let output = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        return DriverError(
            "\(browserName) exited (wait status \(process.exitStatus ?? -1)); the end of its output:\n"
                + String(output.suffix(2000)))
    }

    /// Whether the browser's process has ended.
    var hasExited: Bool { !process.isRunning }

    /// `title` without the browser's own suffix.
    public func withoutSuffix(_ title: String) -> String {
        titleSuffix.isEmpty || !title.hasSuffix(titleSuffix) ? title : String(title.dropLast(titleSuffix.count))
    }

    /// On Wayland, the windows found so far: an id's title pattern as found, and where its
    /// content is. A page's title changes as it reports, and weston's scene graph gives views
    /// no lasting name, so a window is known by its place (windows move only when moved).
    private var waylandWindows: [String: (pattern: String, content: ScreenRect)] = [:]

    /// The first window whose title matches `pattern`, waiting up to `timeout` seconds: its X
    /// window id, or on Wayland an id of this driver's.
    public func window(titled pattern: String, timeout: Double = 15) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        let regex = try NSRegularExpression(pattern: pattern)
        while Date() < deadline {
            guard process.isRunning else { throw exitedError() }
            if let compositor = display.compositor {
                if let view = try? compositor.views().first(where: { view in
                    regex.firstMatch(in: view.title, range: NSRange(view.title.startIndex..., in: view.title)) != nil
                }) {
                    let known = waylandWindows.first { $0.value.pattern == pattern }?.key
                    let id = known ?? "wayland-\(waylandWindows.count + 1)"
                    waylandWindows[id] = (pattern, view.opaque ?? view.frame)
                    return id
                }
            } else if let ids = try? display.xdotoolOutput(["search", "--name", pattern]),
                let id = ids.split(separator: "\n").first
            {
                return String(id)
            }
            usleep(100_000)
        }
        throw DriverError("No \(browserName) window titled '\(pattern)' within \(timeout) s.")
    }

    /// Moves window `id` to `position` (without a window manager windows stay where put; on
    /// Wayland the compositor's shell moves it, as a person would).
    public func place(_ id: String, at position: (Int, Int)) throws {
        if let compositor = display.compositor {
            guard let known = waylandWindows[id] else { throw DriverError("No \(browserName) window \(id).") }
            let placed = try compositor.place(windowNamed: known.pattern, at: position)
            waylandWindows[id] = (known.pattern, placed.content)
            return
        }
        try display.xdotool(["windowmove", "--sync", id, "\(position.0)", "\(position.1)"])
    }

    /// On Wayland, the view of window `id` now: the one whose content is where it was placed.
    private func waylandView(_ id: String) throws -> WaylandCompositor.View {
        guard let compositor = display.compositor, let known = waylandWindows[id] else {
            throw DriverError("No \(browserName) window \(id).")
        }
        guard
            let view = try compositor.views().first(where: { view in
                let content = view.opaque ?? view.frame
                return content.x == known.content.x && content.y == known.content.y
            })
        else { throw DriverError("\(browserName)'s window \(id) is no longer at \(known.content).") }
        return view
    }

    /// Window `id`'s title now.
    public func title(of id: String) throws -> String {
        if display.compositor != nil { return try waylandView(id).title }
        return try display.xdotoolOutput(["getwindowname", id]).trimmingCharacters(in: .newlines)
    }

    /// Waits until window `id`'s title starts with `prefix`; returns the title.
    @discardableResult
    public func waitForTitle(of id: String, prefix: String, timeout: Double = 15) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var last = ""
        while Date() < deadline {
            last = (try? title(of: id)).map(withoutSuffix) ?? last
            if last.hasPrefix(prefix) { return last }
            usleep(50_000)
        }
        throw DriverError("\(browserName)'s window never got a title starting with '\(prefix)' (last: '\(last)').")
    }

    /// Window `id`'s title after `prefix`, as JSON (pages report what they saw so).
    public func titleJSON(of id: String, prefix: String, timeout: Double = 15) throws -> [String: Any] {
        let title = try waitForTitle(of: id, prefix: prefix, timeout: timeout)
        let json = title.dropFirst(prefix.count).trimmingCharacters(in: .whitespaces)
        guard let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] else {
            throw DriverError("The title '\(title)' does not end in a JSON object.")
        }
        return object
    }

    /// Where window `id` is on the screen (on Wayland its content, inside any shadow).
    public func frame(of id: String) throws -> ScreenRect {
        if display.compositor != nil {
            let view = try waylandView(id)
            return view.opaque ?? view.frame
        }
        return try display.frame(ofX11Window: id)
    }

    /// Ends the browser and removes its profile.
    public func stop() {
        process?.stop(grace: 3)
        try? FileManager.default.removeItem(at: profile)
    }
}
