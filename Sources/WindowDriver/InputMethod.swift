import Foundation

/// A real input method for an app on a private display (L4): the IBus daemon with its Hangul
/// engine, as a Korean desktop runs it, and a session bus of their own (GTK's IBus module
/// finds no input method without one). Both listen on sockets in the display's home (nothing
/// of the machine's own IBus or session is touched); an app launched with ``environment``
/// types through it with GTK's IBus module. ``hangul(on:)`` starts it with the
/// Hangul engine chosen; the `Hangul` key then switches the engine from Latin to Hangul, and
/// `g k s` composes 한 (dubeolsik) as a person's keyboard does.
public final class InputMethod: @unchecked Sendable {
    /// Why IBus cannot run here, or nil when it can.
    public static var missing: String? {
        guard Tools.find("dbus-daemon") != nil else {
            return "dbus-daemon is not installed (apt-get install dbus-daemon, or `make deps`)."
        }
        guard Tools.find("ibus-daemon") != nil, Tools.find("ibus") != nil else {
            return "IBus is not installed (apt-get install ibus, or `make deps`)."
        }
        guard FileManager.default.isExecutableFile(atPath: engine) else {
            return "IBus's Hangul engine is not installed (apt-get install ibus-hangul, or `make deps`)."
        }
        guard FileManager.default.isExecutableFile(atPath: memconf) else {
            return "IBus's configuration service is not installed (apt-get install ibus, or `make deps`)."
        }
        guard moduleDirectories.contains(where: { FileManager.default.fileExists(atPath: "\($0)/libim-ibus.so") })
        else {
            return "GTK 4's IBus module is not installed (apt-get install ibus-gtk4, or `make deps`)."
        }
        return nil
    }

    static let engine = "/usr/libexec/ibus-engine-hangul"
    static let memconf = "/usr/libexec/ibus-memconf"
    static let moduleDirectories = [
        "/usr/lib/x86_64-linux-gnu/gtk-4.0/4.0.0/immodules", "/usr/lib/gtk-4.0/4.0.0/immodules",
    ]

    /// What an app needs in its environment to type through this input method.
    public let environment: [String: String]
    private let daemon: ChildProcess
    private let bus: ChildProcess

    private init(daemon: ChildProcess, bus: ChildProcess, environment: [String: String]) {
        self.daemon = daemon
        self.bus = bus
        self.environment = environment
    }

    /// Starts IBus on `display` (a private one: the daemon's socket and settings live in its
    /// home) and chooses the Hangul engine; fails with what the daemon said when it does not
    /// come up within `timeout` seconds.
    public static func hangul(on display: XDisplay, timeout: Double = 15) throws -> InputMethod {
        if let missing { throw DriverError(missing) }
        guard let home = display.home else { throw DriverError("IBus runs only on a private display") }
        let socket = home.appendingPathComponent("runtime/ibus.socket").path
        let address = "unix:path=\(socket)"
        let log = home.appendingPathComponent("ibus-daemon.log")
        guard FileManager.default.createFile(atPath: log.path, contents: nil) else {
            throw DriverError("Could not write \(log.path)")
        }
        let handle = try FileHandle(forWritingTo: log)
        defer { try? handle.close() }
        let busSocket = home.appendingPathComponent("runtime/session-bus").path
        let bus = try ChildProcess(
            Tools.find("dbus-daemon") ?? "dbus-daemon",
            ["--session", "--nofork", "--nopidfile", "--address=unix:path=\(busSocket)"],
            environment: display.appEnvironment)
        var environment = display.appEnvironment
        environment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=\(busSocket)"
        environment["IBUS_ADDRESS"] = address
        // Settings in a file of the display's home: with no session bus GSettings would fall
        // back to memory, where the Hangul engine finds no key to switch to Hangul with.
        environment["GSETTINGS_BACKEND"] = "keyfile"
        let daemon = try ChildProcess(
            Tools.find("ibus-daemon") ?? "ibus-daemon",
            ["--address=\(address)", "--panel=disable", "--config=\(memconf)", "--cache=none", "--verbose"],
            environment: environment, stdout: handle.fileDescriptor, stderr: handle.fileDescriptor)
        let method = InputMethod(
            daemon: daemon, bus: bus,
            environment: [
                "GTK_IM_MODULE": "ibus", "IBUS_ADDRESS": address,
                "DBUS_SESSION_BUS_ADDRESS": "unix:path=\(busSocket)",
            ])
        let ibus = Tools.find("ibus") ?? "ibus"
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            // The engine is chosen once the daemon answers on its socket.
            if FileManager.default.fileExists(atPath: socket),
                let chosen = try? Tools.run(ibus, ["engine"], environment: environment, timeout: 10),
                String(decoding: chosen, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) == "hangul"
            {
                return method
            }
            if FileManager.default.fileExists(atPath: socket) {
                _ = try? Tools.run(ibus, ["engine", "hangul"], environment: environment, timeout: 10)
            }
            guard daemon.isRunning, Date() < deadline else {
                method.stop()
                let said = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
                throw DriverError("IBus did not start with its Hangul engine: \(said.suffix(600))")
            }
            Thread.sleep(forTimeInterval: 0.2)
        }
    }

    /// Stops the daemon (its engine ends with it) and the session bus.
    public func stop() {
        daemon.stop()
        bus.stop()
    }

    deinit { stop() }
}
