import CGtk4
import DragDrop
import DragDropGTK
import DragDropTesting

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
    let printer = ChangePrinter()
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
            emit(TimelineEntry(time: host.engine.clock.now, event: .feedback(event)).json)
        }
        host.onDiagnostic = { message in emit(.object([("kind", .string("gtk")), ("message", .string(message))])) }
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
            emit(.object([("kind", .string("error")), ("message", .string(error.description))]))
            g_application_quit(dd_application(app))
            return
        }
        for window in shown { gtk_window_present(dd_window(window)) }
        printState()
    }

    func printState() {
        let lists = windows.map { ($0.list.id.rawValue, JSONValue.array($0.list.items.map { .string($0.title) })) }
        let selected = windows.map { entry in
            let list = entry.list
            return (
                list.id.rawValue,
                JSONValue.array(list.items.filter { list.selection.contains($0.id) }.map { .string($0.title) })
            )
        }
        printer.emitIfChanged(
            "state",
            .object([("kind", .string("state")), ("lists", .object(lists)), ("selected", .object(selected))]))
    }

    func printLayout() {
        guard let host else { return }
        var windowSizes: [(String, JSONValue)] = []
        var listWindows: [(String, JSONValue)] = []
        var listFrames: [(String, JSONValue)] = []
        var rowFrames: [(String, JSONValue)] = []
        var laidOut = true
        for (windowID, list) in windows {
            guard let window = host.frameInWindow(of: windowID) else { return }
            windowSizes.append((windowID.rawValue, .array([.number(window.width), .number(window.height)])))
            listWindows.append((list.id.rawValue, .string(windowID.rawValue)))
            listFrames.append((list.id.rawValue, host.frameInWindow(of: list.id).map(SceneWindow.json) ?? .null))
            let rows = list.items.map { item -> JSONValue in
                let frame = host.frameInWindow(of: item.id)
                if (frame?.height ?? 0) <= 0 { laidOut = false }
                return .object([("title", .string(item.title)), ("frame", frame.map(SceneWindow.json) ?? .null)])
            }
            rowFrames.append((list.id.rawValue, .array(rows)))
        }
        emit(
            .object([
                ("kind", .string("layout")), ("windows", .object(windowSizes)),
                ("listWindows", .object(listWindows)), ("lists", .object(listFrames)), ("rows", .object(rowFrames)),
            ]))
        if laidOut, !announcedReady {
            announcedReady = true
            emit(.object([("kind", .string("ready"))]))
        }
    }
}
