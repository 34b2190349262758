import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// One JSON object printed by the showcase.
public typealias JSONObject = [String: Any]

/// The shown pane's content, from the showcase's latest `state` line.
public struct ShowcaseState: CustomStringConvertible {
    /// The pane's slug ("reminders").
    public var pane: String
    /// Every list (or mailbox) of the pane, by name, with its rows' titles in order.
    public var lists: [String: [String]]
    /// The selected rows' titles, by list.
    public var selected: [String: [String]]
    /// The undo and redo commands' titles ("Undo Move 2 Reminders"), empty when unavailable.
    public var undo: String
    public var redo: String
    /// Mail: the mailbox shown.
    public var mailbox: String?

    init?(_ object: JSONObject) {
        guard object["kind"] as? String == "state", let pane = object["pane"] as? String else { return nil }
        self.pane = pane
        lists = object["lists"] as? [String: [String]] ?? [:]
        selected = object["selected"] as? [String: [String]] ?? [:]
        undo = object["undo"] as? String ?? ""
        redo = object["redo"] as? String ?? ""
        mailbox = object["mailbox"] as? String
    }

    public var description: String {
        lists.keys.sorted().map { "\($0): \(lists[$0]!)" }.joined(separator: "; ")
    }
}

/// Where things are on the screen, from the showcase's `layout` line and its window's position.
public struct ShowcaseLayout {
    public var pane: String
    public var window: ScreenRect
    public var sidebar: [String: ScreenRect] = [:]
    public var buttons: [String: ScreenRect] = [:]
    public var lists: [String: ScreenRect] = [:]
    public var rows: [String: [(title: String, frame: ScreenRect)]] = [:]
    /// The drop destinations' engine target ids by name ("Home": "collection-9").
    public var targets: [String: String] = [:]

    public func row(_ title: String, in list: String) throws -> ScreenRect {
        guard let frame = rows[list]?.first(where: { $0.title == title })?.frame else {
            throw DriverError("No row '\(title)' in '\(list)' (rows: \(rows.mapValues { $0.map(\.title) }))")
        }
        return frame
    }

    public func target(_ name: String) throws -> String {
        guard let id = targets[name] else { throw DriverError("No target named '\(name)' (targets: \(targets))") }
        return id
    }

    public func list(_ name: String) throws -> ScreenRect {
        guard let frame = lists[name] else { throw DriverError("No list '\(name)' (lists: \(lists.keys.sorted()))") }
        return frame
    }
}

/// Collects a child's standard output line by line (a reader thread appends, callers read).
final class LineCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var pending = Data()
    private var lines: [String] = []
    private var times: [Date] = []
    let start = Date()

    func append(_ data: Data) {
        lock.lock()
        defer { lock.unlock() }
        pending.append(data)
        while let newline = pending.firstIndex(of: 0x0A) {
            lines.append(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
            times.append(Date())
            pending.removeSubrange(pending.startIndex...newline)
        }
    }

    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return lines.count
    }

    func lines(from index: Int) -> [String] {
        lock.lock()
        defer { lock.unlock() }
        return index < lines.count ? Array(lines[index...]) : []
    }

    func timedLines(from index: Int) -> [String] {
        lock.lock()
        defer { lock.unlock() }
        guard index < lines.count else { return [] }
        return (index..<lines.count).map { String(format: "%.3f ", times[$0].timeIntervalSince(start)) + lines[$0] }
    }
}

/// The showcase app running in `--tour` mode on a display: its JSON lines, its window's place,
/// and waiting for what it prints.
public final class ShowcaseProcess: @unchecked Sendable {
    public static let windowName = "DragDrop Showcase"

    public let display: XDisplay
    private let process: ChildProcess
    private var input: Int32
    private let output: LineCollector
    /// The window on the screen (X pixels).
    public private(set) var window = ScreenRect(x: 0, y: 0, width: 0, height: 0)
    private var parsed: [JSONObject] = []
    private var parsedLines = 0
    private let parseLock = NSLock()

    private init(display: XDisplay, process: ChildProcess, input: Int32, output: LineCollector) {
        self.display = display
        self.process = process
        self.input = input
        self.output = output
    }

    /// Launches `executable --tour --data-dir DIR` on `display`, waits for its first complete
    /// layout, and moves its window to `at`. `stderrPath`: where the app's standard error goes.
    public static func launch(
        executable: String, dataDirectory: String, display: XDisplay, pane: String? = nil,
        size: (Int, Int) = (1100, 720), at: (Int, Int) = (0, 0), stderrPath: String? = nil, timeout: Double = 30,
        extraArguments: [String] = [], windowName: String = ShowcaseProcess.windowName
    ) throws -> ShowcaseProcess {
        var environment = ["DISPLAY": display.name, "GDK_BACKEND": "x11"]
        if display.isPrivate {
            // No accessibility bus and no session bus on a private display: nothing outlives it.
            environment["GSK_RENDERER"] = "cairo"
            environment["GTK_A11Y"] = "none"
            environment["NO_AT_BRIDGE"] = "1"
            environment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=/nonexistent/dragdrop-showcase"
        }
        var arguments = ["--tour", "--data-dir", dataDirectory, "--size", "\(size.0)x\(size.1)"]
        if let pane { arguments += ["--pane", pane] }
        arguments += extraArguments
        let stdin = try ProcessPipe()
        let stdout = try ProcessPipe()
        var stderrFD: Int32?
        if let stderrPath { stderrFD = open(stderrPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) }
        defer { if let stderrFD, stderrFD >= 0 { close(stderrFD) } }
        let process: ChildProcess
        do {
            process = try ChildProcess(
                executable, arguments, environment: environment, stdin: stdin.read, stdout: stdout.write,
                stderr: (stderrFD ?? -1) >= 0 ? stderrFD : nil)
        } catch {
            for fd in [stdin.read, stdin.write, stdout.read, stdout.write] { close(fd) }
            throw error
        }
        close(stdin.read)
        close(stdout.write)
        let collector = LineCollector()
        let reader = stdout.read
        Thread.detachNewThread {
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = read(reader, &buffer, buffer.count)
                if count <= 0 { break }
                collector.append(Data(buffer[0..<count]))
            }
            close(reader)
        }
        let app = ShowcaseProcess(display: display, process: process, input: stdin.write, output: collector)
        do {
            try app.waitFor("the showcase's ready line", timeout: timeout) { $0["kind"] as? String == "ready" }
            try app.place(at: at, windowName: windowName)
        } catch {
            app.stop()
            throw error
        }
        return app
    }

    /// Moves the window (without a window manager it opened at 0,0) and reads back where it is.
    private func place(at position: (Int, Int), windowName: String) throws {
        let ids = try display.xdotoolOutput(["search", "--sync", "--name", windowName])
        guard let id = ids.split(separator: "\n").first.map(String.init) else {
            throw DriverError("xdotool found no showcase window")
        }
        try display.xdotool(["windowmove", "--sync", id, "\(position.0)", "\(position.1)"])
        let geometry = try display.xdotoolOutput(["getwindowgeometry", "--shell", id])
        var values: [String: Double] = [:]
        for line in geometry.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2, let v = Double(parts[1]) { values[String(parts[0])] = v }
        }
        guard let x = values["X"], let y = values["Y"], let w = values["WIDTH"], let h = values["HEIGHT"] else {
            throw DriverError("Unreadable window geometry: \(geometry)")
        }
        window = ScreenRect(x: x, y: y, width: w, height: h)
    }

    // MARK: Reading output

    /// How many lines the app printed so far (a cursor for the waits).
    public var lineCount: Int { output.count }

    /// The JSON objects printed at or after `index`.
    public func objects(from index: Int = 0) -> [JSONObject] {
        parseLock.lock()
        defer { parseLock.unlock() }
        let lines = output.lines(from: parsedLines)
        for line in lines {
            parsed.append((try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? JSONObject ?? [:])
        }
        parsedLines += lines.count
        return index < parsed.count ? Array(parsed[index...]) : []
    }

    /// The feedback events printed at or after `index`.
    public func events(from index: Int = 0) -> [JSONObject] {
        objects(from: index).filter { $0["kind"] as? String == "feedback" }
    }

    /// The latest state line.
    public var state: ShowcaseState? { objects().reversed().lazy.compactMap(ShowcaseState.init).first }

    /// The last lines, with their arrival times, for failure messages.
    public func recentLines(_ count: Int = 30) -> String {
        output.timedLines(from: max(0, output.count - count)).joined(separator: "\n")
    }

    /// Waits for a line at or after `index` matching `predicate`; throws after `timeout` seconds
    /// with the last lines seen.
    @discardableResult
    public func waitFor(
        _ what: String, after index: Int = 0, timeout: Double = 10, where predicate: (JSONObject) -> Bool
    ) throws -> JSONObject {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let match = objects(from: index).first(where: predicate) { return match }
            if !process.isRunning {
                if let match = objects(from: index).first(where: predicate) { return match }
                throw DriverError("The showcase exited (wait status \(process.exitStatus ?? -1)) before \(what).")
            }
            if Date() > deadline {
                throw DriverError(
                    "Timed out after \(timeout) s waiting for \(what). Last lines:\n\(recentLines())")
            }
            usleep(15_000)
        }
    }

    /// Waits for a state line at or after `index` where `predicate` holds.
    @discardableResult
    public func waitForState(
        _ what: String, after index: Int, timeout: Double = 10, where predicate: (ShowcaseState) -> Bool
    ) throws -> ShowcaseState {
        let line = try waitFor(what, after: index, timeout: timeout) { object in
            ShowcaseState(object).map(predicate) ?? false
        }
        return ShowcaseState(line)!
    }

    /// Waits until GTK's drag that started at or after `index` ended (`drag-end`).
    public func waitForDragEnd(after index: Int, timeout: Double = 10) throws {
        try waitFor("GTK's drag-end", after: index, timeout: timeout) {
            ($0["message"] as? String)?.hasPrefix("drag-end") == true
        }
    }

    /// The latest layout line's frames as they are now (not waiting for them to settle).
    public var latestLayout: ShowcaseLayout? {
        objects().last { $0["kind"] as? String == "layout" }.flatMap(parseLayout)
    }

    /// The latest layout of `pane`, once no new layout line arrived for `quiet` seconds (rows
    /// making room have settled), in screen coordinates.
    public func settledLayout(pane: String, quiet: Double = 0.35, timeout: Double = 10) throws -> ShowcaseLayout {
        let deadline = Date().addingTimeInterval(timeout)
        var last = -1
        var lastChange = Date()
        while Date() < deadline {
            let all = objects()
            if let newest = all.indices.last(where: { all[$0]["kind"] as? String == "layout" }) {
                if newest != last {
                    last = newest
                    lastChange = Date()
                } else if Date().timeIntervalSince(lastChange) >= quiet, all[newest]["pane"] as? String == pane,
                    let layout = parseLayout(all[newest])
                {
                    return layout
                }
            }
            usleep(20_000)
        }
        throw DriverError("The layout of '\(pane)' did not settle within \(timeout) s. Last lines:\n\(recentLines())")
    }

    private func parseLayout(_ object: JSONObject) -> ShowcaseLayout? {
        let surface = object["surface"] as? [Double] ?? [0, 0]
        let ox = window.x + (surface.first ?? 0)
        let oy = window.y + (surface.last ?? 0)
        func rect(_ value: Any?) -> ScreenRect? {
            guard let a = value as? [Double], a.count == 4 else { return nil }
            return ScreenRect(x: ox + a[0], y: oy + a[1], width: a[2], height: a[3])
        }
        func rects(_ value: Any?) -> [String: ScreenRect] {
            var out: [String: ScreenRect] = [:]
            for (key, frame) in value as? [String: Any] ?? [:] { out[key] = rect(frame) }
            return out
        }
        guard let pane = object["pane"] as? String else { return nil }
        var layout = ShowcaseLayout(pane: pane, window: window)
        layout.sidebar = rects(object["sidebar"])
        layout.buttons = rects(object["buttons"])
        layout.lists = rects(object["lists"])
        layout.targets = object["targets"] as? [String: String] ?? [:]
        for (name, rows) in object["rows"] as? [String: [[String: Any]]] ?? [:] {
            var list: [(String, ScreenRect)] = []
            for row in rows {
                guard let title = row["title"] as? String, let r = rect(row["frame"]) else { return nil }
                list.append((title, r))
            }
            layout.rows[name] = list
        }
        return layout
    }

    // MARK: Ending

    /// Closes the app's standard input (it quits at end of input) and waits up to `timeout`
    /// seconds; then SIGTERM, then SIGKILL. Returns the wait status.
    @discardableResult
    public func quit(timeout: Double = 5) -> Int32? {
        if input >= 0 {
            close(input)
            input = -1
        }
        if !process.wait(timeout: timeout) { process.stop() }
        return process.exitStatus
    }

    /// Ends the app at once if it still runs.
    public func stop() {
        if input >= 0 {
            close(input)
            input = -1
        }
        if !process.wait(timeout: 2) { process.stop() }
    }

    deinit { stop() }
}
