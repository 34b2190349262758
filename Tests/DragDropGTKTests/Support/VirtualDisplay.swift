import Foundation

/// A private X server (Xvfb) for one test, on a free display number; stopped by ``stop()``.
final class VirtualDisplay {
    let number: Int
    private let process: ChildProcess

    var name: String { ":\(number)" }

    private init(number: Int, process: ChildProcess) {
        self.number = number
        self.process = process
    }

    /// Starts Xvfb on a random free display from :120 up and waits until it accepts clients.
    static func start(width: Int = 1280, height: Int = 800) async throws -> VirtualDisplay {
        guard let xvfb = Tools.xvfb else { throw GtkTestError(Tools.missing ?? "Xvfb is missing") }
        for _ in 0..<20 {
            let number = 120 + Int.random(in: 0..<800)
            let lock = "/tmp/.X\(number)-lock"
            let socket = "/tmp/.X11-unix/X\(number)"
            guard !FileManager.default.fileExists(atPath: lock), !FileManager.default.fileExists(atPath: socket) else {
                continue
            }
            let process = try ChildProcess(
                xvfb, [":\(number)", "-screen", "0", "\(width)x\(height)x24", "-nolisten", "tcp"])
            let deadline = Date().addingTimeInterval(10)
            while Date() < deadline, process.isRunning {
                if FileManager.default.fileExists(atPath: socket) {
                    return VirtualDisplay(number: number, process: process)
                }
                try await Task.sleep(for: .milliseconds(20))
            }
            process.stop()  // lost a race for this display number, or too slow: try another
        }
        throw GtkTestError("Could not start Xvfb on a free display (20 attempts from :120).")
    }

    /// Stops the server and waits for it to exit.
    func stop() { process.stop() }
}
