import BenchmarkSupport
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

extension LatencyScenario {
    /// The name (WM_CLASS) of weston's window on the X display.
    static let westonWindow = "Weston Compositor"

    /// Issue 22 on Wayland: weston nested in the Xvfb (its X11 backend, pixman, the kiosk shell,
    /// so the app fills its 800 x 600 output at the window's corner), our list and a plain
    /// GtkListView at 10,000 rows as Wayland clients inside it. The pointer moves go in through
    /// XTest on the X display, and each is timed until the X server reports damage to weston's
    /// window: the compositor drew its next frame, pointer and drag icon at their new place.
    static func waylandRows(_ suite: Suite, _ gtk: GTKBaseline) {
        let count = 10_000
        var figures: [Run: Figures] = [:]
        switch startWeston(gtk) {
        case .failure(let reason):
            suite.note("latency on Wayland: n/a (\(reason))")
        case .success(let weston):
            defer { weston.stop() }
            let environment = [
                "WAYLAND_DISPLAY": weston.socket, "XDG_RUNTIME_DIR": weston.runtimeDirectory, "GDK_BACKEND": "wayland",
                "DRAGDROP_BENCH_DAMAGE": westonWindow,
            ]
            figures = measureRounds(
                suite, gtk, kinds: ["listview", "ours"], count: count, environment: environment)
        }
        addRows(
            suite, scenario: "Drag image latency on Wayland (weston nested in Xvfb), \(sizeLabel(count)) rows",
            ours: figures[Run("ours")], baseline: "GTK drag and drop over a GtkListView, same weston",
            plain: figures[Run("listview")])
    }

    /// A weston started here, and how to reach it.
    final class Weston {
        let process: Process
        let socket: String
        let runtimeDirectory: String

        init(process: Process, socket: String, runtimeDirectory: String) {
            self.process = process
            self.socket = socket
            self.runtimeDirectory = runtimeDirectory
        }

        func stop() {
            if process.isRunning {
                process.terminate()
                let deadline = Date().addingTimeInterval(2)
                while process.isRunning, Date() < deadline { usleep(20_000) }
                if process.isRunning { kill(process.processIdentifier, SIGKILL) }
                process.waitUntilExit()
            }
            try? FileManager.default.removeItem(atPath: runtimeDirectory)
        }
    }

    /// Starts weston on the benchmark's X display, in a runtime directory of its own, and waits
    /// for its socket.
    static func startWeston(_ gtk: GTKBaseline) -> Swift.Result<Weston, GTKUnavailable> {
        guard let path = Subprocess.which("weston") else { return .failure(GTKUnavailable("weston is not installed")) }
        let display: String
        switch gtk.xDisplay() {
        case .success(let d): display = d
        case .failure(let reason): return .failure(reason)
        }
        let pid = ProcessInfo.processInfo.processIdentifier
        let runtime = NSTemporaryDirectory() + "dragdrop-bench-wayland-\(pid)"
        do {
            try FileManager.default.createDirectory(
                atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch { return .failure(GTKUnavailable("no runtime directory: \(error)")) }
        let socket = "dragdrop-bench-\(pid)"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = [
            "--backend=x11-backend.so", "--use-pixman", "--shell=kiosk-shell.so", "--socket=\(socket)",
            "--width=800", "--height=600", "--idle-time=0",
        ]
        process.environment = Subprocess.cleanEnvironment(["DISPLAY": display, "XDG_RUNTIME_DIR": runtime])
        process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        do { try process.run() } catch { return .failure(GTKUnavailable("weston could not start: \(error)")) }
        let weston = Weston(process: process, socket: socket, runtimeDirectory: runtime)
        let deadline = Date().addingTimeInterval(15)
        while !FileManager.default.fileExists(atPath: runtime + "/" + socket) {
            guard process.isRunning, Date() < deadline else {
                weston.stop()
                return .failure(GTKUnavailable("weston did not start (its X11 backend on \(display))"))
            }
            usleep(50_000)
        }
        // Its window mapped and its first frame drawn.
        usleep(500_000)
        return .success(weston)
    }
}
