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

/// A headless Wayland compositor for tests: weston (Debian's) with its X11 backend, nested in an
/// Xvfb, one weston output per app side by side, the kiosk shell (each app fills its output).
///
/// xdotool drives the pointer and keys on the Xvfb: weston's output windows pass them on to the
/// Wayland apps, and a drag crosses from one output to the next as on one screen. Every app
/// gets an output of its own: kiosk-shell sends an app to the output whose `app-ids` in
/// weston.ini holds its Wayland app id, which GTK takes from the program's name, so an app is
/// launched through a symbolic link named after its output (``launchPath(for:)``).
///
/// ```
/// Xvfb :N (2 × width) × height
/// ├── weston output screen0 at x 0      → the first app (app id dragdrop-output-0)
/// └── weston output screen1 at x width  → the second app (app id dragdrop-output-1)
/// ```
public final class WaylandCompositor: @unchecked Sendable {
    /// The outputs' frames on the Xvfb, in order.
    public let outputs: [ScreenRect]
    /// The compositor's socket name (`WAYLAND_DISPLAY`).
    public let socket: String
    /// The private runtime directory (`XDG_RUNTIME_DIR`) holding the socket, weston.ini, the
    /// log and the launch links.
    public let runtimeDirectory: String
    private let process: ChildProcess
    private let lock = NSLock()
    private var leased: Set<Int> = []
    private var links = 0

    /// weston's log file (for failure messages).
    public var logPath: String { runtimeDirectory + "/weston.log" }

    /// Why weston cannot run here, or nil when it can.
    public static var missing: String? {
        guard Tools.find("weston") != nil else {
            return "weston is not installed (apt-get install weston, or `make deps`)."
        }
        return nil
    }

    /// The app id of the apps kiosk-shell puts on output `index`.
    public static func appID(forOutput index: Int) -> String { "dragdrop-output-\(index)" }

    /// Starts weston on X display `display` with `count` outputs of `width` × `height`, placed
    /// side by side from the top-left corner, and waits until it accepts clients (at most 15 s).
    public init(on display: String, outputs count: Int, width: Int, height: Int) throws {
        guard let weston = Tools.find("weston") else {
            throw DriverError(Self.missing ?? "weston is not installed.")
        }
        var template = Array("/tmp/dragdrop-wayland-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else {
            throw DriverError("Could not create a runtime directory for weston: \(String(cString: strerror(errno))).")
        }
        runtimeDirectory = String(cString: made)
        chmod(runtimeDirectory, 0o700)
        socket = "wayland-dragdrop"
        var ini = "[core]\nidle-time=0\nrequire-input=false\n\n[shell]\nbackground-color=0xff2e3436\n"
        for index in 0..<count {
            ini += "\n[output]\nname=screen\(index)\napp-ids=\(Self.appID(forOutput: index))\n"
        }
        let config = runtimeDirectory + "/weston.ini"
        try ini.write(toFile: config, atomically: true, encoding: .utf8)
        let log = open(runtimeDirectory + "/weston.log", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        defer { if log >= 0 { close(log) } }
        process = try ChildProcess(
            weston,
            [
                "--backend=x11-backend.so", "--use-pixman", "--socket=\(socket)", "--width=\(width)",
                "--height=\(height)", "--output-count=\(count)", "--shell=kiosk-shell.so", "--config=\(config)",
                "--idle-time=0",
            ],
            environment: ["DISPLAY": display, "XDG_RUNTIME_DIR": runtimeDirectory, "WAYLAND_DISPLAY": ""],
            stdout: log >= 0 ? log : nil, stderr: log >= 0 ? log : nil)
        outputs = (0..<count).map {
            ScreenRect(x: Double($0 * width), y: 0, width: Double(width), height: Double(height))
        }
        do {
            try waitUntilReady(display: display, count: count)
        } catch {
            stop()
            throw error
        }
    }

    /// Waits for the socket and the output windows, and puts the windows side by side (weston
    /// places its outputs left to right in that order, so coordinates carry across).
    private func waitUntilReady(display: String, count: Int) throws {
        let deadline = Date().addingTimeInterval(15)
        let xdisplay = XDisplay.existing(display)
        var windows: [String] = []
        while Date() < deadline {
            guard process.isRunning else {
                throw DriverError("weston exited while starting. Its log:\n\(tail(of: logPath))")
            }
            if FileManager.default.fileExists(atPath: runtimeDirectory + "/" + socket) {
                // weston names its windows in _NET_WM_NAME only, which xdotool's name search
                // does not read; xwininfo shows it.
                let tree =
                    (try? Tools.run("/usr/bin/xwininfo", ["-root", "-tree"], environment: ["DISPLAY": display]))
                    .map { String(decoding: $0, as: UTF8.self) } ?? ""
                windows = (0..<count).compactMap { index in
                    tree.split(separator: "\n").first { $0.contains("\"Weston Compositor - screen\(index)\"") }?
                        .split(separator: " ").first.map(String.init)
                }
                if windows.count == count { break }
            }
            usleep(50_000)
        }
        guard windows.count == count else {
            throw DriverError("weston did not start within 15 s. Its log:\n\(tail(of: logPath))")
        }
        for (index, window) in windows.enumerated() {
            try xdisplay.xdotool(["windowmove", "--sync", window, String(Int(outputs[index].x)), "0"])
        }
    }

    /// The environment a GTK app needs to run on this compositor.
    public var appEnvironment: [String: String] {
        ["WAYLAND_DISPLAY": socket, "XDG_RUNTIME_DIR": runtimeDirectory, "GDK_BACKEND": "wayland"]
    }

    /// Takes the first free output for an app; ``release(_:)`` gives it back.
    public func leaseOutput() throws -> Int {
        lock.lock()
        defer { lock.unlock() }
        guard let free = outputs.indices.first(where: { !leased.contains($0) }) else {
            throw DriverError(
                "All \(outputs.count) Wayland outputs already show an app: quit one first (kiosk-shell shows one app per output)."
            )
        }
        leased.insert(free)
        return free
    }

    /// Gives output `index` back.
    public func release(_ index: Int) {
        lock.lock()
        defer { lock.unlock() }
        leased.remove(index)
    }

    /// A path that runs `executable` as an app kiosk-shell puts on output `index`: a symbolic
    /// link named after the output's app id (GTK on Wayland takes the app id from the program's
    /// name).
    public func launchPath(for executable: String, output index: Int) throws -> String {
        lock.lock()
        links += 1
        let directory = runtimeDirectory + "/apps/\(links)"
        lock.unlock()
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let link = directory + "/" + Self.appID(forOutput: index)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: executable)
        return link
    }

    /// Whether weston still runs.
    public var isRunning: Bool { process.isRunning }

    /// Stops weston and removes its runtime directory.
    public func stop() {
        process.stop()
        try? FileManager.default.removeItem(atPath: runtimeDirectory)
    }

    private func tail(of path: String) -> String {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").suffix(20).joined(separator: "\n")
    }
}
