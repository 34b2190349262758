// `gtk-list-bench latency gtk4-demo|qt-draggableicons COUNT` (issue 22): the same latency run
// against another toolkit's app, started here as a process of its own (COUNT is ignored). The
// drag image is timed as for our widgets (CDragLatency); the CPU per move is the whole
// process's, read from /proc/PID/stat while the moves go in.
import CDragLatency
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// An app with a drag source of its own, and where to press in its window to drag.
struct ExternalPeer {
    var executable: String
    var arguments: [String]
    /// Part of the window's title (the app may map other windows).
    var title: String
    /// Where to press, from the window's top left corner: the middle of the first item.
    var press: (x: Int32, y: Int32)
    /// The package that installs it, for the message when it is missing.
    var package: String

    static func named(_ name: String) -> ExternalPeer? {
        switch name {
        case "gtk4-demo":
            // GTK's own drag and drop demo: four labels ("Item 1" ... "Item 4") on a canvas,
            // each a drag source; the canvas takes them as a drop target. "Item 1" is at 46,46
            // to 110,84 in its 640 x 480 window.
            return ExternalPeer(
                executable: "/usr/bin/gtk4-demo", arguments: ["--run=dnd"], title: "Drag-and-Drop", press: (78, 64),
                package: "gtk-4-examples")
        case "qt-draggableicons":
            // Qt 5's example: two frames of icons (boat, car, house), each a drag source and a
            // drop target; the first boat is at 21,21 to 96,75. Qt starts the drag at the press.
            return ExternalPeer(
                executable: "/usr/lib/x86_64-linux-gnu/qt5/examples/widgets/draganddrop/draggableicons/draggableicons",
                arguments: [], title: "Draggable Icons", press: (58, 48), package: "qtbase5-examples")
        default:
            return nil
        }
    }
}

/// The CPU time (user and system, every thread) process `pid` has used, in milliseconds, from
/// fields 14 and 15 of /proc/PID/stat (clock ticks); nil once it is gone.
func processCPUMilliseconds(_ pid: pid_t) -> Double? {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
    else { return nil }
    // After the command's closing parenthesis: field 3 (the state) onwards.
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
    return (user + system) * 1000 / Double(sysconf(Int32(_SC_CLK_TCK)))
}

/// Starts `peer`, waits for its window, runs the latency measurement on it and prints the `ok`
/// line (as for our widgets); stops the process it started.
func runExternalLatency(_ peer: ExternalPeer) -> Never {
    guard FileManager.default.isExecutableFile(atPath: peer.executable) else {
        fail("\(peer.executable) is not installed (\(peer.package))")
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: peer.executable)
    process.arguments = peer.arguments
    process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
    process.standardError = FileHandle(forWritingAtPath: "/dev/null")
    do { try process.run() } catch { fail("\(peer.executable) could not start: \(error)") }
    let pid = process.processIdentifier
    func stop() {
        guard process.isRunning else { return }
        kill(pid, SIGTERM)
        let deadline = nowSeconds() + 2
        while process.isRunning, nowSeconds() < deadline { usleep(20_000) }
        if process.isRunning { kill(pid, SIGKILL) }
        process.waitUntilExit()
    }
    // Its window, mapped; then a second for its first frames.
    var x: Int32 = 0
    var y: Int32 = 0
    var width: Int32 = 0
    var height: Int32 = 0
    let deadline = nowSeconds() + 30
    while dd_latency_find_window(pid, peer.title, &x, &y, &width, &height) == 0 {
        guard nowSeconds() < deadline, process.isRunning else {
            stop()
            fail("no window \"\(peer.title)\" from \(peer.executable) within 30 s")
        }
        usleep(50_000)
    }
    usleep(1_000_000)

    final class Outcome: @unchecked Sendable {
        var result = DDLatencyResult()
        var done = false
        let lock = NSLock()
    }
    let outcome = Outcome()
    let (pressX, pressY) = (x + peer.press.x, y + peer.press.y)
    let thread = Thread {
        // Released at the screen's far corner, outside the app: nothing is dropped.
        let result = dd_latency_run(pressX, pressY, 200, 30, 1270, 790)
        outcome.lock.withLock {
            outcome.result = result
            outcome.done = true
        }
    }
    thread.start()
    // The process's CPU time every 2 ms while the moves go in (it counts in 10 ms ticks: over
    // 200 moves 30 ms apart that is ±0.05 ms a move).
    var samples: [(time: Double, cpu: Double)] = []
    while !outcome.lock.withLock({ outcome.done }) {
        if let cpu = processCPUMilliseconds(pid) { samples.append((dd_latency_now(), cpu)) }
        usleep(2_000)
    }
    stop()
    var result = outcome.lock.withLock { outcome.result }
    defer { dd_latency_free(&result) }
    guard result.error == 0, result.count > 0 else {
        fail(
            "error \(result.error) count \(result.count) lost \(result.lost) at \(pressX),\(pressY): "
                + ["", "no display", "libXtst.so.6 is missing", "no drag image appeared"][
                    Int(min(max(result.error, 0), 3))])
    }
    reportLatency(result, cpuSamples: samples)
}
