import Foundation

/// A real GTK app we did not write, on the virtual display: `gtk4-demo --run=clipboard`
/// (package gtk-4-examples). Its window "Clipboard" has a text entry (prefilled "Copy this!",
/// a source of dragged text) and, below a separator, a row that takes dropped text and shows it.
final class PeerApp {
    /// The demo program, if installed.
    static let demo = Tools.find("gtk4-demo")
    /// The size of the demo's window with the default theme under Xvfb (GTK 4.8).
    static let expectedSize = (width: 352.0, height: 184.0)

    private let process: ChildProcess
    /// The window's top-left corner on the screen.
    let origin: (x: Double, y: Double)

    private init(process: ChildProcess, origin: (x: Double, y: Double)) {
        self.process = process
        self.origin = origin
    }

    /// Starts the clipboard demo and moves its window to `at`.
    static func launchClipboardDemo(on display: VirtualDisplay, at: (Int, Int)) throws -> PeerApp {
        guard let demo else { throw GtkTestError("gtk4-demo is not installed (apt-get install gtk-4-examples).") }
        guard let xdotool = Tools.xdotool else { throw GtkTestError("xdotool is not installed.") }
        let process = try ChildProcess(
            demo, ["--run=clipboard"],
            environment: [
                "DISPLAY": display.name, "GDK_BACKEND": "x11", "GSK_RENDERER": "cairo", "GTK_A11Y": "none",
                "NO_AT_BRIDGE": "1", "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/dragdrop-tests",
            ])
        do {
            let env = ["DISPLAY": display.name]
            let ids = String(
                decoding: try Tools.run(
                    xdotool, ["search", "--sync", "--name", "^Clipboard$"], environment: env, timeout: 20),
                as: UTF8.self)
            guard let window = ids.split(separator: "\n").first.map(String.init) else {
                throw GtkTestError("xdotool found no gtk4-demo Clipboard window")
            }
            try Tools.run(xdotool, ["windowmove", "--sync", window, "\(at.0)", "\(at.1)"], environment: env)
            let geometry = String(
                decoding: try Tools.run(xdotool, ["getwindowgeometry", "--shell", window], environment: env),
                as: UTF8.self)
            var values: [String: Double] = [:]
            for line in geometry.split(separator: "\n") {
                let parts = line.split(separator: "=", maxSplits: 1)
                if parts.count == 2, let v = Double(parts[1]) { values[String(parts[0])] = v }
            }
            guard let x = values["X"], let y = values["Y"], values["WIDTH"] == expectedSize.width,
                values["HEIGHT"] == expectedSize.height
            else {
                throw GtkTestError(
                    "gtk4-demo's Clipboard window is not where or how large the test expects: \(geometry)")
            }
            return PeerApp(process: process, origin: (x, y))
        } catch {
            process.stop()
            throw error
        }
    }

    /// A point in the window, from the window's top-left corner.
    func point(_ x: Double, _ y: Double) -> (x: Double, y: Double) { (origin.x + x, origin.y + y) }

    /// The text entry (its text starts about 8 pixels in).
    var entry: (x: Double, y: Double) { point(130, 92) }
    /// The row below the separator, which takes drops.
    var dropRow: (x: Double, y: Double) { point(250, 155) }
    /// Where the demo shows dropped text: the right part of the drop row, empty at first.
    var droppedTextArea: ScreenRect { ScreenRect(x: origin.x + 200, y: origin.y + 140, width: 145, height: 30) }

    func stop() { process.stop() }
}
