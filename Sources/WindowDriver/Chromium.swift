import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A real Chromium on a display, as another app to drag to and from: one browser process (its
/// first start takes seconds, so a suite starts it once) with a private, temporary profile,
/// whose windows are `--app` windows (no tabs or toolbar: the page fills the window). Pages
/// report what happened through their title, read with `xdotool getwindowname` (on a Wayland
/// display, where Chromium runs as a Wayland client, from weston's scene graph).
public final class Chromium: BrowserWindows, @unchecked Sendable {
    /// The browser's program (`chromium`, else `chromium-browser`), or nil when not installed.
    public static var executable: String? { Tools.find("chromium") ?? Tools.find("chromium-browser") }

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
        let profile = Self.newProfile("Chromium")
        arguments = [
            executable, "--no-sandbox", "--test-type", "--user-data-dir=\(profile.path)", "--no-first-run",
            "--no-default-browser-check", "--disable-gpu", "--disable-extensions", "--disable-sync",
            "--disable-background-networking", "--disable-component-update", "--password-store=basic",
            "--ozone-platform=\(display.compositor == nil ? "x11" : "wayland")",
            "--disable-features=Translate,MediaRouter",
        ]
        // No session bus: nothing Chromium starts outlives the display.
        var environment = [
            "DISPLAY": display.name, "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/dragdrop-driver",
        ]
        if let compositor = display.compositor { environment.merge(compositor.appEnvironment) { $1 } }
        self.environment = environment
        try super.init(display: display, browserName: "Chromium", profile: profile)
        try launch(arguments + Self.windowArguments(url: url, position: position, size: size), environment: environment)
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
}
