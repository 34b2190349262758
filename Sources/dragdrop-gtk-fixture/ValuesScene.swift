import CGtk4
import DragDrop
import DragDropGTK
import DriverProtocol

// `--scene values`: typed values on plain widgets (issue 25), as SwiftUI's `draggable` and
// `dropDestination(for:)`. No identifiers and no MIME types: a `DragValueList` of chores
// (Milk, Eggs), and three GtkLabels:
//   "Basket" takes chores (`dropDestination(for: Chore.self)`, moves: it takes them out of the
//            list) and prints {"kind":"gtk","message":"basket took Milk at 12,30 move"};
//            Ctrl+B makes it decline the next drops ("basket declines"), Ctrl+B again takes them
//   "Tea"    gives a new chore Tea (`draggable`)
//   "Note"   takes text (`dropDestination(for: String.self)`): a chore arrives as its title,
//            {"kind":"gtk","message":"note took 'Milk'"}
// The basket also prints "basket targeted true|false" as the drop's destination comes and goes,
// and a drop it cannot read "basket failed: …".
//
//   {"kind":"state","lists":{"chores":["Milk","Eggs"],"basket":[…]}}   after every change
//   {"kind":"layout","frames":{"chores":…,"chores/Milk":…,"basket":…,"tea":…,"note":…}}
@MainActor
final class ValuesScene: FixtureScene {
    struct Chore: Codable, Sendable, Transferable {
        var title: String
        static var transferRepresentation: TransferRepresentation<Chore> {
            TransferRepresentation.codable()
            TransferRepresentation.proxy(exporting: \.title) { Chore(title: $0) }
        }
    }

    let arguments: [String]
    var scene: SceneWindow?
    var list: DragValueList<Chore>?
    var labels: [(String, UnsafeMutablePointer<GtkWidget>)] = []
    var basket: [Chore] = []
    var declines = false
    let printer = ChangedLineWriter()
    let layoutPrinter = ChangedLineWriter()
    var announcedReady = false

    init(arguments: [String]) { self.arguments = arguments }

    func activate(_ app: UnsafeMutablePointer<GtkApplication>) {
        guard let scene = SceneWindow(app: app, arguments: arguments) else { return }
        self.scene = scene
        let host = scene.host
        let list = DragValueList(
            title: "Chores", values: [Chore(title: "Milk"), Chore(title: "Eggs")], host: host, kind: Noun("chore")
        ) { $0.title }
        self.list = list
        list.onChange = { [weak self] _ in self?.printState() }

        func label(_ text: String) -> UnsafeMutablePointer<GtkWidget> {
            let label = gtk_label_new(text)!
            gtk_widget_set_size_request(label, 120, 60)
            return label
        }
        let basketLabel = label("Basket")
        host.dropDestination(
            basketLabel, for: Chore.self, name: "Basket", kind: Noun("chore"), policy: .preferMove,
            action: { [weak self] chores, location in
                guard let self, !self.declines else { return false }
                self.basket += chores
                let titles = chores.map(\.title).joined(separator: ", ")
                let at = "\(Int(location.point.x)),\(Int(location.point.y))"
                LineWriter.write(GtkLine(message: "basket took \(titles) at \(at) \(location.operation)"))
                self.printState()
                return true
            },
            failed: { error in LineWriter.write(GtkLine(message: "basket failed: \(error)")) },
            isTargeted: { on in LineWriter.write(GtkLine(message: "basket targeted \(on)")) })
        let teaLabel = label("Tea")
        host.draggable(teaLabel, name: "Tea", kind: Noun("chore")) { Chore(title: "Tea") }
        let noteLabel = label("Note")
        host.dropDestination(noteLabel, for: String.self, name: "Note") { texts, _ in
            LineWriter.write(GtkLine(message: "note took " + texts.map { "'\($0)'" }.joined(separator: ", ")))
            return true
        }
        labels = [("basket", basketLabel), ("tea", teaLabel), ("note", noteLabel)]

        let column = SceneWindow.paddedBox(GTK_ORIENTATION_VERTICAL, spacing: 12)
        gtk_widget_set_vexpand(list.widget, 1)
        gtk_box_append(dd_box(UnsafeMutableRawPointer(column)), list.widget)
        let row = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12)!
        gtk_box_set_homogeneous(dd_box(UnsafeMutableRawPointer(row)), 1)
        for (_, widget) in labels { gtk_box_append(dd_box(UnsafeMutableRawPointer(row)), widget) }
        gtk_box_append(dd_box(UnsafeMutableRawPointer(column)), row)
        gtk_window_set_child(dd_window(scene.window), column)
        declineOnControlB(scene.window)
        host.onFramesChanged = { [weak self] in self?.printLayout() }
        scene.present(app) { () throws(GtkDragHostError) in }
        printState()
    }

    private func declineOnControlB(_ window: UnsafeMutablePointer<GtkWidget>) {
        guard let keys = gtk_event_controller_key_new() else { return }
        GSignal.connect(
            UnsafeMutableRawPointer(keys), "key-pressed",
            key: { [weak self] keyval, _, state in
                guard let self, state & GDK_CONTROL_MASK.rawValue != 0, keyval == UInt32(GDK_KEY_b) else {
                    return false
                }
                self.declines.toggle()
                LineWriter.write(GtkLine(message: self.declines ? "basket declines" : "basket takes"))
                return true
            })
        gtk_widget_add_controller(window, keys)
    }

    func printState() {
        var state = StateLine()
        state.lists = ["chores": list?.values.map(\.title) ?? [], "basket": basket.map(\.title)]
        state.selected = ["chores": []]
        printer.write(state)
    }

    func printLayout() {
        guard let host = scene?.host, let list, let window = scene?.window else { return }
        var frames: [(String, Frame)] = []
        var missing = false
        if let frame = host.frameInWindow(of: list.id) { frames.append(("chores", Frame(frame))) }
        for index in 0..<list.numberOfItems {
            guard let frame = host.frameInWindow(of: list.itemID(at: index)), frame.height > 0 else {
                missing = true
                continue
            }
            frames.append(("chores/" + list.title(at: index), Frame(frame)))
        }
        for (name, widget) in labels {
            if let frame = widgetFrame(widget, in: window) { frames.append((name, frame)) }
        }
        layoutPrinter.write(LayoutLine(frames: frames))
        if missing { GLibSource.once(afterMilliseconds: 50) { [weak self] in self?.printLayout() } }
        if !missing, list.numberOfItems > 0, !announcedReady {
            announcedReady = true
            LineWriter.write(ReadyLine())
        }
    }
}
