import CGtk4
import DragDrop
import DragDropGTK
import DriverProtocol

// `--scene settings`: switch rows where Airplane Mode turns off Wi-Fi and Bluetooth (K10),
// network rows with detail buttons (K4), a brightness slider with small and large sun icons
// (K9), an info button (K5), a recipient field with a contact-add button (K5), a list whose text
// can be dropped on the slider (refused), and a draggable card holding a second slider.
//
//   {"kind":"switches","states":{key:bool},"enabled":{key:bool},"undo":…}   after every change
//   {"kind":"slider","id":…,"value":…}                                     after every change
//   {"kind":"network","selected":…} / {"kind":"details","network":…}       a row selected / detailed
//   {"kind":"info","shown":true}                                          the info popover opened
//   {"kind":"entry","id":"to","text":…}                                   the recipient field
//   {"kind":"picker","field":…,"rows":[…],"frames":{name:[x,y,w,h]}}       the contact list opened
//   {"kind":"layout","frames":{…}}  {"kind":"hig","findings":[…]}
@MainActor
final class SettingsScene: FixtureScene {
    let arguments: [String]
    var scene: SceneWindow?
    var list: SettingsList?
    var networks: [DetailRow] = []
    var brightness: Slider?
    var size: Slider?
    var card: UnsafeMutablePointer<GtkWidget>?
    var info: InfoButton?
    var to: RecipientField?
    var notes: DragListView?
    let printer = ChangedLineWriter()
    var announcedReady = false

    static let contacts: [ContactAddButton.Contact] = [
        ("Ana Sousa", "ana@example.org", "+351 912 345 678"), ("Priya Shah", "priya@example.org", "+44 20 7946 0958"),
    ].map { name, email, phone in
        ContactAddButton.Contact(
            name: name,
            vCard: "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:\(name)\r\nEMAIL:\(email)\r\nTEL:\(phone)\r\nEND:VCARD\r\n")
    }

    init(arguments: [String]) { self.arguments = arguments }

    func activate(_ app: UnsafeMutablePointer<GtkApplication>) {
        guard let scene = SceneWindow(app: app, arguments: arguments) else { return }
        self.scene = scene
        let host = scene.host
        let row = SceneWindow.paddedBox(GTK_ORIENTATION_HORIZONTAL, spacing: 24)
        gtk_window_set_child(dd_window(scene.window), row)
        do {
            try build(in: row, host: host)
        } catch {
            LineWriter.write(ErrorLine(message: error.description))
            return
        }
        ContactAddButton.onOpen = { field, rows in
            LineWriter.write(
                PickerLine(
                    field: field, rows: rows.map(\.name),
                    frames: Dictionary(rows.map { ($0.name, $0.frame.map(Frame.init)) }) { first, _ in first }))
        }
        host.onFramesChanged = { [weak self] in self?.printLayout() }
        host.engine.undoStack.onChange = { [weak self] _ in MainActor.assumeIsolated { self?.printSwitches() } }
        scene.present(app) { () throws(GtkDragHostError) in
            try brightness?.register(in: scene.windowID)
            try to?.register(in: scene.windowID)
            try notes?.register(in: scene.windowID)
            if let card {
                var source = DragTarget(id: "card", name: "Size Card", frame: .zero, parent: scene.windowID)
                source.offers = [.utf8PlainText]
                try host.register(card, as: source, delegate: self)
            }
            try size?.register(in: "card")
        }
        printSwitches()
    }

    private func build(in row: UnsafeMutablePointer<GtkWidget>, host: GtkDragHost) throws(ControlError) {
        let column = gtk_box_new(GTK_ORIENTATION_VERTICAL, 10)!
        gtk_widget_set_size_request(column, 360, -1)
        let header = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)!
        let title = gtk_label_new("Settings")!
        gtk_label_set_selectable(dd_label(UnsafeMutableRawPointer(title)), 1)
        gtk_widget_set_can_focus(title, 0)
        gtk_widget_set_hexpand(title, 1)
        gtk_label_set_xalign(dd_label(UnsafeMutableRawPointer(title)), 0)
        let info = InfoButton(about: "Settings", details: ["Version 1.0", "The DragDrop fixture's settings."])
        info.onShow = { LineWriter.write(InfoLine(shown: true)) }
        self.info = info
        gtk_box_append(dd_box(UnsafeMutableRawPointer(header)), title)
        gtk_box_append(dd_box(UnsafeMutableRawPointer(header)), info.widget)
        gtk_box_append(dd_box(UnsafeMutableRawPointer(column)), header)

        let list = SettingsList(name: "Connections", host: host)
        self.list = list
        let airplane = try SwitchRow(key: "airplane", title: "Airplane Mode", isOn: false)
        let wifi = try SwitchRow(key: "wifi", title: "Wi-Fi", isOn: true)
        let bluetooth = try SwitchRow(key: "bluetooth", title: "Bluetooth", isOn: true)
        for switchRow in [airplane, wifi, bluetooth] { list.append(switchRow) }
        for name in ["Home", "Café Rosa", "Office"] {
            let network = try DetailRow(key: "network-\(name)", title: name, detail: "Secured")
            network.onSelect = { [weak self] in self?.select(name) }
            network.onShowDetails = {
                LineWriter.write(DetailsLine(network: name))
            }
            networks.append(network)
            list.append(network)
        }
        networks.first?.isChecked = true
        let brightness = try Slider(
            id: "brightness", name: "Brightness", range: 0...100, value: 70, step: 5,
            minimumIcon: "display-brightness-symbolic", maximumIcon: "display-brightness-symbolic", host: host)
        brightness.undoName = "Change Brightness"
        brightness.onChange = { [weak self] _ in self?.printSliders() }
        self.brightness = brightness
        list.append(ControlRow(key: "brightness", title: "Brightness", control: brightness.widget))
        list.turnsOff([wifi, bluetooth], whenOn: airplane)
        list.disables(networks, whenOff: wifi)
        list.onSwitchesChanged = { [weak self] _ in self?.printSwitches() }
        gtk_box_append(dd_box(UnsafeMutableRawPointer(column)), list.widget)
        gtk_box_append(dd_box(UnsafeMutableRawPointer(row)), column)

        let side = gtk_box_new(GTK_ORIENTATION_VERTICAL, 12)!
        gtk_widget_set_hexpand(side, 1)
        let to = RecipientField(id: "to", name: "To", placeholder: "Name or email", host: scene!.host) {
            Self.contacts
        }
        to.onChange = { [weak self] in self?.printEntry() }
        self.to = to
        gtk_box_append(dd_box(UnsafeMutableRawPointer(side)), to.widget)
        let notes = DragListView(id: "notes", title: "Notes", items: ["Sunset", "Tide"], host: host)
        self.notes = notes
        gtk_box_append(dd_box(UnsafeMutableRawPointer(side)), notes.widget)
        // A draggable card holding a slider: dragging the card's label drags the card, dragging
        // the slider's thumb only moves the slider.
        let card = gtk_box_new(GTK_ORIENTATION_VERTICAL, 4)!
        gtk_widget_add_css_class(card, "card")
        let cardTitle = gtk_label_new("Size Card")!
        for margin in [gtk_widget_set_margin_top, gtk_widget_set_margin_start] { margin(cardTitle, 8) }
        gtk_box_append(dd_box(UnsafeMutableRawPointer(card)), cardTitle)
        let size = try Slider(id: "size", name: "Size", range: 0...10, value: 2, host: host)
        size.onChange = { [weak self] _ in self?.printSliders() }
        self.size = size
        gtk_box_append(dd_box(UnsafeMutableRawPointer(card)), size.widget)
        self.card = card
        gtk_box_append(dd_box(UnsafeMutableRawPointer(side)), card)
        gtk_box_append(dd_box(UnsafeMutableRawPointer(row)), side)
        printSliders()
        printEntry()
    }

    private func select(_ name: String) {
        for network in networks { network.isChecked = network.title == name }
        LineWriter.write(NetworkLine(selected: name))
    }

    func printSwitches() {
        guard let list, let host = scene?.host else { return }
        var enabled: [String: Bool] = [:]
        for key in ["airplane", "wifi", "bluetooth"] + networks.map(\.key) {
            if let row = list.row(key) { enabled[key] = row.isEnabled }
        }
        let stack = host.engine.undoStack
        printer.write(
            SwitchesLine(
                states: list.switchStates, enabled: enabled, undo: stack.canUndo ? stack.undoMenuItemTitle : ""))
    }

    func printSliders() {
        for slider in [brightness, size].compactMap({ $0 }) {
            printer.write(SliderLine(id: slider.id.rawValue, value: slider.value), key: "slider.\(slider.id)")
        }
        printSwitches()
    }

    func printEntry() {
        guard let to else { return }
        printer.write(EntryLine(id: to.id.rawValue, text: to.text))
    }

    func printLayout() {
        guard let host = scene?.host, let window = scene?.window, let list, let brightness, let size, let info, let to,
            let notes, let card, !host.engine.isDragging
        else { return }
        var frames: [(String, Frame)] = []
        func add(_ name: String, _ widget: UnsafeMutablePointer<GtkWidget>) {
            if let frame = widgetFrame(widget, in: window) { frames.append((name, frame)) }
        }
        for key in ["airplane", "wifi", "bluetooth"] {
            guard let row = list.row(key) as? SwitchRow else { continue }
            add("row/\(key)", row.widget)
            add("switch/\(key)", row.switchWidget)
        }
        for network in networks {
            add("row/\(network.title)", network.widget)
            add("detail/\(network.title)", network.detailButton.widget)
        }
        add("brightness", brightness.scaleWidget)
        add("size", size.scaleWidget)
        add("card", card)
        add("info", info.widget)
        add("to", to.entry.widget)
        add("contact-add", to.contactAddButton.widget)
        if let frame = host.frameInWindow(of: notes.id) { frames.append(("notes", Frame(frame))) }
        for item in notes.items {
            if let frame = host.frameInWindow(of: item.id) {
                frames.append(("notes/\(item.title)", Frame(frame)))
            }
        }
        printer.write(LayoutLine(frames: frames))
        if !announcedReady, frames.count > 12 {
            announcedReady = true
            let findings = HIGCheck.findings(in: window, options: HIGCheck.Options(titleContainersOf: host))
            LineWriter.write(HIGLine(findings: findings.map(Finding.init)))
            LineWriter.write(ReadyLine())
        }
    }
}

extension SettingsScene: GtkDragHostDelegate {
    func dragHost(_ host: GtkDragHost, perform drop: DropRequest) -> DropResult {
        .failed(DropFailure(.forbidden, "The card takes no drops."))
    }
}
