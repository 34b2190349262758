import Foundation

/// A real Firefox (Debian's `firefox-esr`) on a display, as another app to drag to and from: one
/// process per window, each with its own private, temporary profile (`--no-remote`), set up to
/// open nothing but the page (no first-run pages, no default-browser question, no telemetry).
/// It runs as an X11 client, or on a Wayland display as a Wayland client of its compositor.
public final class Firefox: BrowserWindows, @unchecked Sendable {
    /// The browser's program (`firefox-esr`, else `firefox`), or nil when not installed.
    public static var executable: String? { Tools.find("firefox-esr") ?? Tools.find("firefox") }

    /// The X window showing the page.
    public private(set) var windowID = ""

    /// Starts Firefox on `display` showing `url` in a `size` window moved to `position`, and waits
    /// (up to `timeout` seconds) for a window whose title matches `title` (a regular expression,
    /// as xdotool's `search --name` takes it). `environment` is added to the browser's.
    public init(
        display: XDisplay, url: String, title: String, position: (Int, Int), size: (Int, Int),
        environment extra: [String: String] = [:], timeout: Double = 60
    ) throws {
        guard let executable = Self.executable else {
            throw DriverError("Firefox is not installed (apt-get install firefox-esr, or run `make deps`).")
        }
        let profile = Self.newProfile("Firefox")
        try super.init(display: display, browserName: "Firefox", profile: profile, titleSuffix: " — Mozilla Firefox")
        try Self.preferences.write(to: profile.appendingPathComponent("user.js"), atomically: true, encoding: .utf8)
        var environment = [
            "DISPLAY": display.name, "HOME": profile.path, "MOZ_ENABLE_WAYLAND": "0", "GDK_BACKEND": "x11",
            // No session bus: nothing Firefox starts outlives the display.
            "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/dragdrop-driver",
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
        ]
        if let compositor = display.compositor {
            environment.merge(compositor.appEnvironment) { $1 }
            environment["MOZ_ENABLE_WAYLAND"] = "1"
        }
        environment.merge(extra) { $1 }
        let arguments = [
            executable, "--no-remote", "--new-instance", "--profile", profile.path, "--width", "\(size.0)",
            "--height", "\(size.1)", url,
        ]
        try launch(arguments, environment: environment)
        do {
            do {
                windowID = try window(titled: title, timeout: timeout)
            } catch where hasExited {
                // Firefox sometimes ends at once while another one starts on the machine (two
                // test lanes): say why on standard error, and start it once more.
                FileHandle.standardError.write(Data("\(exitedError()); starting Firefox again\n".utf8))
                try launch(arguments, environment: environment)
                windowID = try window(titled: title, timeout: timeout)
            }
            // On Wayland the window keeps the size asked for with --width and --height.
            if display.compositor == nil {
                try display.xdotool(["windowsize", "--sync", windowID, "\(size.0)", "\(size.1)"])
            }
            try place(windowID, at: position)
        } catch {
            stop()
            throw error
        }
    }

    /// What a fresh profile would otherwise show or do first.
    static let preferences = """
        user_pref("browser.shell.checkDefaultBrowser", false);
        user_pref("browser.startup.homepage_override.mstone", "ignore");
        user_pref("startup.homepage_welcome_url", "");
        user_pref("startup.homepage_welcome_url.additional", "");
        user_pref("browser.aboutwelcome.enabled", false);
        user_pref("browser.startup.page", 0);
        user_pref("datareporting.policy.dataSubmissionEnabled", false);
        user_pref("datareporting.policy.firstRunURL", "");
        user_pref("toolkit.telemetry.reportingpolicy.firstRun", false);
        user_pref("browser.sessionstore.resume_from_crash", false);
        user_pref("browser.tabs.warnOnClose", false);
        user_pref("app.update.auto", false);
        user_pref("extensions.update.enabled", false);
        user_pref("browser.toolbars.bookmarks.visibility", "never");
        user_pref("browser.translations.enable", false);
        user_pref("network.captive-portal-service.enabled", false);
        user_pref("network.connectivity-service.enabled", false);

        """
}
