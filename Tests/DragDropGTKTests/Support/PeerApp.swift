import Foundation
import ShowcaseDriver

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
    let origin: ScreenPoint

    private init(process: ChildProcess, origin: ScreenPoint) {
        self.process = process
        self.origin = origin
    }

    /// Starts the clipboard demo and moves its window to `at`.
    static func launchClipboardDemo(on display: XDisplay, at: (Int, Int)) throws -> PeerApp {
        guard let demo else { throw DriverError("gtk4-demo is not installed (apt-get install gtk-4-examples).") }
        let process = try ChildProcess(demo, ["--run=clipboard"], environment: display.appEnvironment)
        do {
            let window = try display.place(windowNamed: "^Clipboard$", at: at).content
            guard window.width == expectedSize.width, window.height == expectedSize.height else {
                throw DriverError("gtk4-demo's Clipboard window is not as large as the test expects: \(window)")
            }
            return PeerApp(process: process, origin: (window.x, window.y))
        } catch {
            process.stop()
            throw error
        }
    }

    /// A point in the window, from the window's top-left corner.
    func point(_ x: Double, _ y: Double) -> ScreenPoint { (origin.x + x, origin.y + y) }

    /// The text entry (its text starts about 8 pixels in).
    var entry: ScreenPoint { point(130, 92) }
    /// The row below the separator, which takes drops.
    var dropRow: ScreenPoint { point(250, 155) }
    /// Where the demo shows dropped text: the right part of the drop row, empty at first.
    var droppedTextArea: ScreenRect { ScreenRect(x: origin.x + 200, y: origin.y + 140, width: 145, height: 30) }

    func stop() { process.stop() }
}
