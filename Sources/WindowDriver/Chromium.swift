import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A real Chromium on a display, as another app to drag to and from: one browser process (its
/// first start takes seconds, so a suite starts it once) with a private, temporary profile,
/// whose windows are `--app` windows (no tabs or toolbar: the page fills the window). Pages
/// report what happened through their title, read with `xdotool getwindowname`.
public final class Chromium: @unchecked Sendable {
    /// The browser's program (`chromium`, else `chromium-browser`), or nil when not installed.
    public static var executable: String? { Tools.find("chromium") ?? Tools.find("chromium-browser") }

    public let display: XDisplay
    private let process: ChildProcess
    private let profile: URL
    private let arguments: [String]
    private let environment: [String: String]

    /// Starts Chromium on `display` with one window showing `url` at `position`, `size`, and waits
    /// (up to `timeout` seconds, first starts are slow) for a window whose title matches
    /// `title` (a regular expression, as xdotool's `search --name` takes it).
    public init(
        display: XDisplay, url: String, title: String, position: (Int, Int), size: (Int, Int), timeout: Double = 60
    ) throws {
        guard let executable = Self.executable else {
            throw DriverError("Chromium is not installed (apt-get install chromium, or run `make deps`).")
        }
        self.display = display
        profile = FileManager.default.temporaryDirectory.appendingPathComponent(
            "dragdrop-chromium-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: profile, withIntermediateDirectories: true)
        arguments = [
            executable, "--no-sandbox", "--test-type", "--user-data-dir=\(profile.path)", "--no-first-run",
            "--no-default-browser-check", "--disable-gpu", "--disable-extensions", "--disable-sync",
            "--disable-background-networking", "--disable-component-update", "--password-store=basic",
            "--ozone-platform=x11", "--disable-features=Translate,MediaRouter",
        ]
        // No session bus: nothing Chromium starts outlives the display.
        environment = [
            "DISPLAY": display.name, "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/dragdrop-driver",
        ]
        let log = Glibc.open(
            profile.appendingPathComponent("chromium.log").path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        defer { if log >= 0 { close(log) } }
        process = try ChildProcess(
            arguments[0], Array(arguments.dropFirst()) + Self.windowArguments(url: url, position: position, size: size),
            environment: environment, stdout: log >= 0 ? log : nil, stderr: log >= 0 ? log : nil)
        do {
            _ = try window(titled: title, timeout: timeout)
        } catch {
            stop()
            throw error
        }
    }

    private static func windowArguments(url: String, position: (Int, Int), size: (Int, Int)) -> [String] {
        ["--window-position=\(position.0),\(position.1)", "--window-size=\(size.0),\(size.1)", "--app=\(url)"]
    }

    /// Opens another window (in the running browser) showing `url`, places it at `position`
    /// and returns its X window id once its title matches `title`.
    @discardableResult
    public func open(url: String, title: String, position: (Int, Int), size: (Int, Int), timeout: Double = 30) throws
        -> String
    {
        // A second start with the same profile hands the address to the running browser and exits.
        let opener = try ChildProcess(
            arguments[0], Array(arguments.dropFirst()) + Self.windowArguments(url: url, position: position, size: size),
            environment: environment)
        opener.wait(timeout: 15)
        let id = try window(titled: title, timeout: timeout)
        try place(id, at: position)
        return id
    }

    /// The first window whose title matches `pattern`, waiting up to `timeout` seconds.
    public func window(titled pattern: String, timeout: Double = 15) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            guard process.isRunning else { throw DriverError("Chromium exited (see \(profile.path)/chromium.log).") }
            if let ids = try? display.xdotoolOutput(["search", "--name", pattern]),
                let id = ids.split(separator: "\n").first
            {
                return String(id)
            }
            usleep(100_000)
        }
        throw DriverError("No Chromium window titled '\(pattern)' within \(timeout) s.")
    }

    /// Moves window `id` to `position` (without a window manager windows stay where put).
    public func place(_ id: String, at position: (Int, Int)) throws {
        try display.xdotool(["windowmove", "--sync", id, "\(position.0)", "\(position.1)"])
    }

    /// Window `id`'s title now.
    public func title(of id: String) throws -> String {
        try display.xdotoolOutput(["getwindowname", id]).trimmingCharacters(in: .newlines)
    }

    /// Waits until window `id`'s title starts with `prefix`; returns the title.
    @discardableResult
    public func waitForTitle(of id: String, prefix: String, timeout: Double = 15) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var last = ""
        while Date() < deadline {
            last = (try? title(of: id)) ?? last
            if last.hasPrefix(prefix) { return last }
            usleep(50_000)
        }
        throw DriverError("Chromium's window never got a title starting with '\(prefix)' (last: '\(last)').")
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

    /// Where window `id` is on the screen.
    public func frame(of id: String) throws -> ScreenRect {
        let geometry = try display.xdotoolOutput(["getwindowgeometry", "--shell", id])
        var values: [String: Double] = [:]
        for line in geometry.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2, let v = Double(parts[1]) { values[String(parts[0])] = v }
        }
        guard let x = values["X"], let y = values["Y"], let w = values["WIDTH"], let h = values["HEIGHT"] else {
            throw DriverError("Unreadable window geometry: \(geometry)")
        }
        return ScreenRect(x: x, y: y, width: w, height: h)
    }

    /// Ends the browser and removes its profile.
    public func stop() {
        process.stop(grace: 3)
        try? FileManager.default.removeItem(at: profile)
    }
}
