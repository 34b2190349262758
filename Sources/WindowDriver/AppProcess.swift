import DriverProtocol
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Collects a child's standard output line by line (a reader thread appends, callers read).
final class LineCollector: @unchecked Sendable {
    private let lock = NSLock()
    /// The start of a line not ended yet.
    private var pending: [UInt8] = []
    private var lines: [String] = []
    private var times: [Date] = []
    let start = Date()

    /// Adds what was read, in linear time: only the new bytes are searched for line breaks (a
    /// line of 100,000 items arrives in many reads; searching it from its start at each read
    /// kept a core busy beside the app under test).
    func append(_ data: Data) {
        lock.lock()
        defer { lock.unlock() }
        data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            guard let base = bytes.baseAddress else { return }
            var from = 0
            while from < bytes.count,
                let found = memchr(base + from, 0x0A, bytes.count - from)
            {
                let end = base.distance(to: UnsafeRawPointer(found))
                pending.append(contentsOf: bytes[from..<end])
                lines.append(String(decoding: pending, as: UTF8.self))
                times.append(Date())
                pending.removeAll(keepingCapacity: true)
                from = end + 1
            }
            pending.append(contentsOf: bytes[from...])
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

/// A GUI app on a display, driven from outside: it prints its state as lines of DriverProtocol
/// on standard output (``ReadyLine`` once its window is up), its window is placed on the screen, and it
/// quits at the end of its standard input. The showcase (``ShowcaseProcess``) and the GTK tests'
/// fixture app run through it.
public class AppProcess: @unchecked Sendable {
    public let display: XDisplay
    /// The executable's file name, for messages.
    public let name: String
    /// The pattern its window's title matches.
    public let windowName: String
    private let process: ChildProcess
    private var input: Int32
    private let output: LineCollector
    /// The window on the screen (X pixels): the X window, or on Wayland the surface with GTK's
    /// shadow (the showcase prints its layout from there, with its `surface` offset).
    public private(set) var window = ScreenRect(x: 0, y: 0, width: 0, height: 0)
    /// The window's content on the screen: where the app's window coordinates start (the same
    /// as ``window`` on X11 without a window manager).
    public private(set) var content = ScreenRect(x: 0, y: 0, width: 0, height: 0)
    private var parsed: [AppLine] = []
    private var parsedLines = 0
    /// Where the app's standard error goes.
    public let stderrPath: String
    private let ownsStderrFile: Bool
    private let parseLock = NSLock()

    /// Launches `executable` with `arguments` on `display`, in the display's
    /// ``XDisplay/appEnvironment`` with `environment` merged over it; waits up to `timeout`
    /// seconds for its ready line, and moves its window (the first whose name matches
    /// `windowName`) to `at`. `stderrPath`: where the app's standard error goes (nil: a private
    /// temporary file, removed with the process; ``glibProblems()`` reads either).
    /// With `screenReader`, the app runs in a private D-Bus session with its accessibility on
    /// and the screen reader's listener beside it.
    public init(
        executable: String, arguments: [String], display: XDisplay, environment: [String: String] = [:],
        stderrPath: String? = nil, timeout: Double = 30, at position: (Int, Int) = (0, 0), windowName: String,
        screenReader: ScreenReader? = nil
    ) throws {
        var environment = environment
        var command = (executable: executable, arguments: arguments)
        if let screenReader {
            command = screenReader.command(for: executable, arguments)
            environment.merge(ScreenReader.environment) { $1 }
        }
        let stdin = try ProcessPipe()
        let stdout = try ProcessPipe()
        var stderrFD: Int32?
        let errorPath =
            stderrPath ?? NSTemporaryDirectory() + "/dragdrop-app-\(getpid())-\(UUID().uuidString.prefix(8)).stderr"
        stderrFD = open(errorPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        defer { if let stderrFD, stderrFD >= 0 { close(stderrFD) } }
        let process: ChildProcess
        do {
            process = try ChildProcess(
                command.executable, command.arguments, environment: display.appEnvironment.merging(environment) { $1 },
                stdin: stdin.read, stdout: stdout.write, stderr: (stderrFD ?? -1) >= 0 ? stderrFD : nil)
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
        self.display = display
        self.stderrPath = errorPath
        ownsStderrFile = stderrPath == nil
        name = URL(fileURLWithPath: executable).lastPathComponent
        self.windowName = windowName
        self.process = process
        input = stdin.write
        output = collector
        do {
            try waitFor("\(name)'s ready line", timeout: timeout) { $0.is(ReadyLine.self) }
            let placed = try display.place(windowNamed: windowName, at: position)
            window = placed.frame
            content = placed.content
        } catch {
            stop()
            throw error
        }
    }

    // MARK: Keyboard focus

    /// Gives the app's window the keyboard as a person would. On X11 without a window manager
    /// xdotool focuses it (the pointer goes to its middle first: X11 gives keys to the window
    /// under the pointer). On Wayland only the compositor gives the focus: a click on the
    /// window's title bar (the middle of its top 8 pixels, where GTK draws it), which the
    /// desktop shell answers by activating the window.
    public func focusWindow() throws {
        if display.backend == .wayland {
            try Pointer(display: display).click(at: (content.midX, content.y + 4))
            return
        }
        try display.xdotool(
            ["mousemove"] + Pointer.at(content.center)
                + ["search", "--onlyvisible", "--name", windowName, "windowfocus", "--sync"])
    }

    // MARK: Reading output

    /// How many lines the app printed so far (a cursor for the waits).
    public var lineCount: Int { output.count }

    /// The lines printed at or after line `index` (a line that is not a JSON object with a
    /// kind stands as one of kind "", so indices stay line numbers).
    public func lines(from index: Int = 0) -> [AppLine] {
        parseLock.lock()
        defer { parseLock.unlock() }
        let lines = output.lines(from: parsedLines)
        parsed += lines.map(AppLine.init)
        parsedLines += lines.count
        return index < parsed.count ? Array(parsed[index...]) : []
    }

    /// The lines of `type` printed at or after line `index`.
    public func lines<E: AppEvent>(_ type: E.Type, from index: Int = 0) -> [E] {
        lines(from: index).compactMap { $0.decode(type) }
    }

    /// The newest line of `type`.
    public func last<E: AppEvent>(_ type: E.Type) -> E? {
        lastLine(type)?.line.decode(type)
    }

    /// The newest line of `type` and its number, found from the end without copying the lines
    /// before it (waits ask for it every few milliseconds).
    public func lastLine<E: AppEvent>(_ type: E.Type) -> (index: Int, line: AppLine)? {
        _ = lines(from: Int.max)  // reads what arrived
        parseLock.lock()
        defer { parseLock.unlock() }
        guard let index = parsed.lastIndex(where: { $0.is(type) }) else { return nil }
        return (index, parsed[index])
    }

    /// The feedback events printed at or after line `index`.
    public func events(from index: Int = 0) -> [FeedbackLine] { lines(FeedbackLine.self, from: index) }

    /// The GTK diagnostic messages printed at or after line `index`.
    public func messages(from index: Int = 0) -> [String] { lines(GtkLine.self, from: index).map(\.message) }

    /// The last lines, with the seconds since launch each arrived at, for failure messages.
    public func recentLines(_ count: Int = 30) -> String {
        output.timedLines(from: max(0, output.count - count)).joined(separator: "\n")
    }

    /// One look for a line at or after `index` matching `predicate`, for a wait that began at
    /// `start`: the line, or nil to look again later (`index` then moves past the lines looked
    /// at, so each line is read once per wait however long it waits: a line of 100,000 items
    /// decoded again at every look kept a core busy and starved the app under test); throws
    /// once the app exited without it or `timeout` seconds have passed, with the last lines seen
    /// (40, or `$DRIVER_LINES` when set, for a longer look at a failure). Waits loop over it,
    /// sleeping the way their caller can (``waitFor(_:after:timeout:where:)`` blocks the thread).
    public func look(
        for what: String, after index: inout Int, since start: Date, timeout: Double,
        where predicate: (AppLine) -> Bool
    ) throws -> AppLine? {
        let running = process.isRunning
        let new = lines(from: index)
        if let match = new.first(where: predicate) { return match }
        index += new.count
        if !running {
            if let match = lines(from: index).first(where: predicate) { return match }
            throw DriverError("\(name) exited (wait status \(process.exitStatus ?? -1)) before \(what).")
        }
        if Date().timeIntervalSince(start) > timeout {
            let now = String(format: "%.3f", Date().timeIntervalSince(output.start))
            let shown = Int(ProcessInfo.processInfo.environment["DRIVER_LINES"] ?? "") ?? 40
            throw DriverError(
                "Timed out after \(timeout) s waiting for \(what) (now \(now) s). Last lines:\n\(recentLines(shown))")
        }
        return nil
    }

    /// Waits for a line at or after `index` matching `predicate`; throws after `timeout` seconds
    /// with the last lines seen.
    @discardableResult
    public func waitFor(
        _ what: String, after index: Int = 0, timeout: Double = 10, where predicate: (AppLine) -> Bool
    ) throws -> AppLine {
        let start = Date()
        var cursor = index
        while true {
            if let match = try look(for: what, after: &cursor, since: start, timeout: timeout, where: predicate) {
                return match
            }
            usleep(15_000)
        }
    }

    /// Waits for a line of `type` at or after `index` where `predicate` holds; throws after
    /// `timeout` seconds with the last lines seen.
    @discardableResult
    public func waitFor<E: AppEvent>(
        _ type: E.Type, _ what: String, after index: Int = 0, timeout: Double = 10,
        where predicate: (E) -> Bool = { _ in true }
    ) throws -> E {
        let line = try waitFor(what, after: index, timeout: timeout) { $0.decode(type).map(predicate) ?? false }
        guard let event = line.decode(type) else { throw DriverError("\(name)'s \(E.kind) line does not decode.") }
        return event
    }

    /// Whether `line` says GTK's drag ended (`drag-end`).
    public static func isDragEnd(_ line: AppLine) -> Bool {
        line.decode(GtkLine.self)?.isDragEnd == true
    }

    /// Waits until GTK's drag that started at or after `index` ended (`drag-end`).
    public func waitForDragEnd(after index: Int, timeout: Double = 10) throws {
        try waitFor("GTK's drag-end", after: index, timeout: timeout, where: Self.isDragEnd)
    }

    // MARK: Input

    /// Writes `line` and a line break to the app's standard input (apps that take commands
    /// there, such as `dragdrop-hostile-source`).
    public func send(line: String) throws {
        guard input >= 0 else { throw DriverError("\(name)'s standard input is closed.") }
        signal(SIGPIPE, SIG_IGN)  // an app that died makes the write fail, not this process
        let bytes = Array((line + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(input, $0.baseAddress, $0.count) }
            guard written > 0 else { throw DriverError("Could not write to \(name)'s standard input.") }
            offset += written
        }
    }

    // MARK: Ending

    /// Whether the app is still running.
    public var isRunning: Bool { process.isRunning }

    /// Sends `signal` to the app if it still runs (SIGKILL makes it vanish mid-transfer).
    public func send(_ signal: Int32) { process.send(signal) }

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
    public func stop() { quit(timeout: 2) }

    /// The lines of the app's standard error where GLib, GDK or GTK reported a critical or a
    /// warning (`(showcase:123): Gdk-CRITICAL **: …`): a test of a real drag expects none.
    public func glibProblems() -> [String] {
        guard let text = try? String(contentsOfFile: stderrPath, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").map(String.init).filter(Self.isGLibProblem)
    }

    /// Whether `line` is a GLib log message of level critical or warning from any domain.
    public static func isGLibProblem(_ line: String) -> Bool {
        for level in ["-CRITICAL **", "-WARNING **"] where line.contains(level) { return true }
        return false
    }

    deinit {
        stop()
        if ownsStderrFile { unlink(stderrPath) }
    }
}

/// Tells when the newest line of one kind stopped changing: a layout has settled once no new
/// one arrived for a while (rows making room end their transitions).
public struct QuietLine<E: AppEvent> {
    public let quiet: Double
    private var newest = -1
    private var since = Date()

    /// Watches lines of `type`; settled after `quiet` seconds without a newer one.
    public init(_ type: E.Type, quiet: Double) { self.quiet = quiet }

    /// The newest line of the kind in `app`'s output if none newer arrived for `quiet` seconds
    /// (since this watch first saw it), else nil: call it again until it answers.
    public mutating func settled(in app: AppProcess) -> E? {
        guard let (last, line) = app.lastLine(E.self) else { return nil }
        if last != newest {
            newest = last
            since = Date()
            return nil
        }
        return Date().timeIntervalSince(since) >= quiet ? line.decode(E.self) : nil
    }
}
