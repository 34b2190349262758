import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// One line of what the screen-reader listener (`Tools/screen-reader-listener.py`) printed.
public struct ScreenReaderLine: Sendable, CustomStringConvertible {
    /// "heard" (a sentence a screen reader speaks), "unspoken" (text on the bus that is not
    /// spoken), "focus" (the focus moved) or "ready".
    public var kind: String
    /// The sentence ("heard", "unspoken").
    public var text: String
    /// What carried it: "focus-name", "focus-description", "name", "description" or
    /// "announcement".
    public var via: String
    /// The AT-SPI role ("list item") and accessible name of the object it came from.
    public var role: String
    public var name: String

    init(kind: String, text: String, via: String = "", role: String = "", name: String = "") {
        self.kind = kind
        self.text = text
        self.via = via
        self.role = role
        self.name = name
    }

    init?(_ line: String) {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any],
            let kind = object["kind"] as? String
        else { return nil }
        self.kind = kind
        text = object["text"] as? String ?? ""
        via = object["via"] as? String ?? ""
        role = object["role"] as? String ?? ""
        name = object["name"] as? String ?? ""
    }

    public var description: String {
        kind == "focus" ? "focus → \(role) '\(name)'" : "\(kind) '\(text)' via \(via) of \(role) '\(name)'"
    }
}

/// Listens on the accessibility bus as a screen reader does: an app launched with it (see
/// ``AppProcess``'s `screenReader`) runs with `Tools/screen-reader-listener.py` inside one
/// private D-Bus session (`dbus-run-session`), with GTK's AT-SPI backend on, and the listener
/// writes what a screen reader would speak to a file read here.
///
/// ```swift
/// let reader = try ScreenReader(packageRoot: root)
/// let app = try ShowcaseProcess.launch(..., screenReader: reader)
/// try reader.waitUntilHeard("Moved 'Oat milk' to Work.")
/// ```
public final class ScreenReader: @unchecked Sendable {
    /// The system Python, which has `pyatspi` (python3-pyatspi).
    public static let python = "/usr/bin/python3"

    /// Why a screen reader cannot listen here, or nil when it can.
    public static var missing: String? {
        guard Tools.find("dbus-run-session") != nil else {
            return "dbus-run-session is not installed (apt-get install dbus-daemon, or `make deps`)."
        }
        guard FileManager.default.isExecutableFile(atPath: python),
            (try? Tools.run(python, ["-c", "import pyatspi"], timeout: 20)) != nil
        else { return "pyatspi is not installed for \(python) (apt-get install python3-pyatspi, or `make deps`)." }
        guard FileManager.default.fileExists(atPath: "/usr/libexec/at-spi-bus-launcher") else {
            return "The accessibility bus is not installed (apt-get install at-spi2-core, or `make deps`)."
        }
        return nil
    }

    /// The listener script (empty for Orca).
    public let script: String
    /// Where the listener writes its lines (Orca: its debug log).
    public let outputPath: String
    /// Whether the listener is Orca itself (``orca()``), whose speech is read from its log.
    public let isOrca: Bool
    /// Orca's settings folder (its `orca-customizations.py` turns the speech log on).
    private let orcaSettings: String?

    /// Why Orca cannot listen here, or nil when it can.
    public static var orcaMissing: String? {
        if let missing { return missing }
        guard Tools.find("orca") != nil, Tools.find("openbox") != nil else {
            return "Orca or openbox is not installed (apt-get install orca openbox, or `make deps`)."
        }
        return nil
    }

    /// Orca, the desktop's screen reader, listening to the app as a person's would: in the
    /// same private D-Bus session, beside a window manager (openbox; Orca follows the active
    /// window), speaking into a log (`SPEECH OUTPUT: '…'` lines) instead of a sound card. The
    /// app starts once Orca said "Screen reader on." (at most 20 s).
    public static func orca() throws -> ScreenReader { try ScreenReader(orca: ()) }

    private init(orca: Void) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("orca-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let log = folder.appendingPathComponent("speech.log").path
        let customizations = """
            import orca.debug as debug
            debug.debugFile = open(\(String(reflecting: log)), "w", buffering=1)
            debug.debugLevel = debug.LEVEL_INFO

            """
        try Data(customizations.utf8).write(to: folder.appendingPathComponent("orca-customizations.py"))
        script = ""
        outputPath = log
        isOrca = true
        orcaSettings = folder.path
    }

    /// A listener running `script` (the repository's `Tools/screen-reader-listener.py`).
    public init(script: String) throws {
        guard FileManager.default.fileExists(atPath: script) else {
            throw DriverError("The screen-reader listener is missing at \(script).")
        }
        self.script = script
        isOrca = false
        orcaSettings = nil
        outputPath =
            FileManager.default.temporaryDirectory.appendingPathComponent(
                "screen-reader-\(UUID().uuidString).jsonl"
            ).path
    }

    /// A listener running the package's `Tools/screen-reader-listener.py` under `packageRoot`.
    public convenience init(packageRoot: URL) throws {
        try self.init(script: packageRoot.appendingPathComponent("Tools/screen-reader-listener.py").path)
    }

    deinit {
        if let orcaSettings { try? FileManager.default.removeItem(atPath: orcaSettings) }
        try? FileManager.default.removeItem(atPath: outputPath)
        try? FileManager.default.removeItem(atPath: outputPath + ".err")
    }

    /// The environment an app needs to be heard: GTK's AT-SPI backend (the driver turns it off
    /// on private displays).
    public static let environment = ["GTK_A11Y": "atspi"]

    /// The command that runs `executable` with `arguments` in a private D-Bus session where
    /// the listener starts first (the app starts once the listener is ready, at most 10 s).
    /// The app replaces the shell, so it is the session's only child: the session, its
    /// accessibility bus and the listener end with it.
    func command(for executable: String, _ arguments: [String]) -> (executable: String, arguments: [String]) {
        let session = Tools.find("dbus-run-session") ?? "/usr/bin/dbus-run-session"
        if isOrca, let orcaSettings {
            // Orca reads events only from the active window: openbox makes the app's window
            // active. Orca is a GTK 3 app itself: GTK_A11Y would turn its own bridge off.
            let shell = """
                log="$1"; settings="$2"; shift 2
                openbox >/dev/null 2>&1 &
                env -u GTK_A11Y -u NO_AT_BRIDGE orca --replace -u "$settings" -e speech -d braille >"$settings/orca.out" 2>&1 &
                i=0
                while [ $i -lt 400 ] && ! grep -aq "SPEECH OUTPUT: 'Screen reader on" "$log" 2>/dev/null; do sleep 0.05; i=$((i + 1)); done
                exec "$@"
                """
            return (session, ["--", "/bin/sh", "-c", shell, "orca", outputPath, orcaSettings, executable] + arguments)
        }
        let shell = """
            listener="$1"; out="$2"; python="$3"; shift 3
            "$python" "$listener" >"$out" 2>"$out.err" </dev/null &
            i=0
            while [ $i -lt 200 ] && ! grep -q '"ready"' "$out" 2>/dev/null; do sleep 0.05; i=$((i + 1)); done
            exec "$@"
            """
        return (
            session,
            ["--", "/bin/sh", "-c", shell, "screen-reader", script, outputPath, Self.python, executable] + arguments
        )
    }

    /// Every line the listener printed so far.
    public var lines: [ScreenReaderLine] {
        guard let data = FileManager.default.contents(atPath: outputPath) else { return [] }
        let text = String(decoding: data, as: UTF8.self)
        guard isOrca else { return text.split(separator: "\n").compactMap { ScreenReaderLine(String($0)) } }
        // "12:00:01.5 - SPEECH OUTPUT: 'Over Work, will move.'{'established': False}"
        return text.split(separator: "\n").compactMap { line in
            guard let start = line.range(of: "SPEECH OUTPUT: '") else { return nil }
            var spoken = line[start.upperBound...]
            if let end = spoken.range(of: "'{", options: .backwards) ?? spoken.range(of: "' {", options: .backwards) {
                spoken = spoken[..<end.lowerBound]
            }
            return ScreenReaderLine(kind: "heard", text: spoken.trimmingCharacters(in: .whitespaces), via: "orca")
        }
    }

    /// The sentences heard so far, in order.
    public var heard: [String] { lines.filter { $0.kind == "heard" }.map(\.text) }

    /// The listener's standard error (pyatspi's warnings), for failure messages.
    public var errors: String {
        FileManager.default.contents(atPath: outputPath + ".err").map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    /// Waits until `text` was heard at least `count` times; throws after `timeout` seconds with
    /// everything the listener saw.
    public func waitUntilHeard(_ text: String, count: Int = 1, timeout: Double = 10) throws {
        try waitUntil("a screen reader to hear '\(text)'", timeout: timeout) { lines in
            lines.filter { $0.kind == "heard" && $0.text == text }.count >= count
        }
    }

    /// Waits until `predicate` holds for the lines printed so far; throws after `timeout`
    /// seconds with everything the listener saw.
    public func waitUntil(_ what: String, timeout: Double = 10, _ predicate: ([ScreenReaderLine]) -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if predicate(lines) { return }
            usleep(20_000)
        }
        throw DriverError(
            "Timed out after \(timeout) s waiting for \(what). The listener saw:\n"
                + lines.map(\.description).joined(separator: "\n") + "\n" + errors)
    }
}
