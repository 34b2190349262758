import Foundation
import Glibc

/// A private D-Bus session bus with the file transfer portal (`xdg-document-portal`) running on
/// it, for the apps of one display, and a way to run an app as a sandboxed (Flatpak) app: inside
/// `bwrap`, with a `.flatpak-info` at its root, which is how the portal tells a Flatpak app from
/// others. Such an app gets the files of a drop as paths under the portal's FUSE mount
/// (`$XDG_RUNTIME_DIR/doc/…`), and paths hidden from it (``sandboxed(_:_:appID:hiding:)``) are
/// really out of its reach.
///
/// ```swift
/// let portal = try PortalSession(display: display)
/// defer { portal.stop() }  // before display.stop(): the mount lives in the display's home
/// let app = try ShowcaseProcess.launch(..., environment: portal.environment)
/// ```
public final class PortalSession: @unchecked Sendable {
    /// The portal's service.
    public static let portal = "/usr/libexec/xdg-document-portal"

    /// Why the portal cannot run here, or nil when it can.
    public static var missing: String? {
        guard Tools.find("dbus-daemon") != nil else { return "dbus-daemon is not installed (`make deps`)." }
        guard FileManager.default.isExecutableFile(atPath: portal) else {
            return "xdg-document-portal is not installed (apt-get install xdg-desktop-portal, or `make deps`)."
        }
        guard Tools.find("bwrap") != nil else { return "bwrap is not installed (apt-get install bubblewrap, or `make deps`)." }
        guard Tools.find("fusermount3") != nil, FileManager.default.fileExists(atPath: "/dev/fuse") else {
            return "FUSE is not available here (/dev/fuse and fusermount3), so the portal cannot mount its files."
        }
        return nil
    }

    /// The apps' `XDG_RUNTIME_DIR`, where the bus's socket and the portal's mount (`doc`) are.
    public let runtimeDirectory: String
    /// The bus's address.
    public let address: String
    private let bus: ChildProcess
    private var service: ChildProcess?
    private let sandboxFiles: URL

    /// What an app needs to use this bus (merged over the display's environment).
    public var environment: [String: String] { ["DBUS_SESSION_BUS_ADDRESS": address] }

    /// Where the portal mounts the files it hands to sandboxed apps.
    public var mountPoint: String { runtimeDirectory + "/doc" }

    /// Starts a bus and the portal for the apps of `display`, in the display's runtime folder;
    /// waits (at most `timeout` seconds) until the portal has mounted its files and owns its name.
    public init(display: XDisplay, timeout: Double = 20) throws {
        if let missing = Self.missing { throw DriverError(missing) }
        let runtime =
            display.appEnvironment["XDG_RUNTIME_DIR"]
            ?? NSTemporaryDirectory() + "/dragdrop-portal-\(getpid())-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(
            atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        runtimeDirectory = runtime
        let socket = runtime + "/dragdrop-bus"
        address = "unix:path=\(socket)"
        sandboxFiles = FileManager.default.temporaryDirectory.appendingPathComponent(
            "dragdrop-sandbox-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: sandboxFiles, withIntermediateDirectories: true)
        // Services the bus starts (the portal's permission store) get the same runtime folder.
        let environment = display.appEnvironment.merging(["XDG_RUNTIME_DIR": runtime, "DBUS_SESSION_BUS_ADDRESS": address]) { $1 }
        bus = try ChildProcess(
            Tools.find("dbus-daemon") ?? "/usr/bin/dbus-daemon", ["--session", "--nofork", "--address=\(address)"],
            environment: environment)
        do {
            try Self.wait("the session bus's socket", timeout: timeout) { FileManager.default.fileExists(atPath: socket) }
            service = try ChildProcess(Self.portal, [], environment: environment)
            let mount = runtime + "/doc"
            try Self.wait("the portal to mount \(mount)", timeout: timeout) { Self.isMounted(mount) }
            try Self.wait("the portal to own its name on the bus", timeout: timeout) { [address] in
                (try? Tools.run(
                    Tools.find("dbus-send") ?? "/usr/bin/dbus-send",
                    [
                        "--bus=\(address)", "--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
                        "org.freedesktop.DBus.NameHasOwner", "string:org.freedesktop.portal.Documents",
                    ], timeout: 5)).map { String(decoding: $0, as: UTF8.self).contains("boolean true") } ?? false
            }
        } catch {
            stop()
            throw error
        }
    }

    /// The command that runs `executable` with `arguments` as the sandboxed app `appID`: the
    /// system as it is (the display, the bus, the portal's mount), except `hiding`, folders
    /// replaced by empty ones inside the sandbox (the files a sandboxed app cannot see), and
    /// `binding`, host folders shown at other paths inside (its own files, at paths that mean
    /// nothing outside), and a `.flatpak-info` naming the app.
    public func sandboxed(
        _ executable: String, _ arguments: [String], appID: String = "org.dragdrop.Sandboxed", hiding: [String] = [],
        binding: [(host: String, inside: String)] = []
    ) throws -> (executable: String, arguments: [String]) {
        let info = sandboxFiles.appendingPathComponent("flatpak-info-\(appID)")
        try Data("[Application]\nname=\(appID)\n\n[Instance]\ninstance-id=dragdrop-test\n".utf8).write(to: info)
        // The root is a new, empty one holding the host's top-level folders and links, so that
        // what is mounted at the root (the .flatpak-info, `binding`'s new folders) is created
        // in it, never on the host's disk.
        var wrapper = ["--tmpfs", "/"]
        for entry in ((try? FileManager.default.contentsOfDirectory(atPath: "/")) ?? []).sorted() {
            let path = "/" + entry
            if let link = try? FileManager.default.destinationOfSymbolicLink(atPath: path) {
                wrapper += ["--symlink", link, path]
                continue
            }
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else { continue }
            wrapper += ["--dev-bind", path, path]
        }
        wrapper += ["--ro-bind", info.path, "/.flatpak-info", "--die-with-parent"]
        for folder in hiding { wrapper += ["--tmpfs", folder] }
        for bind in binding { wrapper += ["--bind", bind.host, bind.inside] }
        return (Tools.find("bwrap") ?? "/usr/bin/bwrap", wrapper + ["--", executable] + arguments)
    }

    /// Stops the portal (unmounting its files) and the bus.
    public func stop() {
        service?.stop()
        service = nil
        let mount = runtimeDirectory + "/doc"
        if Self.isMounted(mount) {
            _ = try? Tools.run(Tools.find("fusermount3") ?? "/usr/bin/fusermount3", ["-u", "-z", mount], timeout: 10)
        }
        bus.stop()
        try? FileManager.default.removeItem(at: sandboxFiles)
    }

    /// Whether `path` is a mount point (listed in /proc/self/mounts).
    static func isMounted(_ path: String) -> Bool {
        guard let mounts = try? String(contentsOfFile: "/proc/self/mounts", encoding: .utf8) else { return false }
        return mounts.split(separator: "\n").contains { $0.split(separator: " ").dropFirst().first.map(String.init) == path }
    }

    private static func wait(_ what: String, timeout: Double, until condition: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition() {
            if Date() > deadline { throw DriverError("Timed out after \(timeout) s waiting for \(what).") }
            usleep(20_000)
        }
    }
}
