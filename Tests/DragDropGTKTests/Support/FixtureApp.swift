import Foundation

/// One JSON line printed by the fixture.
typealias JSONObject = [String: Any]

/// A screen rectangle (X pixels).
struct ScreenRect: CustomStringConvertible {
    var x, y, width, height: Double
    var midX: Double { x + width / 2 }
    var midY: Double { y + height / 2 }
    var maxY: Double { y + height }
    var description: String { "(\(x), \(y), \(width)×\(height))" }
}

/// The fixture's frames, in screen coordinates.
struct Layout {
    var lists: [String: ScreenRect] = [:]
    var rows: [String: [(title: String, frame: ScreenRect)]] = [:]

    func row(_ title: String, in list: String) throws -> ScreenRect {
        guard let frame = rows[list]?.first(where: { $0.title == title })?.frame else {
            throw GtkTestError("No row '\(title)' in list '\(list)' in the layout \(rows)")
        }
        return frame
    }

    func list(_ id: String) throws -> ScreenRect {
        guard let frame = lists[id] else { throw GtkTestError("No list '\(id)' in the layout") }
        return frame
    }
}

/// Collects a child's standard output line by line. The pipe's handler runs on a background
/// queue while tests read on theirs; every access goes through the lock.
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

    /// The lines from `index` on, each prefixed with the seconds since launch it arrived at.
    func timedLines(from index: Int) -> [String] {
        lock.lock()
        defer { lock.unlock() }
        guard index < lines.count else { return [] }
        return (index..<lines.count).map { String(format: "%.3f ", times[$0].timeIntervalSince(start)) + lines[$0] }
    }

    func lines(from index: Int) -> [String] {
        lock.lock()
        defer { lock.unlock() }
        return index < lines.count ? Array(lines[index...]) : []
    }
}

/// The fixture app running on a virtual display, its window placed with xdotool.
final class FixtureApp {
    let display: VirtualDisplay
    private let process: ChildProcess
    /// Our end of the fixture's standard input; closing it tells the fixture to quit.
    private var input: Int32
    private let output: LineCollector
    /// The window's top-left corner on the screen.
    private(set) var origin: (x: Double, y: Double) = (0, 0)

    private init(display: VirtualDisplay, process: ChildProcess, input: Int32, output: LineCollector) {
        self.display = display
        self.process = process
        self.input = input
        self.output = output
    }

    /// Launches the fixture (with extra `arguments`, such as `--scene grid`), waits until its rows
    /// are laid out and moves its window to `at`.
    static func launch(
        on display: VirtualDisplay, size: (Int, Int) = (640, 420), at: (Int, Int) = (60, 40), arguments: [String] = []
    ) async throws -> FixtureApp {
        let environment = [
            "DISPLAY": display.name, "GDK_BACKEND": "x11", "GSK_RENDERER": "cairo",
            // No accessibility bus and no session bus: nothing outlives the test.
            "GTK_A11Y": "none", "NO_AT_BRIDGE": "1",
            "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/dragdrop-tests",
        ]
        let stdin = try ProcessPipe()
        let stdout = try ProcessPipe()
        let process: ChildProcess
        do {
            process = try ChildProcess(
                try Tools.fixture(), ["--size", "\(size.0)x\(size.1)"] + arguments, environment: environment,
                stdin: stdin.read,
                stdout: stdout.write)
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
        let app = FixtureApp(display: display, process: process, input: stdin.write, output: collector)
        do {
            _ = try await app.waitFor("the ready line", timeout: 20) { $0["kind"] as? String == "ready" }
            try app.place(at: at)
        } catch {
            app.stop()
            throw error
        }
        return app
    }

    /// Moves the window (there is no window manager: it opened at 0,0) and reads back where it is.
    private func place(at position: (Int, Int)) throws {
        let env = ["DISPLAY": display.name]
        guard let xdotool = Tools.xdotool else {
            throw GtkTestError("xdotool is not installed (apt-get install xdotool).")
        }
        let ids = String(
            decoding: try Tools.run(xdotool, ["search", "--sync", "--name", "DragDrop fixture"], environment: env),
            as: UTF8.self)
        guard let window = ids.split(separator: "\n").first.map(String.init) else {
            throw GtkTestError("xdotool found no fixture window")
        }
        try Tools.run(xdotool, ["windowmove", "--sync", window, "\(position.0)", "\(position.1)"], environment: env)
        let geometry = String(
            decoding: try Tools.run(xdotool, ["getwindowgeometry", "--shell", window], environment: env), as: UTF8.self)
        var values: [String: Double] = [:]
        for line in geometry.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2, let v = Double(parts[1]) { values[String(parts[0])] = v }
        }
        guard let x = values["X"], let y = values["Y"] else {
            throw GtkTestError("Unreadable window geometry: \(geometry)")
        }
        origin = (x, y)
    }

    // MARK: Reading output

    /// How many lines the fixture printed so far (a cursor for ``waitFor(_:after:timeout:where:)``).
    var lineCount: Int { output.count }

    /// The JSON lines printed at or after `index`.
    func objects(from index: Int = 0) -> [JSONObject] {
        output.lines(from: index).compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? JSONObject
        }
    }

    /// The feedback events printed at or after `index`, as (name, object).
    func events(from index: Int = 0) -> [JSONObject] {
        objects(from: index).filter { $0["kind"] as? String == "feedback" }
    }

    /// Waits for a line at or after `index` matching `predicate`; fails after `timeout` seconds
    /// with the lines seen.
    @discardableResult
    func waitFor(
        _ what: String, after index: Int = 0, timeout: Double = 10, where predicate: (JSONObject) -> Bool
    ) async throws -> JSONObject {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let match = objects(from: index).first(where: predicate) { return match }
            if !process.isRunning, objects(from: index).first(where: predicate) == nil {
                throw GtkTestError("The fixture exited (wait status \(process.exitStatus ?? -1)) before \(what).")
            }
            if Date() > deadline {
                let seen = output.timedLines(from: max(0, index - 20)).suffix(40).joined(separator: "\n")
                throw GtkTestError(
                    "Timed out after \(timeout) s waiting for \(what) (now \(String(format: "%.3f", Date().timeIntervalSince(output.start))) s). Last lines:\n\(seen)"
                )
            }
            try await Task.sleep(for: .milliseconds(15))
        }
    }

    /// Waits until GTK's drag that started at or after `index` ended (`drag-end`).
    func waitForDragEnd(after index: Int, timeout: Double = 10) async throws {
        try await waitFor("GTK's drag-end", after: index, timeout: timeout) {
            ($0["message"] as? String)?.hasPrefix("drag-end") == true
        }
    }

    /// Waits for a state line at or after `index` where `predicate` holds; returns its lists.
    @discardableResult
    func waitForState(
        _ what: String, after index: Int, timeout: Double = 10,
        where predicate: (_ lists: [String: [String]], _ selected: [String: [String]]) -> Bool
    ) async throws -> [String: [String]] {
        let line = try await waitFor(what, after: index, timeout: timeout) { object in
            guard object["kind"] as? String == "state", let lists = object["lists"] as? [String: [String]],
                let selected = object["selected"] as? [String: [String]]
            else { return false }
            return predicate(lists, selected)
        }
        return line["lists"] as? [String: [String]] ?? [:]
    }

    /// The latest state's lists.
    var lists: [String: [String]] {
        objects().last { $0["kind"] as? String == "state" }?["lists"] as? [String: [String]] ?? [:]
    }

    /// The latest layout, once no new layout line arrived for `quiet` seconds (transitions of
    /// rows making room have ended), in screen coordinates.
    func settledLayout(quiet: Double = 0.3, timeout: Double = 10) async throws -> Layout {
        let deadline = Date().addingTimeInterval(timeout)
        var last = -1
        var lastChange = Date()
        while Date() < deadline {
            let layouts = objects().enumerated().filter { $0.element["kind"] as? String == "layout" }
            if let newest = layouts.last {
                if newest.offset != last {
                    last = newest.offset
                    lastChange = Date()
                } else if Date().timeIntervalSince(lastChange) >= quiet, let layout = parseLayout(newest.element) {
                    return layout
                }
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw GtkTestError("The fixture's layout did not settle within \(timeout) s.")
    }

    private func parseLayout(_ object: JSONObject) -> Layout? {
        func rect(_ value: Any?) -> ScreenRect? {
            guard let a = value as? [Double], a.count == 4 else { return nil }
            return ScreenRect(x: origin.x + a[0], y: origin.y + a[1], width: a[2], height: a[3])
        }
        var layout = Layout()
        for (id, frame) in object["lists"] as? [String: Any] ?? [:] {
            guard let r = rect(frame) else { return nil }
            layout.lists[id] = r
        }
        for (id, rows) in object["rows"] as? [String: [[String: Any]]] ?? [:] {
            var list: [(String, ScreenRect)] = []
            for row in rows {
                guard let title = row["title"] as? String, let r = rect(row["frame"]) else { return nil }
                list.append((title, r))
            }
            layout.rows[id] = list
        }
        return layout
    }

    // MARK: Ending

    /// Ends the fixture: closes its standard input (it quits at EOF), then SIGTERM, then SIGKILL.
    func stop() {
        if input >= 0 {
            close(input)
            input = -1
        }
        if !process.wait(timeout: 3) { process.stop() }
    }
}
