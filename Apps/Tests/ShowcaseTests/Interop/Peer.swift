import Foundation
import DriverProtocol
import WindowDriver

#if canImport(Glibc)
    import Glibc
#endif

/// A program nobody here wrote, used as the other app of a drag: Qt 5's drag-and-drop
/// examples (qtbase5-examples), gtk3-demo (gtk-3-examples) and gtk4-demo (gtk-4-examples).
struct PeerProgram {
    /// The executable.
    var path: String
    var arguments: [String] = []
    /// The name of its window (matched whole).
    var windowName: String
    /// The name it registers under with assistive technology (its program name).
    var accessibleName: String
    /// The toolkit, for messages and the matrix ("Qt 5", "GTK 3", "GTK 4").
    var toolkit: String
    /// Whether assistive technology gets positions relative to the window rather than the
    /// screen (GTK 4.8, which does not know where its window is).
    var windowRelativeExtents = false
    /// Other windows it maps that are moved off the screen (see ``gtk3Demo(_:window:)``).
    var strayWindows: [String] = []

    static let qtExamples = "/usr/lib/x86_64-linux-gnu/qt5/examples/widgets"

    private static func qt(
        _ folder: String, _ name: String, window: String, accessibleName: String? = nil, arguments: [String] = []
    ) -> PeerProgram {
        PeerProgram(
            path: "\(qtExamples)/\(folder)/\(name)/\(name)", arguments: arguments, windowName: window,
            accessibleName: accessibleName ?? name, toolkit: "Qt 5")
    }

    /// Shows every format a drop brings and its content (a table), and the richest in a label.
    static let qtDropSite = qt("draganddrop", "dropsite", window: "Drop Site")
    /// Words as labels, each a drag source of `text/plain` (and a private hot-spot type).
    static let qtDraggableText = qt("draganddrop", "draggabletext", window: "Draggable Text")
    /// Icons that drag only a private `application/x-dnditemdata`.
    static let qtDraggableIcons = qt("draganddrop", "draggableicons", window: "Draggable Icons")
    /// Colour swatches dragging a colour and its name as text, or after the third drag, at
    /// random one time in three, an image; only as a move (QDrag::exec's default action).
    static let qtRobot = qt("graphicsview", "dragdroprobot", window: "Drag and Drop Robot")
    /// A rich text editor (QTextEdit) showing its example document; a selection drags as
    /// `text/html` and `text/plain`.
    static let qtTextEdit = qt(
        "richtext", "textedit", window: ".*Rich Text", accessibleName: "Rich Text",
        arguments: ["\(qtExamples)/richtext/textedit/example.html"])

    /// A gtk3-demo example (`gtk3-demo --run=NAME`) whose window is called `window`.
    ///
    /// gtk3-demo also maps its main window ("Application Class") at 0,0 (no window manager), under
    /// ours; GTK 3's drag source then takes its own window as the target wherever the pointer is
    /// over it, even beneath another window, and leaves ours (XdndLeave) mid-drag. It goes off
    /// the screen.
    static func gtk3Demo(_ example: String, window: String) -> PeerProgram {
        PeerProgram(
            path: Tools.find("gtk3-demo") ?? "/usr/bin/gtk3-demo", arguments: ["--run=\(example)"],
            windowName: window, accessibleName: "gtk3-demo", toolkit: "GTK 3", strayWindows: ["Application Class"])
    }

    /// A gtk4-demo example (`gtk4-demo --run=NAME`) whose window is called `window`.
    static func gtk4Demo(_ example: String, window: String) -> PeerProgram {
        PeerProgram(
            path: Tools.find("gtk4-demo") ?? "/usr/bin/gtk4-demo", arguments: ["--run=\(example)"],
            windowName: window, accessibleName: "gtk4-demo", toolkit: "GTK 4", windowRelativeExtents: true)
    }

    /// Whether the program is installed.
    var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: path) }
}

/// A running peer: its window on the screen, what assistive technology reads in it, its log.
final class Peer {
    let program: PeerProgram
    /// The window on the screen.
    let window: ScreenRect
    /// What GTK 4 counts its positions from: the window without the shadow GTK draws around it
    /// under a compositor (weston); on X11 without one, the window.
    private let content: ScreenRect
    private let process: ChildProcess
    private let environment: [String: String]
    private let logPath: String

    init(_ program: PeerProgram, in session: PeerSession, at position: (Int, Int)) throws {
        guard program.isInstalled else { throw DriverError("\(program.path) is not installed.") }
        self.program = program
        environment = session.environment
        logPath = session.runtime.appendingPathComponent("\(program.accessibleName)-\(UUID().uuidString).log").path
        // Appended, never truncated: Qt's log written through a truncated file fills with NULs.
        let log = open(logPath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        defer { if log >= 0 { close(log) } }
        process = try ChildProcess(
            program.path, program.arguments, environment: environment, stdout: log >= 0 ? log : nil,
            stderr: log >= 0 ? log : nil)
        do {
            let placed = try session.display.place(windowNamed: "^\(program.windowName)$", at: position)
            (window, content) = (placed.frame, placed.content)
            for stray in program.strayWindows {
                _ = try session.display.placeWindow(named: "^\(stray)$", at: (4000, 0))
            }
            // Registered with assistive technology, at its new place.
            try waitFor("its window to be read", timeout: 20) { !$0.isEmpty }
        } catch {
            process.stop()
            throw error
        }
    }

    /// Gives the window the keyboard: on X11 (no window manager here: a click does not) by
    /// asking the X server; on Wayland by a click on the top edge of its content (its title
    /// or header bar), as weston gives the keyboard to the window clicked.
    func focus(_ display: XDisplay) throws {
        if display.backend == .wayland {
            try Pointer(display: display).click(at: (content.midX, content.y + 4))
            usleep(200_000)
            return
        }
        try display.xdotool(["search", "--onlyvisible", "--name", "^\(program.windowName)$", "windowfocus", "--sync"])
    }

    /// A point in the window, from its top-left corner.
    func point(_ x: Double, _ y: Double) -> ScreenPoint { (window.x + x, window.y + y) }

    /// What assistive technology reads in the app's window now (not in other, hidden windows
    /// of the app), placed on the screen.
    func tree() throws -> [AccessibleNode] {
        var nodes = try AccessibleTree.read(program.accessibleName, environment: environment)
        // On Wayland no app knows where its window is: every app's extents are its window's
        // (GTK 4's its content's).
        let origin = program.windowRelativeExtents ? content : window
        if program.windowRelativeExtents || environment["WAYLAND_DISPLAY"] != nil {
            for i in nodes.indices { nodes[i].frame?.x += origin.x; nodes[i].frame?.y += origin.y }
        }
        guard
            let top = nodes.firstIndex(where: { node in
                node.depth == 1 && node.frame.map { abs($0.x - origin.x) < 2 && abs($0.y - origin.y) < 2 } == true
            })
        else { return [] }
        let end = nodes[(top + 1)...].firstIndex { $0.depth <= 1 } ?? nodes.endIndex
        return Array(nodes[top..<end])
    }

    /// Reads the app until `predicate` holds; fails after `timeout` seconds showing the last read.
    @discardableResult
    func waitFor(_ what: String, timeout: Double = 10, where predicate: ([AccessibleNode]) -> Bool) throws
        -> [AccessibleNode]
    {
        let deadline = Date().addingTimeInterval(timeout)
        var last: [AccessibleNode] = []
        while true {
            last = try tree()
            if predicate(last) { return last }
            if Date() > deadline || !process.isRunning {
                var shown = last.filter { !$0.shown.isEmpty }.prefix(80).map { "  \($0)" }.joined(separator: "\n")
                if last.isEmpty, let all = try? AccessibleTree.read(program.accessibleName, environment: environment) {
                    shown = "(nothing at \(window); the app shows:)\n"
                        + all.filter { $0.depth <= 2 }.prefix(20).map { "  \($0)" }.joined(separator: "\n")
                }
                throw DriverError(
                    "\(program.toolkit) \(program.accessibleName) never showed \(what) within \(timeout) s"
                        + "\(process.isRunning ? "" : " (it exited)"). It shows:\n\(shown)\nIts log ends:\n\(logTail)")
            }
            usleep(150_000)
        }
    }

    /// The first object matching `predicate` in a fresh read.
    func find(_ what: String, timeout: Double = 10, _ predicate: @escaping (AccessibleNode) -> Bool) throws
        -> AccessibleNode
    {
        let nodes = try waitFor(what, timeout: timeout) { $0.contains(where: predicate) }
        return nodes.first(where: predicate)!
    }

    /// What the app wrote (Qt's XDND log among it).
    var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    private var logTail: String { log.split(separator: "\n").suffix(15).joined(separator: "\n") }

    func stop() { process.stop() }
}
