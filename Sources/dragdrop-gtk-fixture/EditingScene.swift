import CGtk4
import DragDrop
import DragDropGTK
import DriverProtocol

// `--scene editing`: the edit menu's details (K6) and a secure field (K11): a text view, a text
// field and a selectable label, each holding words, and a password field.
//
//   {"kind":"selection","id":"notes"|"field"|"label","text":…}   after every selection change
//   {"kind":"secure","length":…}                                 the password's length
//   {"kind":"menu","owner":…,"items":[…],"frames":{…}}            an edit menu opened
//   {"kind":"layout","frames":{"notes":…,"field":…,"label":…,"password":…},"words":{id:{word:…}}}
@MainActor
final class EditingScene: FixtureScene {
    let arguments: [String]
    var scene: SceneWindow?
    var notes: DragTextView?
    var field: DragEntry?
    var label: UnsafeMutablePointer<GtkWidget>?
    var password: SecureEntry?
    let printer = ChangedLineWriter()
    var announcedReady = false

    static let labelText = "Labels can be copied word by word"

    init(arguments: [String]) { self.arguments = arguments }

    func activate(_ app: UnsafeMutablePointer<GtkApplication>) {
        guard let scene = SceneWindow(app: app, arguments: arguments) else { return }
        self.scene = scene
        let host = scene.host
        let column = SceneWindow.paddedBox(GTK_ORIENTATION_VERTICAL, spacing: 16)
        gtk_window_set_child(dd_window(scene.window), column)
        let notes = DragTextView(
            id: "notes", name: "Notes", html: "Pack the <b>blue</b> tent before Friday", host: host)
        gtk_widget_set_size_request(notes.widget, -1, 120)
        notes.onChange = { [weak self] in self?.printSelections() }
        self.notes = notes
        let field = DragEntry(
            id: "field", name: "Subject", placeholder: "Subject", text: "Lunch on the terrace", host: host)
        field.onChange = { [weak self] in self?.printSelections() }
        self.field = field
        let label = gtk_label_new(Self.labelText)!
        gtk_label_set_selectable(dd_label(UnsafeMutableRawPointer(label)), 1)
        gtk_label_set_xalign(dd_label(UnsafeMutableRawPointer(label)), 0)
        gtk_widget_set_can_focus(label, 0)
        SelectableLabelMenu.attach(to: label)
        self.label = label
        let password = SecureEntry(name: "Password", placeholder: "Password")
        password.onChange = { [weak self] in self?.printSelections() }
        self.password = password
        for widget in [notes.widget, field.widget, label, password.widget] {
            gtk_box_append(dd_box(UnsafeMutableRawPointer(column)), widget)
        }
        GSignal.connect(
            UnsafeMutableRawPointer(label), "notify::cursor-position",
            pointer: { [weak self] _ in self?.printSelections() })
        GSignal.connect(
            UnsafeMutableRawPointer(label), "notify::selection-bound",
            pointer: { [weak self] _ in self?.printSelections() })
        host.onFramesChanged = { [weak self] in self?.printLayout() }
        scene.present(app) { () throws(GtkDragHostError) in
            try notes.register(in: scene.windowID)
            try field.register(in: scene.windowID)
        }
        printSelections()
    }

    func printSelections() {
        guard let notes, let field, let label, let password else { return }
        var start: Int32 = 0
        var end: Int32 = 0
        var labelSelection = ""
        if gtk_label_get_selection_bounds(dd_label(UnsafeMutableRawPointer(label)), &start, &end) != 0, start != end {
            let scalars = Array(Self.labelText.unicodeScalars)[Int(min(start, end))..<Int(max(start, end))]
            var view = String.UnicodeScalarView()
            view.append(contentsOf: scalars)
            labelSelection = String(view)
        }
        for (id, text, selected) in [
            ("notes", notes.text, notes.selectedText ?? ""), ("field", field.text, field.selectedText ?? ""),
            ("label", Self.labelText, labelSelection),
        ] {
            printer.write(SelectionLine(id: id, text: text, selected: selected), key: "selection.\(id)")
        }
        printer.write(SecureLine(length: password.text.count))
    }

    func printLayout() {
        guard let host = scene?.host, let window = scene?.window, let notes, let field, let label, let password else {
            return
        }
        var frames: [(String, Frame)] = []
        func add(_ name: String, _ widget: UnsafeMutablePointer<GtkWidget>) {
            if let frame = widgetFrame(widget, in: window) { frames.append((name, frame)) }
        }
        add("notes", notes.widget)
        add("field", field.widget)
        add("label", label)
        add("password", password.widget)
        var words: [(String, [String: Frame])] = []
        if let origin = host.frameInWindow(of: notes.id) {
            var seen: Set<String> = []
            var list: [(String, Frame)] = []
            for word in notes.text.split(separator: " ").map(String.init) where seen.insert(word).inserted {
                guard let offset = notes.offset(of: word) else { continue }
                let f = notes.frameOfText(from: offset, to: offset + word.unicodeScalars.count)
                list.append(
                    (
                        word,
                        Frame(
                            Rect(x: origin.minX + f.x, y: origin.minY + f.y, width: f.width, height: f.height))
                    ))
            }
            words.append(("notes", Dictionary(list) { first, _ in first }))
        }
        printer.write(LayoutLine(frames: frames, words: words))
        if !announcedReady, frames.count == 4 {
            announcedReady = true
            LineWriter.write(ReadyLine())
        }
    }
}
