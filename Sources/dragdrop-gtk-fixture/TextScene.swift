import CGtk4
import DragDrop
import DragDropGTK
import DriverProtocol

// `--scene text`: two styled text views and a text field.
// `--notes HTML`, `--draft HTML`, `--field TEXT` replace their first contents (the text in
// every script of the L4 tests).
//
//   {"kind":"text","id":…,"text":…,"html":…,"selection":…}   a text view after every change
//   {"kind":"entry","id":…,"text":…,"placeholder":…}   the text field after every change
//   {"kind":"layout","frames":{id:[x,y,w,h]},"words":{view:{word:[x,y,w,h]}}}   window coordinates
//   {"kind":"menu","owner":…,"items":[…],"frames":{…}}   an edit menu opened
@MainActor
final class TextScene: FixtureScene {
    let arguments: [String]
    var scene: SceneWindow?
    var views: [DragTextView] = []
    var entry: DragEntry?
    let printer = ChangedLineWriter()
    var announcedReady = false

    init(arguments: [String]) { self.arguments = arguments }

    func activate(_ app: UnsafeMutablePointer<GtkApplication>) {
        guard let scene = SceneWindow(app: app, arguments: arguments) else { return }
        self.scene = scene
        let host = scene.host
        let column = SceneWindow.paddedBox(GTK_ORIENTATION_VERTICAL, spacing: 16)
        let row = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 16)!
        gtk_box_set_homogeneous(dd_box(UnsafeMutableRawPointer(row)), 1)
        gtk_widget_set_vexpand(row, 1)
        func argument(_ name: String) -> String? {
            arguments.firstIndex(of: name).flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
        }
        views = [
            DragTextView(
                id: "notes", name: "Notes", html: argument("--notes") ?? "Move <b>this</b> to the <i>end</i>:",
                host: host),
            DragTextView(id: "draft", name: "Draft", html: argument("--draft") ?? "Draft:", host: host),
        ]
        for view in views {
            gtk_widget_set_hexpand(view.widget, 1)
            gtk_box_append(dd_box(UnsafeMutableRawPointer(row)), view.widget)
            view.onChange = { [weak self, weak view] in
                guard let self, let view else { return }
                self.printText(view)
                self.printLayout()
            }
        }
        let field = DragEntry(
            id: "to", name: "To", placeholder: "Name or email", text: argument("--field") ?? "", host: host)
        entry = field
        field.onChange = { [weak self] in self?.printEntry() }
        gtk_box_append(dd_box(UnsafeMutableRawPointer(column)), row)
        gtk_box_append(dd_box(UnsafeMutableRawPointer(column)), field.widget)
        gtk_window_set_child(dd_window(scene.window), column)
        host.onFramesChanged = { [weak self] in self?.printLayout() }
        scene.present(app) { () throws(GtkDragHostError) in
            for view in views { try view.register(in: scene.windowID) }
            try field.register(in: scene.windowID)
        }
        for view in views { printText(view) }
        printEntry()
    }

    func printText(_ view: DragTextView) {
        printer.write(
            TextLine(id: view.id.rawValue, text: view.text, html: view.html, selection: view.selectedText),
            key: "text.\(view.id)")
    }

    func printEntry() {
        guard let entry else { return }
        printer.write(
            EntryLine(
                id: entry.id.rawValue, text: entry.text, placeholder: entry.placeholder, selection: entry.selectedText))
    }

    func printLayout() {
        guard let host = scene?.host, let entry else { return }
        var frames: [(String, Frame)] = []
        var words: [(String, [String: Frame])] = []
        var laidOut = true
        for id in views.map(\.id) + [entry.id] {
            guard let frame = host.frameInWindow(of: id), frame.height > 0 else {
                laidOut = false
                continue
            }
            frames.append((id.rawValue, Frame(frame)))
        }
        for view in views {
            guard let origin = host.frameInWindow(of: view.id) else { continue }
            var seen: Set<String> = []
            var list: [(String, Frame)] = []
            for word in view.text.split(whereSeparator: { $0 == " " }).map(String.init) where seen.insert(word).inserted
            {
                guard let offset = view.offset(of: word) else { continue }
                let f = view.frameOfText(from: offset, to: offset + word.unicodeScalars.count)
                list.append(
                    (
                        word,
                        Frame(
                            Rect(x: origin.minX + f.x, y: origin.minY + f.y, width: f.width, height: f.height))
                    ))
            }
            words.append((view.id.rawValue, Dictionary(list) { first, _ in first }))
        }
        printer.write(LayoutLine(frames: frames, words: words))
        if laidOut, !announcedReady {
            announcedReady = true
            LineWriter.write(ReadyLine())
        }
    }
}
