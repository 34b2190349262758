import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// An X display to drive: a private Xvfb started here (stopped by ``stop()``), or an existing
/// one such as the user's `$DISPLAY`.
public final class XDisplay: @unchecked Sendable {
    /// The display name, `:57`.
    public let name: String
    private let server: ChildProcess?

    /// Whether this display is a private Xvfb started here.
    public var isPrivate: Bool { server != nil }

    private init(name: String, server: ChildProcess?) {
        self.name = name
        self.server = server
    }

    /// An existing display (not stopped by ``stop()``).
    public static func existing(_ name: String) -> XDisplay { XDisplay(name: name, server: nil) }

    /// Starts Xvfb (`width`x`height`x24) on a free display number from :120 up and waits until
    /// it accepts clients.
    public static func startPrivate(width: Int = 1280, height: Int = 800) throws -> XDisplay {
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
                    return XDisplay(name: ":\(number)", server: process)
                }
                usleep(20_000)
            }
            process.stop()  // lost a race for this number, or too slow: try another
        }
        throw DriverError("Could not start Xvfb on a free display (20 attempts from :120).")
    }

    /// Stops the private server (nothing for an existing display).
    public func stop() { server?.stop() }

    /// The environment a GTK app needs on this display: its name and the X11 backend; on a
    /// private display also the cairo renderer and no accessibility or session bus, so that
    /// nothing the app starts outlives the display.
    public var appEnvironment: [String: String] {
        var environment = ["DISPLAY": name, "GDK_BACKEND": "x11"]
        if isPrivate {
            environment["GSK_RENDERER"] = "cairo"
            environment["GTK_A11Y"] = "none"
            environment["NO_AT_BRIDGE"] = "1"
            environment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=/nonexistent/dragdrop-driver"
        }
        return environment
    }

    /// Waits for a window whose name matches `pattern` (a regular expression, as xdotool's
    /// `search --name` takes it), moves it to `position` (without a window manager, windows open
    /// at 0,0) and returns where it is now.
    public func placeWindow(named pattern: String, at position: (Int, Int)) throws -> ScreenRect {
        let ids = try xdotoolOutput(["search", "--sync", "--name", pattern])
        guard let id = ids.split(separator: "\n").first.map(String.init) else {
            throw DriverError("xdotool found no window named '\(pattern)'")
        }
        try xdotool(["windowmove", "--sync", id, "\(position.0)", "\(position.1)"])
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
