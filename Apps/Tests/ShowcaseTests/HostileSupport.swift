import Foundation
import DriverProtocol
import WindowDriver
import Testing

/// `dragdrop-hostile-source` on a display: a window offering whatever it is told, any bytes
/// under any type, answered at once, never, a byte at a time, or dying mid-transfer.
final class HostileSource {
    static let windowName = "^Hostile Source$"
    let process: AppProcess

    private init(_ process: AppProcess) { self.process = process }

    /// `wrap` turns the command into another (a sandbox around it); `environment` is merged over
    /// the display's.
    static func launch(
        executable: String, display: XDisplay, appName: String = "hostile-source", at position: (Int, Int) = (1105, 640),
        environment: [String: String] = [:],
        wrap: (String, [String]) throws -> (executable: String, arguments: [String]) = { ($0, $1) }
    ) throws -> HostileSource {
        let command = try wrap(executable, ["--size", "170x150", "--app-name", appName])
        return HostileSource(
            try AppProcess(
                executable: command.executable, arguments: command.arguments, display: display, environment: environment,
                at: position, windowName: windowName))
    }

    var lineCount: Int { process.lineCount }
    var window: ScreenRect { process.window }
    func stop() { process.stop() }
    func send(line: String) throws { try process.send(line: line) }
    @discardableResult
    func waitFor(_ what: String, after index: Int = 0, timeout: Double = 10, where predicate: (AppLine) -> Bool)
        throws -> AppLine
    {
        try process.waitFor(what, after: index, timeout: timeout, where: predicate)
    }
    func waitForDragEnd(after index: Int, timeout: Double = 10) throws {
        try process.waitForDragEnd(after: index, timeout: timeout)
    }

    /// What the next drag offers: one item a representation (`type` and one of `text`,
    /// `base64`, `file`, `repeat` with `count`; `behaviour`, `after`, `interval`, `flush`).
    func offer(_ items: [[String: Any]]) throws {
        let data = try JSONSerialization.data(withJSONObject: ["cmd": "offer", "items": items])
        let mark = lineCount
        try send(line: String(decoding: data, as: UTF8.self))
        let answer = try waitFor("the offer", after: mark, timeout: 30) {
            ["offered", "error"].contains($0.kind)
        }
        if answer.kind == "error" { throw DriverError("The source refused the offer: \(answer)") }
    }

    /// Where drags start: the middle of the window.
    var handle: ScreenPoint { window.center }
}

/// How one hostile payload ended, read from the showcase's lines.
struct HostileVerdict: CustomStringConvertible {
    var accepted: Bool
    /// What the status line said once it was over (the announcement a person hears).
    var message: String
    /// The longest the main loop was blocked from the drop until a second after it ended (ms).
    var longestBlock: Double
    /// `stall` lines (blocked more than 50 ms) in that time.
    var stalls: [Double]

    var description: String {
        "\(accepted ? "accepted" : "refused"): \(message) (longest block \(longestBlock) ms, stalls \(stalls))"
    }
}

/// One row of the table in RELIABILITY.md.
struct HostileReportRow: Sendable {
    var pane: String
    var payload: String
    var verdict: String
    var message: String
    var longestBlock: Double
}

/// Collects the rows of every hostile test and writes them as a Markdown table to
/// `$HOSTILE_REPORT` (when set) after each test, in the order the panes were played.
enum HostileReport {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var rows: [HostileReportRow] = []

    static func add(_ row: HostileReportRow) {
        lock.lock()
        rows.append(row)
        let all = rows
        lock.unlock()
        guard let path = ProcessInfo.processInfo.environment["HOSTILE_REPORT"] else { return }
        var text = "| Pane | Payload | Verdict | What a person sees | Longest block |\n|---|---|---|---|---|\n"
        for row in all {
            let message = row.message.replacingOccurrences(of: "|", with: "\\|")
            let block = row.longestBlock > 0 ? String(format: "%.0f ms", row.longestBlock) : "—"
            text += "| \(row.pane) | \(row.payload) | \(row.verdict) | \(message) | \(block) |\n"
        }
        try? text.write(toFile: path, atomically: true, encoding: .utf8)
    }
}

/// A private display with the showcase on a fresh data directory showing one pane, and the
/// hostile source beside it; drags go from the source to points in the showcase.
final class HostileSession {
    /// Transfers give up quickly here: nothing for 2 s, or still arriving after 4 s.
    static let transferTimeout = 2.0
    static let transferDeadline = 4.0
    /// The main loop reports its longest block four times a second: each drop waits for two
    /// reports after it ends (a stall itself is printed at once).
    static let loopReport = 0.25

    let display: XDisplay
    let app: ShowcaseProcess
    private(set) var source: HostileSource
    private let hostile: String
    private let appName: String
    let pointer: Pointer
    let data: String
    let pane: String
    let paneTitle: String
    /// The window's size at launch (X pixels), which no drop may change.
    let windowSize: (Double, Double)

    init(pane: String, title: String, data: String, showcase: String, hostile: String, appName: String = "hostile-source")
        throws
    {
        self.pane = pane
        paneTitle = title
        self.data = data
        self.hostile = hostile
        self.appName = appName
        display = try XDisplay.startPrivate()
        do {
            app = try ShowcaseProcess.launch(
                executable: showcase, dataDirectory: data, display: display, pane: pane, size: (1100, 720),
                extraArguments: [
                    "--transfer-timeout", String(Self.transferTimeout), "--transfer-deadline",
                    String(Self.transferDeadline), "--loop-report", String(Self.loopReport),
                ])
            source = try HostileSource.launch(executable: hostile, display: display, appName: appName)
        } catch {
            display.stop()
            throw error
        }
        pointer = Pointer(display: display)
        do {
            _ = try app.settledLayout(pane: pane)
            windowSize = try Self.size(of: ShowcaseProcess.windowName, on: display)
        } catch {
            // Nothing outlives a session that could not start.
            source.stop()
            app.stop()
            display.stop()
            throw error
        }
    }

    func stop() {
        source.stop()
        app.stop()
        display.stop()
    }

    /// A fresh source process: after one that never answered, trickled, or was killed, the
    /// next payload starts from a clean app (its stuck transfer would otherwise linger).
    func restartSource() throws {
        source.stop()
        source = try HostileSource.launch(executable: hostile, display: display, appName: appName)
    }

    /// The size of the first window named `name` (a regular expression), from X (on Wayland,
    /// its content as weston shows it).
    static func size(of name: String, on display: XDisplay) throws -> (Double, Double) {
        if let compositor = display.compositor {
            guard let content = try compositor.contentFrame(ofWindowNamed: name) else {
                throw DriverError("No window named '\(name)' on weston.")
            }
            return (content.width, content.height)
        }
        let ids = try display.xdotoolOutput(["search", "--name", name]).split(separator: "\n")
        guard let id = ids.first else { throw DriverError("No window named '\(name)'.") }
        let frame = try display.frame(ofX11Window: String(id))
        return (frame.width, frame.height)
    }

    /// The frame of a list or destination the pane's layout names.
    func frame(_ name: String) throws -> ScreenRect { try app.settledLayout(pane: pane).list(name) }

    /// Offers `items` in the source, drags them onto `point` in the showcase and waits until
    /// the drop is over (committed, refused, or nothing took it), then a second more for the
    /// main loop's report; checks the window kept its size. Records the row `payload` for
    /// RELIABILITY.md.
    @discardableResult
    func drop(
        _ payload: String, _ items: [[String: Any]], at point: ScreenPoint, timeout: Double = 20,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> HostileVerdict {
        try source.offer(items)
        let mark = app.lineCount
        let sourceMark = source.lineCount
        try pointer.drag(from: source.handle, to: point, steps: 8)
        let end = try app.waitFor(FeedbackLine.self, "the drop of \(payload) to end", after: mark, timeout: timeout) { line in
            let event = line.event
            if event == "committed" || event == "placeholderFailed" { return true }
            return event == "outcome" && line.outcome != "placeholder"
                && line.outcome != "completed"
        }
        let accepted = end.event == "committed"
        // The announcement follows the event; the source's drag ends when the drop is finished.
        let statusMark = app.lineCount
        _ = try? source.waitFor("the source's drag-end", after: sourceMark, timeout: 5, where: AppProcess.isDragEnd)
        let message = lastStatus(after: mark, waitingAfter: statusMark)
        let verdict = HostileVerdict(
            accepted: accepted, message: message, longestBlock: 0, stalls: [])
        return try finish(payload, verdict, after: mark, sourceLocation: sourceLocation)
    }

    /// A drag the showcase must refuse while it hovers (no destination there takes its types):
    /// released, the source's drag ends unaccepted and nothing changes.
    @discardableResult
    func dropRefusedWhileHovering(
        _ payload: String, _ items: [[String: Any]], at point: ScreenPoint,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> HostileVerdict {
        try source.offer(items)
        let mark = app.lineCount
        let sourceMark = source.lineCount
        try pointer.drag(from: source.handle, to: point, steps: 8)
        try source.waitForDragEnd(after: sourceMark, timeout: 10)
        let hovering = app.lines(StatusLine.self, from: mark).compactMap { true  ? $0.text : nil }
        let committed = app.events(from: mark).contains { $0.event == "committed" }
        let verdict = HostileVerdict(accepted: committed, message: hovering.last ?? "", longestBlock: 0, stalls: [])
        return try finish(payload, verdict, after: mark, hovering: true, sourceLocation: sourceLocation)
    }

    /// Records a row for something other than a drop (an undo): the last status line since
    /// `mark` and the longest block reported since.
    func record(_ payload: String, verdict: String, since mark: Int) {
        HostileReport.add(
            HostileReportRow(
                pane: paneTitle, payload: payload, verdict: verdict,
                message: app.lines(StatusLine.self, from: mark).last?.text ?? "",
                longestBlock: app.lines(LoopLine.self, from: mark).map(\.longest).max() ?? 0))
    }

    /// The last status line printed after `mark`, waiting briefly for one after `statusMark`.
    private func lastStatus(after mark: Int, waitingAfter statusMark: Int) -> String {
        _ = try? app.waitFor(StatusLine.self, "the status line", after: statusMark, timeout: 1)
        return app.lines(StatusLine.self, from: mark).last?.text ?? ""
    }

    /// Waits for the main loop's next report, reads the longest block since `mark`, checks it
    /// and the window's size, and records the row.
    private func finish(
        _ payload: String, _ verdict: HostileVerdict, after mark: Int, hovering: Bool = false,
        sourceLocation: SourceLocation
    ) throws -> HostileVerdict {
        var verdict = verdict
        let reportMark = app.lineCount
        try app.waitFor(LoopLine.self, "the main loop's report", after: reportMark, timeout: 5)
        try app.waitFor(LoopLine.self, "another report", after: app.lineCount, timeout: 5)
        verdict.longestBlock = app.lines(LoopLine.self, from: mark).map(\.longest).max() ?? 0
        let stalls = app.lines(StallLine.self, from: mark)
        verdict.stalls = stalls.map(\.ms)
        if !stalls.isEmpty { print("hostile: '\(payload.prefix(60))': \(StallLine.describe(stalls))") }
        #expect(
            !stalls.contains { $0.blocksTheApp },
            "the main loop was blocked during '\(payload)': \(verdict); \(StallLine.describe(stalls))",
            sourceLocation: sourceLocation)
        let size = try Self.size(of: ShowcaseProcess.windowName, on: display)
        #expect(
            size == windowSize, "the window kept its size during '\(payload)': \(windowSize) became \(size)",
            sourceLocation: sourceLocation)
        #expect(
            (hovering && verdict.message.isEmpty) || (verdict.message.hasSuffix(".") && !verdict.message.hasSuffix("..")),
            "'\(verdict.message)' ends with exactly one full stop", sourceLocation: sourceLocation)
        #expect(
            !verdict.message.unicodeScalars.contains { (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value) || $0.value == 0x200E || $0.value == 0x200F },
            "no bidirectional control reaches the status line: \(verdict.message.debugDescription)",
            sourceLocation: sourceLocation)
        HostileReport.add(
            HostileReportRow(
                pane: paneTitle, payload: payload,
                verdict: verdict.accepted ? "accepted" : (hovering ? "refused while hovering" : "refused"),
                message: verdict.message.isEmpty && hovering
                    ? "(no announcement: the pointer shows not-allowed, and the source's drag ends unaccepted)"
                    : verdict.message, longestBlock: verdict.longestBlock))
        return verdict
    }
}

/// Small pictures built by hand for the tests: a valid PNG, and headers that lie.
enum TestImages {
    /// A valid RGB PNG of `width` × `height` pixels, one colour (stored, uncompressed deflate).
    static func png(width: Int, height: Int) -> Data {
        var raw = Data()
        for _ in 0..<height {
            raw.append(0)  // filter: none
            for _ in 0..<width { raw.append(contentsOf: [200, 80, 40]) }
        }
        return png(width: width, height: height, idat: zlibStored(raw))
    }

    /// A PNG whose header declares `width` × `height` pixels, followed by `idat` as its data.
    static func png(width: Int, height: Int, idat: Data) -> Data {
        var data = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        var header = Data()
        header.append(contentsOf: bigEndian(UInt32(width)))
        header.append(contentsOf: bigEndian(UInt32(height)))
        header.append(contentsOf: [8, 2, 0, 0, 0])  // 8 bits, RGB, deflate, no filter, no interlace
        data.append(chunk("IHDR", header))
        data.append(chunk("IDAT", idat))
        data.append(chunk("IEND", Data()))
        return data
    }

    /// A zlib stream holding `data` in stored blocks.
    static func zlibStored(_ data: Data) -> Data {
        var out = Data([0x78, 0x01])
        var offset = 0
        repeat {
            let count = min(65_535, data.count - offset)
            let final: UInt8 = offset + count >= data.count ? 1 : 0
            out.append(final)
            out.append(contentsOf: [UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)])
            out.append(data.subdata(in: offset..<(offset + count)))
            offset += count
        } while offset < data.count
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        out.append(contentsOf: bigEndian(b << 16 | a))
        return out
    }

    private static func chunk(_ type: String, _ body: Data) -> Data {
        var data = Data(bigEndian(UInt32(body.count)))
        let typed = Data(type.utf8) + body
        data.append(typed)
        data.append(contentsOf: bigEndian(crc32(typed)))
        return data
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    private static func crc32(_ data: Data) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}

extension StallLine {
    /// Whether this gap in the main loop is the app's doing: its main thread ran more than 50 ms
    /// (work done on the loop: decoding, copying, a quadratic parser), or it was kept off the
    /// loop more than 250 ms in all (a synchronous read from a slow or silent source, a hang).
    /// A shorter gap spent waiting in the kernel (an X server round trip, an fsync while other
    /// processes compile and write) is the machine's load, not the app's design: it is reported
    /// in the verdict but does not fail the test (RELIABILITY.md, "What every drop must do").
    var blocksTheApp: Bool { cpu > 50 || ms > 250 }

    /// "blocked/cpu/wall ms" of each stall, for a failure message.
    static func describe(_ stalls: [StallLine]) -> String {
        "stalls (blocked/ran/wall ms): " + stalls.map { "\($0.ms)/\($0.cpu)/\($0.wall)" }.joined(separator: ", ")
    }
}
