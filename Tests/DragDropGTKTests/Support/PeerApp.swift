import Foundation
import DriverProtocol
import WindowDriver

/// A real GTK app we did not write, on the virtual display: `gtk4-demo --run=clipboard`
/// (package gtk-4-examples). Its window "Clipboard" has a text entry (prefilled "Copy this!",
/// a source of dragged text) and, below a separator, a row that takes dropped text and shows it.
final class PeerApp {
    /// The demo program, if installed.
    static let demo = Tools.find("gtk4-demo")
    /// Where things are in the demo's window with the default theme (GTK 4.8): under Xvfb
    /// without a window manager it has no title bar; on Wayland GTK draws one (client-side),
    /// and the text wraps to a wider window.
    struct Geometry {
        var size: (width: Double, height: Double)
        var entry: ScreenPoint
        var dropRow: ScreenPoint
        var droppedText: ScreenRect
    }

    static let x11Geometry = Geometry(
        size: (352, 184), entry: (130, 92), dropRow: (250, 155),
        droppedText: ScreenRect(x: 200, y: 140, width: 145, height: 30))
    static let waylandGeometry = Geometry(
        size: (366, 243), entry: (150, 151), dropRow: (250, 214),
        droppedText: ScreenRect(x: 205, y: 199, width: 150, height: 30))

    private let process: ChildProcess
    /// The window's top-left corner on the screen.
    let origin: ScreenPoint
    let geometry: Geometry

    private init(process: ChildProcess, origin: ScreenPoint, geometry: Geometry) {
        self.process = process
        self.origin = origin
        self.geometry = geometry
    }

    /// Starts the clipboard demo and moves its window to `at`.
    static func launchClipboardDemo(on display: XDisplay, at: (Int, Int)) throws -> PeerApp {
        guard let demo else { throw DriverError("gtk4-demo is not installed (apt-get install gtk-4-examples).") }
        let process = try ChildProcess(demo, ["--run=clipboard"], environment: display.appEnvironment)
        do {
            let window = try display.place(windowNamed: "^Clipboard$", at: at).content
            let geometry = display.backend == .wayland ? waylandGeometry : x11Geometry
            guard window.width == geometry.size.width, window.height == geometry.size.height else {
                throw DriverError("gtk4-demo's Clipboard window is not as large as the test expects: \(window)")
            }
            return PeerApp(process: process, origin: (window.x, window.y), geometry: geometry)
        } catch {
            process.stop()
            throw error
        }
    }

    /// A point in the window, from the window's top-left corner.
    func point(_ x: Double, _ y: Double) -> ScreenPoint { (origin.x + x, origin.y + y) }

    /// The text entry (its text starts about 8 pixels in).
    var entry: ScreenPoint { point(geometry.entry.x, geometry.entry.y) }
    /// The row below the separator, which takes drops.
    var dropRow: ScreenPoint { point(geometry.dropRow.x, geometry.dropRow.y) }
    /// Where the demo shows dropped text: the right part of the drop row, empty at first.
    var droppedTextArea: ScreenRect {
        let r = geometry.droppedText
        return ScreenRect(x: origin.x + r.x, y: origin.y + r.y, width: r.width, height: r.height)
    }

    func stop() { process.stop() }
}
