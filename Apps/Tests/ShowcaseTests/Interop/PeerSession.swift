import Foundation
import DriverProtocol
import WindowDriver

#if canImport(Glibc)
    import Glibc
#endif

/// A private X display with what apps nobody here wrote need to be read from outside: a D-Bus
/// session bus of its own and the accessibility (AT-SPI) bus it starts, in a private runtime
/// directory. The showcase runs on the same display without them (its own JSON lines say what
/// it holds); the peers are read the way a screen reader reads them (``AccessibleTree``).
///
/// ``stop()`` ends every peer, the accessibility services and the bus (each by the id it was
/// started with or found under this session's runtime directory), then the display.
final class PeerSession {
    let display: XDisplay
    /// The private `XDG_RUNTIME_DIR`: the accessibility bus's socket, the peers' logs.
    let runtime: URL
    let busAddress: String
    private let bus: ChildProcess
    private var peers: [Peer] = []

    private init(display: XDisplay, runtime: URL, bus: ChildProcess, busAddress: String) {
        self.display = display
        self.runtime = runtime
        self.bus = bus
        self.busAddress = busAddress
    }

    /// Whether the tools the peers and their reading need are installed.
    static var missing: String? {
        if Tools.xvfb == nil || Tools.xdotool == nil { return "Xvfb or xdotool is not installed (run `make deps`)." }
        if Tools.find("dbus-daemon") == nil { return "dbus-daemon is not installed (apt-get install dbus)." }
        if !FileManager.default.fileExists(atPath: AccessibleTree.python) {
            return "python3 is not installed at /usr/bin/python3 (apt-get install python3-pyatspi)."
        }
        if !FileManager.default.fileExists(atPath: "/usr/libexec/at-spi-bus-launcher") {
            return "at-spi2-core is not installed (apt-get install at-spi2-core)."
        }
        return nil
    }

    /// Starts a private Xvfb and a session bus on it.
    static func start() throws -> PeerSession {
        guard let dbus = Tools.find("dbus-daemon") else { throw DriverError("dbus-daemon is not installed.") }
        // Wide enough for the showcase (about 1000 pixels) beside a peer or a second showcase.
        let display = try XDisplay.startPrivate(width: 2100, height: 900)
        let runtime = FileManager.default.temporaryDirectory.appendingPathComponent("dragdrop-peers-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(
                at: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let out = try ProcessPipe()
            // What the bus starts on demand (the accessibility bus, dconf, GVfs, xfconfd for
            // Thunar, Tracker for Nautilus) runs with its environment: the display's own home
            // folders, so none of them reads or writes the real home.
            let bus = try ChildProcess(
                dbus, ["--session", "--nofork", "--print-address=1"],
                environment: display.isolatedFolders.merging([
                    "DISPLAY": display.name, "XDG_RUNTIME_DIR": runtime.path,
                ]) { $1 }, stdout: out.write)
            close(out.write)
            let address = Self.readLine(from: out.read, timeout: 10)
            close(out.read)
            guard let address, !address.isEmpty else {
                bus.stop()
                throw DriverError("dbus-daemon printed no address.")
            }
            return PeerSession(display: display, runtime: runtime, bus: bus, busAddress: address)
        } catch {
            display.stop()
            try? FileManager.default.removeItem(at: runtime)
            throw error
        }
    }

    /// What every peer and the accessibility reader run with: this display's own home folders,
    /// this display and bus, accessibility on (Qt only when asked), Qt's XDND log; the X11
    /// backends, or on a Wayland display GTK's and Firefox's Wayland backends on weston's socket
    /// (named by its full path: the session's runtime folder is its own).
    var environment: [String: String] {
        var environment = display.isolatedFolders.merging([
            "DISPLAY": display.name, "DBUS_SESSION_BUS_ADDRESS": busAddress, "XDG_RUNTIME_DIR": runtime.path,
            "GDK_BACKEND": "x11", "GSK_RENDERER": "cairo", "GTK_A11Y": "atspi", "QT_QPA_PLATFORM": "xcb",
            "QT_ACCESSIBILITY": "1", "QT_LINUX_ACCESSIBILITY_ALWAYS_ON": "1",
            "QT_LOGGING_RULES": "qt.qpa.xdnd=true", "LANG": "C.UTF-8",
        ]) { $1 }
        if let compositor = display.compositor {
            let wayland = compositor.appEnvironment
            if let socket = wayland["WAYLAND_DISPLAY"], let folder = wayland["XDG_RUNTIME_DIR"] {
                environment["WAYLAND_DISPLAY"] = socket.hasPrefix("/") ? socket : folder + "/" + socket
            }
            environment["GDK_BACKEND"] = "wayland"
            environment["MOZ_ENABLE_WAYLAND"] = "1"
            environment["SAL_USE_VCLPLUGIN"] = "gtk3"
        }
        return environment
    }

    /// Launches `program`, waits for its window and for it to appear to assistive technology,
    /// and moves the window to `at`.
    func launch(_ program: PeerProgram, at position: (Int, Int)) throws -> Peer {
        let peer = try Peer(program, in: self, at: position)
        peers.append(peer)
        return peer
    }

    /// Ends the peers, the accessibility services, the bus and the display.
    func stop() {
        for peer in peers { peer.stop() }
        peers = []
        bus.stop()
        // The bus started the accessibility launcher, its bus and registry on demand (and
        // Tracker, GVfs, dconf, xfconfd for the file managers): they live under this session's
        // runtime directory and are ended by their ids. Each is waited for (at most 3 s, then
        // killed): Tracker writes its database as it quits, and would make the display's home
        // again after the display removed it.
        for pid in Self.processes(mentioning: runtime.path) { kill(pid, SIGTERM) }
        let deadline = Date().addingTimeInterval(3)
        while !Self.processes(mentioning: runtime.path).isEmpty, Date() < deadline { usleep(50_000) }
        for pid in Self.processes(mentioning: runtime.path) { kill(pid, SIGKILL) }
        display.stop()
        try? FileManager.default.removeItem(at: runtime)
    }

    /// The ids of this user's processes whose environment mentions `marker`.
    private static func processes(mentioning marker: String) -> [pid_t] {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        let needle = Data(marker.utf8)
        return entries.compactMap { entry -> pid_t? in
            guard let pid = pid_t(entry), pid != getpid(),
                let environ = FileManager.default.contents(atPath: "/proc/\(pid)/environ"),
                environ.range(of: needle) != nil
            else { return nil }
            return pid
        }
    }

    /// The first line written to `fd`, waiting at most `timeout` seconds.
    private static func readLine(from fd: Int32, timeout: Double) -> String? {
        var line = Data()
        let deadline = Date().addingTimeInterval(timeout)
        var byte: UInt8 = 0
        while Date() < deadline {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 100) > 0 else { continue }
            guard read(fd, &byte, 1) == 1 else { break }
            if byte == 0x0A { break }
            line.append(byte)
        }
        return String(data: line, encoding: .utf8)
    }
}
