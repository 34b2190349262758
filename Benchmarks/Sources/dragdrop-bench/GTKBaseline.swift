import BenchGeometry
import BenchmarkSupport
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Runs `gtk-pick-bench` (built next to this executable) for the GTK rows of scenario 1, under
/// the display in `DISPLAY`, or under an Xvfb started here when `DISPLAY` is unset.
final class GTKBaseline {
    struct Result {
        var median: Double
        var p99: Double
        var samples: Int
        var widgets: Int
        var setupSeconds: Double
    }

    private let tool: String?
    private let quick: Bool
    private var display: String?
    private var xvfb: Process?
    private var unavailable: String?
    private let suite: Suite

    init(suite: Suite) {
        self.suite = suite
        quick = suite.options.quick
        let dir = URL(fileURLWithPath: Subprocess.executablePath).deletingLastPathComponent().path
        let candidate = dir + "/gtk-pick-bench"
        tool = FileManager.default.isExecutableFile(atPath: candidate) ? candidate : nil
        if tool == nil { unavailable = "gtk-pick-bench was not built (is libgtk-4-dev installed?)" }
    }

    deinit { stop() }

    /// Times `gtk_widget_pick` over the scene `layout` with `count` cards, or says why it cannot.
    func pick(layout: BenchScene.Layout, count: Int) -> Swift.Result<Result, GTKUnavailable> {
        if let unavailable { return .failure(GTKUnavailable(unavailable)) }
        guard let tool else { return .failure(GTKUnavailable("no tool")) }
        if display == nil, let reason = startDisplay() {
            unavailable = reason
            return .failure(GTKUnavailable(reason))
        }
        var arguments = [layout.rawValue, String(count)]
        if quick { arguments.append("--quick") }
        do {
            let run = try Subprocess.run(
                tool, arguments,
                environment: Subprocess.cleanEnvironment(["DISPLAY": display!, "GSK_RENDERER": "cairo"]))
            let words = run.output.split(whereSeparator: \.isWhitespace)
            guard run.status == 0, words.first == "ok", words.count >= 7, let median = Double(words[1]),
                let p99 = Double(words[2]), let samples = Int(words[3]), let widgets = Int(words[4]),
                let setup = Double(words[5]), let mismatches = Int(words[6])
            else {
                let reason = run.output.trimmingCharacters(in: .whitespacesAndNewlines)
                return .failure(GTKUnavailable(reason.isEmpty ? "gtk-pick-bench exited with \(run.status)" : reason))
            }
            if mismatches > 0 {
                suite.note(
                    "GTK \(layout.rawValue) \(count): \(mismatches) of 100 picks differed from the scene's deepest node."
                )
            }
            suite.log(
                String(format: "    GTK: %d widgets built and shown in %.1f s; %d samples", widgets, setup, samples))
            return .success(Result(median: median, p99: p99, samples: samples, widgets: widgets, setupSeconds: setup))
        } catch {
            return .failure(GTKUnavailable("gtk-pick-bench could not run: \(error)"))
        }
    }

    /// Runs the tool `name` (built next to this executable) with `arguments` under the display,
    /// and returns the words of its `ok ...` line after `ok`, or why it could not run.
    /// `environment` is added to the tool's (after DISPLAY and the rest).
    func runTool(_ name: String, _ arguments: [String], environment extra: [String: String] = [:]) -> ToolResult {
        let dir = URL(fileURLWithPath: Subprocess.executablePath).deletingLastPathComponent().path
        let path = dir + "/" + name
        guard FileManager.default.isExecutableFile(atPath: path) else {
            return .failure(GTKUnavailable("\(name) was not built (is libgtk-4-dev installed?)"))
        }
        if display == nil, let reason = startDisplay() { return .failure(GTKUnavailable(reason)) }
        do {
            let run = try Subprocess.run(
                path, arguments,
                environment: Subprocess.cleanEnvironment(
                    ["DISPLAY": display!, "GSK_RENDERER": "cairo", "GTK_A11Y": "none"].merging(extra) { $1 }))
            let words = run.output.split(whereSeparator: \.isWhitespace).map(String.init)
            guard run.status == 0, words.first == "ok" else {
                let reason = run.output.trimmingCharacters(in: .whitespacesAndNewlines)
                return .failure(GTKUnavailable(reason.isEmpty ? "\(name) exited with \(run.status)" : reason))
            }
            return .success(Array(words.dropFirst()))
        } catch {
            return .failure(GTKUnavailable("\(name) could not run: \(error)"))
        }
    }

    /// The X display the tools run on (started if need be), or why there is none.
    func xDisplay() -> Swift.Result<String, GTKUnavailable> {
        if display == nil, let reason = startDisplay() { return .failure(GTKUnavailable(reason)) }
        return .success(display!)
    }

    /// Uses `DISPLAY`, or starts `Xvfb -displayfd` on a free display. Returns why not, if not.
    private func startDisplay() -> String? {
        if let existing = ProcessInfo.processInfo.environment["DISPLAY"], !existing.isEmpty {
            display = existing
            return nil
        }
        guard let xvfbPath = Subprocess.which("Xvfb") else { return "DISPLAY is unset and Xvfb is not installed" }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: xvfbPath)
        process.arguments = ["-displayfd", "1", "-screen", "0", "1280x800x24", "-nolisten", "tcp"]
        process.environment = Subprocess.cleanEnvironment()
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        do { try process.run() } catch { return "Xvfb could not start: \(error)" }
        xvfb = process
        // Xvfb writes the display number it chose once it accepts connections.
        var text = ""
        let handle = pipe.fileHandleForReading
        let deadline = Date().addingTimeInterval(15)
        while !text.contains("\n"), Date() < deadline, process.isRunning {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        let number = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !number.isEmpty, Int(number) != nil else {
            stop()
            return "Xvfb did not report a display"
        }
        display = ":" + number
        suite.log("    started Xvfb on \(display!)")
        return nil
    }

    /// Stops the Xvfb started here, if any.
    func stop() {
        if let xvfb, xvfb.isRunning {
            xvfb.terminate()
            // Xvfb can sit with SIGTERM blocked (seen once: asleep in epoll_wait, the signal
            // pending for good, and `make bench` waiting with it): kill it after 2 s.
            let deadline = Date().addingTimeInterval(2)
            while xvfb.isRunning, Date() < deadline { usleep(20_000) }
            if xvfb.isRunning { kill(xvfb.processIdentifier, SIGKILL) }
            xvfb.waitUntilExit()
        }
        xvfb = nil
    }
}

/// The words of a tool's `ok ...` line after `ok`, or why it could not run.
typealias ToolResult = Swift.Result<[String], GTKUnavailable>

struct GTKUnavailable: Error, CustomStringConvertible {
    var description: String
    init(_ reason: String) { description = reason }
}
