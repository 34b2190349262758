import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// An X display to drive: a private Xvfb started here (stopped by ``stop()``), or an existing
/// one such as the user's `$DISPLAY`. On a private display the apps run on X11 or, with the
/// Wayland backend, on a weston compositor nested in the Xvfb (``compositor``): input and
/// screenshots go through the Xvfb either way.
public final class XDisplay: @unchecked Sendable {
    /// The display name, `:57`.
    public let name: String
    private let server: ChildProcess?
    /// The Wayland compositor the apps run on, nil when they run on X11.
    public let compositor: WaylandCompositor?
    /// A private display's own home folder for the apps on it (``isolatedFolders``), removed by
    /// ``stop()``: nothing an app writes outlives the test, and no test reads what an earlier
    /// one left.
    public let home: URL?

    /// Whether this display is a private Xvfb started here.
    public var isPrivate: Bool { server != nil }

    /// The windowing system the apps run on.
    public var backend: DisplayBackend { compositor == nil ? .x11 : .wayland }

    private init(name: String, server: ChildProcess?, compositor: WaylandCompositor? = nil, home: URL? = nil) {
        self.name = name
        self.server = server
        self.compositor = compositor
        self.home = home
    }

    /// An existing display (not stopped by ``stop()``).
    public static func existing(_ name: String) -> XDisplay { XDisplay(name: name, server: nil) }

    /// Starts a private display where apps get a `width` × `height` screen: on X11 (the
    /// default, or `backend` / ``DisplayBackend/current``) an Xvfb of that size; on Wayland weston
    /// with one output of that size, in an Xvfb one pixel wider.
    public static func startPrivate(
        width: Int = 1280, height: Int = 800, backend: DisplayBackend = .current
    ) throws -> XDisplay {
        switch backend {
        case .x11:
            return try startXvfb(width: width, height: height)
        case .wayland:
            // One column more than weston's output, to take the pointer out of its window.
            let x = try startXvfb(width: width + 1, height: height)
            do {
                let compositor = try WaylandCompositor(on: x.name, width: width, height: height)
                return XDisplay(name: x.name, server: x.server, compositor: compositor, home: x.home)
            } catch {
                x.stop()
                throw error
            }
        }
    }

    /// Starts Xvfb (`width`x`height`x24) on a free display number from :120 up and waits until
    /// it accepts clients.
    private static func startXvfb(width: Int, height: Int) throws -> XDisplay {
        guard let xvfb = Tools.xvfb else {
            throw DriverError("Xvfb is not installed (apt-get install xvfb, or run `make deps`).")
        }
        for _ in 0..<20 {
            let number = 120 + Int.random(in: 0..<800)
            let socket = "/tmp/.X11-unix/X\(number)"
            guard !FileManager.default.fileExists(atPath: "/tmp/.X\(number)-lock"),
                !FileManager.default.fileExists(atPath: socket)
            else { continue }
            let process = try ChildProcess(
                xvfb, [":\(number)", "-screen", "0", "\(width)x\(height)x24", "-nolisten", "tcp"])
            let deadline = Date().addingTimeInterval(10)
            while Date() < deadline, process.isRunning {
                if FileManager.default.fileExists(atPath: socket) {
                    return XDisplay(name: ":\(number)", server: process, home: try? makeHome(for: number))
                }
                usleep(20_000)
            }
            process.stop()  // lost a race for this number, or too slow: try another
        }
        throw DriverError("Could not start Xvfb on a free display (20 attempts from :120).")
    }

    /// Makes a private display's home folder: `HOME` with its XDG folders inside, and a
    /// runtime folder only its owner can read.
    private static func makeHome(for number: Int) throws -> URL {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent(
            "dragdrop-home-\(number)-\(UUID().uuidString.prefix(8))")
        for folder in [".config", ".cache", ".local/share", ".local/state"] {
            try FileManager.default.createDirectory(
                at: home.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        try FileManager.default.createDirectory(
            at: home.appendingPathComponent("runtime"), withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        return home
    }

    /// The folders an app on a private display writes to, all inside ``home``: `HOME`, the
    /// XDG data, config, cache and state folders and `XDG_RUNTIME_DIR` (on Wayland the
    /// compositor's runtime folder replaces it). Empty for an existing display.
    public var isolatedFolders: [String: String] {
        guard let home else { return [:] }
        return [
            "HOME": home.path, "XDG_CONFIG_HOME": home.path + "/.config", "XDG_CACHE_HOME": home.path + "/.cache",
            "XDG_DATA_HOME": home.path + "/.local/share", "XDG_STATE_HOME": home.path + "/.local/state",
            "XDG_RUNTIME_DIR": home.path + "/runtime",
        ]
    }

    /// Stops the compositor and the private server and removes the private home (nothing for
    /// an existing display).
    public func stop() {
        compositor?.stop()
        server?.stop()
        if let home { try? FileManager.default.removeItem(at: home) }
    }

    /// The environment a GTK app needs on this display: its name and the X11 backend, or the
    /// compositor's socket and the Wayland backend; on a private display also its own home and
    /// XDG folders (``isolatedFolders``), the cairo
    /// renderer, no accessibility or session bus, so that nothing the app starts outlives
    /// the display, and GTK's own input method.
    public var appEnvironment: [String: String] {
        var environment = ["DISPLAY": name, "GDK_BACKEND": "x11"]
        environment.merge(isolatedFolders) { $1 }
        if let compositor { environment.merge(compositor.appEnvironment) { $1 } }
        if isPrivate {
            environment["GSK_RENDERER"] = "cairo"
            environment["GTK_A11Y"] = "none"
            environment["NO_AT_BRIDGE"] = "1"
            environment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=/nonexistent/dragdrop-driver"
            // GTK's own input method (dead keys, Ctrl+Shift+U), whatever the machine has: with
            // IBus's GTK module installed GTK would choose it, and with no IBus running it
            // composes nothing. ``InputMethod`` puts IBus back for the tests that use it.
            environment["GTK_IM_MODULE"] = "gtk-im-context-simple"
        }
        return environment
    }

    /// Waits for a window whose name matches `pattern` (a regular expression), moves it to
    /// `position` and returns its frame (see ``place(windowNamed:at:)``).
    public func placeWindow(named pattern: String, at position: (Int, Int)) throws -> ScreenRect {
        try place(windowNamed: pattern, at: position).frame
    }

    /// Waits for a window whose name matches `pattern` (a regular expression), moves it to
    /// `position` and returns where it is: on X11 the X window at `position` (without a window
    /// manager, windows open at 0,0), its content the same; on Wayland the surface with GTK's
    /// shadow around the content, the content's corner at `position`.
    public func place(windowNamed pattern: String, at position: (Int, Int)) throws -> PlacedWindow {
        if let compositor { return try compositor.place(windowNamed: pattern, at: position) }
        let frame = try placeX11Window(named: pattern, at: position)
        return PlacedWindow(frame: frame, content: frame)
    }

    private func placeX11Window(named pattern: String, at position: (Int, Int)) throws -> ScreenRect {
        let ids = try xdotoolOutput(["search", "--sync", "--name", pattern])
        guard let id = ids.split(separator: "\n").first.map(String.init) else {
            throw DriverError("xdotool found no window named '\(pattern)'")
        }
        try xdotool(["windowmove", "--sync", id, "\(position.0)", "\(position.1)"])
        return try frame(ofX11Window: id)
    }

    /// Where X11 window `id` (xdotool's window id) is on the screen.
    public func frame(ofX11Window id: String) throws -> ScreenRect {
        let geometry = try xdotoolOutput(["getwindowgeometry", "--shell", id])
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

    // MARK: Input and screenshots

    /// Runs xdotool on this display.
    public func xdotool(_ arguments: [String]) throws {
        guard let xdotool = Tools.xdotool else {
            throw DriverError("xdotool is not installed (apt-get install xdotool).")
        }
        try Tools.run(xdotool, arguments, environment: ["DISPLAY": name])
    }

    /// xdotool's standard output.
    public func xdotoolOutput(_ arguments: [String]) throws -> String {
        guard let xdotool = Tools.xdotool else {
            throw DriverError("xdotool is not installed (apt-get install xdotool).")
        }
        return String(decoding: try Tools.run(xdotool, arguments, environment: ["DISPLAY": name]), as: UTF8.self)
    }

    /// Saves the screen, or the part of it inside `crop`, to `path` (PNG, or any format
    /// ImageMagick infers from the name).
    public func screenshot(to path: String, crop: ScreenRect? = nil) throws {
        guard let tool = Tools.imageMagickImport else {
            throw DriverError("ImageMagick's `import` is not installed (apt-get install imagemagick).")
        }
        var arguments = ["-window", "root"]
        if let crop {
            arguments += [
                "-crop", "\(Int(crop.width))x\(Int(crop.height))+\(Int(crop.x))+\(Int(crop.y))", "+repage",
            ]
        }
        try Tools.run(tool, arguments + [path], environment: ["DISPLAY": name])
    }
}
