import CGtk4
import DragDrop
import DragDropGTK
import DriverProtocol

// `--scene two-windows`: one process, one host, two windows of the same app, each with a list
// using the default operation policy (another container copies, S2).
//
//   {"kind":"state","lists":{"a":[…],"b":[…]},"selected":{…}}   after every change
//   {"kind":"layout","windows":{"a":[w,h],"b":[w,h]},"lists":{…},"rows":{…}}
//       frames relative to their own window; "listWindows" says which window holds each list
//   {"kind":"ready"}   once both windows' rows are laid out
//   feedback and gtk lines as in the default scene
@MainActor
final class TwoWindowsScene: FixtureScene {
    let arguments: [String]
    var host: GtkDragHost?
    /// Each window's id and its list.
    var windows: [(id: TargetID, list: DragListView)] = []
    let printer = ChangedLineWriter()
    var announcedReady = false

    init(arguments: [String]) { self.arguments = arguments }

    func activate(_ app: UnsafeMutablePointer<GtkApplication>) {
        var size = (width: Int32(420), height: Int32(360))
        if let i = arguments.firstIndex(of: "--size"), i + 1 < arguments.count {
            let parts = arguments[i + 1].split(separator: "x").compactMap { Int32($0) }
            if parts.count == 2 { size = (parts[0], parts[1]) }
        }
        let host = GtkDragHost(app: "dragdrop-gtk-fixture")
        self.host = host
        host.onEvent = { event in
            LineWriter.write(FeedbackLine(event, at: host.engine.clock.now))
        }
        host.onDiagnostic = { message in LineWriter.write(GtkLine(message: message)) }
        host.onFramesChanged = { [weak self] in self?.printLayout() }

        let specs: [(window: TargetID, title: String, list: TargetID, listTitle: String, items: [String])] = [
            ("windowA", "DragDrop fixture A", "a", "Notes A", ["Milk", "Eggs"]),
            ("windowB", "DragDrop fixture B", "b", "Notes B", ["Report"]),
        ]
        var shown: [UnsafeMutablePointer<GtkWidget>] = []
        do {
            for spec in specs {
                guard let window = gtk_application_window_new(app) else { return }
                gtk_window_set_title(dd_window(window), spec.title)
                gtk_window_set_default_size(dd_window(window), size.width, size.height)
                let box = SceneWindow.paddedBox(GTK_ORIENTATION_HORIZONTAL, spacing: 24)
                gtk_window_set_child(dd_window(window), box)
                let list = DragListView(id: spec.list, title: spec.listTitle, items: spec.items, host: host)
                try host.addWindow(window, id: spec.window, name: spec.title)
                gtk_box_append(dd_box(UnsafeMutableRawPointer(box)), list.widget)
                try list.register(in: spec.window)
                list.onChange = { [weak self] in self?.printState() }
                windows.append((spec.window, list))
                shown.append(window)
            }
        } catch {
            LineWriter.write(ErrorLine(message: error.description))
            g_application_quit(dd_application(app))
            return
        }
        for window in shown { gtk_window_present(dd_window(window)) }
        printState()
    }

    func printState() {
        var state = StateLine()
        state.lists = Dictionary(windows.map { ($0.list.id.rawValue, $0.list.items.map(\.title)) }) { first, _ in first }
        state.selected = Dictionary(
            windows.map { entry in
                let list = entry.list
                return (list.id.rawValue, list.items.filter { list.selection.contains($0.id) }.map(\.title))
            }) { first, _ in first }
        printer.write(state)
    }

    func printLayout() {
        guard let host else { return }
        var layout = LayoutLine()
        layout.windows = [:]
        layout.listWindows = [:]
        layout.lists = [:]
        layout.rows = [:]
        var laidOut = true
        for (windowID, list) in windows {
            guard let window = host.frameInWindow(of: windowID) else { return }
            layout.windows?[windowID.rawValue] = [window.width, window.height]
            layout.listWindows?[list.id.rawValue] = windowID.rawValue
            layout.lists?[list.id.rawValue] = .some(host.frameInWindow(of: list.id).map(Frame.init))
            layout.rows?[list.id.rawValue] = list.items.map { item in
                let frame = host.frameInWindow(of: item.id)
                if (frame?.height ?? 0) <= 0 { laidOut = false }
                return TitledFrame(title: item.title, frame: frame.map(Frame.init))
            }
        }
        LineWriter.write(layout)
        if laidOut, !announcedReady {
            announcedReady = true
            LineWriter.write(ReadyLine())
        }
    }
}
