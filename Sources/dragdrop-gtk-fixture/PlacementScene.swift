import CGtk4
import DragDrop
import DragDropGTK
import DriverProtocol

// `--scene placement`: the widget tree is the target tree. Two lists and a scroll view created
// without identifiers and never registered by the scene: list "a" inside a `DragScrollView`,
// list "b" beside it. They take part in drags once placed in the window.
//
//   {"kind":"state","lists":{"a":[…],"b":[…]}}   after every change
//   {"kind":"layout",…}, {"kind":"ready"}         as in the two-windows scene
//   {"kind":"gtk","message":"parents a=scroller b=window scroller=window"}
//       after every layout and every Ctrl+M: each one's parent target ("none": not registered)
//
// Ctrl+M takes list "b" out of the window, and puts it back at the end the next time.
//
// Below the lists, a plain GtkLabel is a drop target through `host.attach(_:as:delegate:)`, its
// registration held by the scene; a drop on it prints
//   {"kind":"gtk","message":"label took Milk"}
// and Ctrl+T lets go of the registration (the label is "none" in the parents line after).
@MainActor
final class PlacementScene: FixtureScene {
    let arguments: [String]
    var host: GtkDragHost?
    var scroller: DragScrollView?
    var lists: [(name: String, list: DragListView)] = []
    var box: UnsafeMutablePointer<GtkWidget>?
    let printer = ChangedLineWriter()
    let parentsPrinter = ChangedLineWriter()
    var announcedReady = false
    /// The label's registration; nil once Ctrl+T let it go.
    var labelRegistration: DragRegistration?
    let labelID = TargetID("drop-label")

    /// Takes drops on the label and says what arrived.
    final class LabelDrops: GtkDragHostDelegate {
        func dragHost(_ host: GtkDragHost, perform drop: DropRequest) -> DropResult {
            LineWriter.write(GtkLine(message: "label took " + drop.items.map(\.name).joined(separator: ", ")))
            return .committed(undo: nil)
        }
    }

    init(arguments: [String]) { self.arguments = arguments }

    func activate(_ app: UnsafeMutablePointer<GtkApplication>) {
        let host = GtkDragHost(app: "dragdrop-gtk-fixture")
        self.host = host
        host.onEvent = { event in LineWriter.write(FeedbackLine(event, at: host.engine.clock.now)) }
        host.onDiagnostic = { message in LineWriter.write(GtkLine(message: message)) }
        host.onFramesChanged = { [weak self] in self?.printLayout() }
        guard let window = gtk_application_window_new(app) else { return }
        gtk_window_set_title(dd_window(window), "DragDrop fixture")
        gtk_window_set_default_size(dd_window(window), 520, 360)
        do {
            try host.addWindow(window, id: "window", name: "DragDrop fixture")
        } catch {
            LineWriter.write(ErrorLine(message: error.description))
            return
        }
        let box = SceneWindow.paddedBox(GTK_ORIENTATION_HORIZONTAL, spacing: 24)
        gtk_box_set_homogeneous(dd_box(UnsafeMutableRawPointer(box)), 1)
        self.box = box
        let a = DragListView(title: "Notes A", items: ["Milk", "Eggs"], host: host)
        let b = DragListView(title: "Notes B", items: ["Report"], host: host)
        let scroller = DragScrollView(name: "Scroller", child: a.widget, host: host)
        self.scroller = scroller
        lists = [("a", a), ("b", b)]
        for (_, list) in lists { list.onChange = { [weak self] in self?.printState() } }
        gtk_box_append(dd_box(UnsafeMutableRawPointer(box)), scroller.widget)
        gtk_box_append(dd_box(UnsafeMutableRawPointer(box)), b.widget)
        let column = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        gtk_widget_set_vexpand(box, 1)
        gtk_box_append(dd_box(UnsafeMutableRawPointer(column)), box)
        let label = gtk_label_new("Drop here")!
        gtk_widget_set_size_request(label, -1, 60)
        gtk_box_append(dd_box(UnsafeMutableRawPointer(column)), label)
        gtk_window_set_child(dd_window(window), column)
        var target = DragTarget(id: labelID, name: "Drop here", frame: .zero, parent: "window")
        target.accepts = [DragListView.itemType]
        do {
            labelRegistration = try host.attach(label, as: target, delegate: LabelDrops())
        } catch {
            LineWriter.write(ErrorLine(message: error.description))
        }
        toggleOnControlM(window)
        gtk_window_present(dd_window(window))
        printState()
    }

    private func toggleOnControlM(_ window: UnsafeMutablePointer<GtkWidget>) {
        guard let keys = gtk_event_controller_key_new() else { return }
        GSignal.connect(
            UnsafeMutableRawPointer(keys), "key-pressed",
            key: { [weak self] keyval, _, state in
                guard let self, let box = self.box, state & GDK_CONTROL_MASK.rawValue != 0 else { return false }
                if keyval == UInt32(GDK_KEY_t) {
                    self.labelRegistration = nil
                    GLibSource.once(afterMilliseconds: 50) { [weak self] in self?.printParents() }
                    return true
                }
                guard keyval == UInt32(GDK_KEY_m), let b = self.lists.last?.list else { return false }
                if gtk_widget_get_parent(b.widget) != nil {
                    gtk_box_remove(dd_box(UnsafeMutableRawPointer(box)), b.widget)
                } else {
                    gtk_box_append(dd_box(UnsafeMutableRawPointer(box)), b.widget)
                }
                // The layout too: rows registering again may change no frame (no layout line).
                GLibSource.once(afterMilliseconds: 50) { [weak self] in self?.printLayout() }
                return true
            })
        gtk_widget_add_controller(window, keys)
    }

    func printState() {
        var state = StateLine()
        state.lists = Dictionary(uniqueKeysWithValues: lists.map { ($0.name, $0.list.items.map(\.title)) })
        state.selected = Dictionary(uniqueKeysWithValues: lists.map { ($0.name, [String]()) })
        printer.write(state)
    }

    func printParents() {
        guard let host, let scroller else { return }
        func parent(of id: TargetID) -> String {
            guard let target = host.engine.registry.target(id) else { return "none" }
            return target.parent == scroller.id ? "scroller" : target.parent?.rawValue ?? "root"
        }
        let named =
            lists.map { "\($0.name)=\(parent(of: $0.list.id))" } + [
                "scroller=\(parent(of: scroller.id))", "label=\(parent(of: labelID))",
            ]
        parentsPrinter.write(GtkLine(message: "parents " + named.joined(separator: " ")))
    }

    func printLayout() {
        guard let host else { return }
        printParents()
        var layout = LayoutLine()
        layout.lists = [:]
        layout.rows = [:]
        var laidOut = true
        layout.lists?["label"] = .some(host.frameInWindow(of: labelID).map(Frame.init))
        for (name, list) in lists where host.engine.registry.target(list.id) != nil {
            if !layout.add(list, as: name, host: host) { laidOut = false }
        }
        LineWriter.write(layout)
        if laidOut, !announcedReady {
            announcedReady = true
            LineWriter.write(ReadyLine())
        }
    }
}
