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
//
// Ctrl+W closes the window with the keyboard focus (gtk_window_destroy). The scene keeps its
// lists weakly: the host keeps each alive while its window is open. Once a window closed:
//   {"kind":"gtk","message":"closed windowB; list b released; registered N"}
@MainActor
final class TwoWindowsScene: FixtureScene {
    let arguments: [String]
    var host: GtkDragHost?
    /// Each open window's id and its list (held by the host, not here).
    var windows: [(id: TargetID, list: WeakList)] = []

    struct WeakList {
        weak var list: DragListView?
        let id: TargetID
    }
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
                windows.append((spec.window, WeakList(list: list, id: spec.list)))
                closeOnControlW(window, id: spec.window)
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

    /// Ctrl+W destroys `window`; once GTK let go of it, says whether its list was released.
    private func closeOnControlW(_ window: UnsafeMutablePointer<GtkWidget>, id: TargetID) {
        guard let keys = gtk_event_controller_key_new() else { return }
        GSignal.connect(
            UnsafeMutableRawPointer(keys), "key-pressed",
            key: { [weak self] keyval, _, state in
                guard state & GDK_CONTROL_MASK.rawValue != 0, keyval == UInt32(GDK_KEY_w) else { return false }
                gtk_window_destroy(dd_window(window))
                GLibSource.once(afterMilliseconds: 100) { self?.closed(id) }
                return true
            })
        gtk_widget_add_controller(window, keys)
    }

    private func closed(_ id: TargetID) {
        guard let index = windows.firstIndex(where: { $0.id == id }) else { return }
        let entry = windows.remove(at: index)
        let released = entry.list.list == nil ? "released" : "still alive"
        let count = host?.registeredTargetIDs.count ?? -1
        LineWriter.write(
            GtkLine(message: "closed \(id.rawValue); list \(entry.list.id.rawValue) \(released); registered \(count)"))
        printState()
    }

    private var lists: [DragListView] { windows.compactMap(\.list.list) }

    func printState() {
        var state = StateLine()
        state.lists = Dictionary(lists.map { ($0.id.rawValue, $0.items.map(\.title)) }) { first, _ in first }
        state.selected = Dictionary(
            lists.map { list in
                (list.id.rawValue, list.items.filter { list.selection.contains($0.id) }.map(\.title))
            }
        ) { first, _ in first }
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
        for (windowID, entry) in windows {
            guard let list = entry.list else { continue }
            guard let window = host.frameInWindow(of: windowID) else { return }
            layout.windows?[windowID.rawValue] = [window.width, window.height]
            layout.listWindows?[list.id.rawValue] = windowID.rawValue
            if !layout.add(list, as: list.id.rawValue, host: host) { laidOut = false }
        }
        LineWriter.write(layout)
        if laidOut, !announcedReady {
            announcedReady = true
            LineWriter.write(ReadyLine())
        }
    }
}
