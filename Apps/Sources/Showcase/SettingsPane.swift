import CGtk4
import DragDrop
import DragDropGTK
import DriverProtocol
import Foundation
import ShowcaseModel

/// Situation 14: Settings. Switch rows where Airplane Mode turns Wi-Fi and Bluetooth off and greys
/// them, with the networks (K10); the networks from the store, each with a detail button that
/// opens its details while a click elsewhere on the row joins it (K4); a brightness slider with
/// small and large sun icons (K9); an info button about the app (K5). Every switch flip and
/// every brightness adjustment is one named undo step; all values are settings in the store,
/// so a relaunch shows them as they were. The network rows drag out as their names (text); the
/// slider refuses what is dropped on it, saying why.
@MainActor
final class SettingsPane: ShowcasePane {
    let situation = Situation.named("settings")!
    let widget: UnsafeMutablePointer<GtkWidget>
    var onChange: (@MainActor () -> Void)?
    var onError: (@MainActor (String) -> Void)?

    private let store: ShowcaseStore
    private unowned let host: GtkDragHost
    private let row: UnsafeMutablePointer<GtkWidget>
    private var list: SettingsList?
    private var switches: [SwitchRow] = []
    private var networks: [(row: DetailRow, item: ShowcaseItem)] = []
    private var brightness: Slider?
    private var info: InfoButton?
    private var details: UnsafeMutablePointer<GtkWidget>?
    private var detailsShown: String?
    private var network = "Home"
    private let listID = TargetID("settings-list")

    init(store: ShowcaseStore, host: GtkDragHost) {
        self.store = store
        self.host = host
        row = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 24)
        gtk_widget_set_vexpand(row, 1)
        widget = row
    }

    func activate(in window: TargetID) {
        if list == nil { build() }
        guard let list, let brightness else { return }
        do {
            try host.register(
                list.widget, as: DragTarget(id: listID, name: words("Settings"), frame: .zero, parent: window),
                delegate: self)
            for (network, item) in networks {
                var target = DragTarget(id: item.targetID, name: item.title, frame: .zero, parent: listID)
                target.offers = [.utf8PlainText]
                target.kind = Noun("network")
                target.isMovable = false
                try host.register(network.widget, as: target, delegate: self)
            }
            try brightness.register(in: listID)
        } catch {
            onError?("\(error)")
        }
        reload()
    }

    func deactivate() { host.unregister(listID) }

    /// Reads the settings from the store and shows them (after an undo or a redo too).
    func reload() {
        guard let list, let brightness else { return }
        let saved = (try? store.settings(prefix: "settings.")) ?? [:]
        list.setSwitches(
            Dictionary(
                uniqueKeysWithValues: switches.compactMap { row in
                    saved["settings.\(row.key)"].map { (row.key, $0 == "true") }
                }))
        if let value = saved["settings.brightness"].flatMap(Double.init) { brightness.setValue(value) }
        network = saved["settings.network"] ?? network
        for (row, item) in networks { row.isChecked = item.title == network }
        onChange?()
    }

    private func build() {
        let column = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 8)
        gtk_widget_set_size_request(column, 420, -1)
        let header = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 6)
        let heading = UI.label(words("Connections and Display"), selectable: true, css: ["heading"])
        gtk_widget_set_hexpand(heading, 1)
        UI.append(header, heading)
        let info = InfoButton(
            about: words("Showcase Settings"),
            details: [
                words("Version 1.0"),
                words("Switches, a slider and networks from the controls page of the guidelines."),
            ])
        info.onShow = { [weak self] in self?.onChange?() }
        self.info = info
        UI.append(header, info.widget)
        UI.append(column, header)

        let list = SettingsList(name: words("Settings"), host: host)
        list.undoDocument = listID  // the pane's history (U1)
        self.list = list
        do {
            let airplane = try SwitchRow(key: "airplane", title: words("Airplane Mode"), isOn: false)
            let wifi = try SwitchRow(key: "wifi", title: words("Wi-Fi"), isOn: true)
            let bluetooth = try SwitchRow(key: "bluetooth", title: words("Bluetooth"), isOn: true)
            switches = [airplane, wifi, bluetooth]
            for switchRow in switches { list.append(switchRow) }
            if let collection = try store.collection(pane: .settings, key: "networks"), let id = collection.id {
                for item in try store.items(in: id) {
                    let payload = item.payload(as: NetworkPayload.self)
                    let network = try DetailRow(
                        key: "network-\(item.id ?? 0)", title: item.title, detail: payload?.security)
                    network.onSelect = { [weak self] in self?.join(item.title) }
                    network.onShowDetails = { [weak self] in self?.showDetails(of: item) }
                    networks.append((network, item))
                    list.append(network)
                }
            }
            let slider = try Slider(
                id: "settings-brightness", name: words("Brightness"), range: 0...100, value: 70, step: 5,
                minimumIcon: "display-brightness-symbolic", maximumIcon: "display-brightness-symbolic", host: host)
            slider.undoName = words("Change Brightness")
            slider.onChange = { [weak self] value in self?.save(["settings.brightness": String(Int(value.rounded()))]) }
            brightness = slider
            list.append(ControlRow(key: "brightness", title: words("Brightness"), control: slider.widget))
            list.turnsOff([wifi, bluetooth], whenOn: airplane)
            list.disables(networks.map(\.row), whenOff: wifi)
        } catch {
            onError?("\(error)")
        }
        list.onSwitchesChanged = { [weak self] states in
            self?.save(
                Dictionary(uniqueKeysWithValues: states.map { ("settings.\($0.key)", $0.value ? "true" : "false") }))
        }
        UI.append(column, list.widget)
        UI.append(row, column)

        let panel = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 6)
        gtk_widget_set_hexpand(panel, 1)
        UI.append(panel, UI.label(words("Network Details"), selectable: true, css: ["heading"]))
        let details = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 4)
        self.details = details
        UI.append(panel, details)
        UI.append(row, panel)
        showDetails(of: nil, notify: false)  // the state follows once the settings are read
    }

    private func save(_ values: [String: String]) {
        do {
            try store.setSettings(values)
        } catch {
            onError?(words("Could not save the settings: {reason}", ["reason": "\(error)"]))
        }
        onChange?()
    }

    /// A click on a network row (not its detail button) joins it.
    private func join(_ name: String) {
        network = name
        for (row, item) in networks { row.isChecked = item.title == name }
        save(["settings.network": name])
    }

    /// The detail button: the network's details beside the list (K4).
    private func showDetails(of item: ShowcaseItem?, notify: Bool = true) {
        guard let details else { return }
        while let child = gtk_widget_get_first_child(details) {
            gtk_box_remove(dd_box(UnsafeMutableRawPointer(details)), child)
        }
        detailsShown = item?.title
        guard let item, let payload = item.payload(as: NetworkPayload.self) else {
            UI.append(
                details,
                UI.label(words("Use a network's detail button to see more about it."), selectable: true, wrap: true))
            if notify { onChange?() }
            return
        }
        for line in [
            item.title, words("Security: {kind}", ["kind": payload.security]),
            words("Signal: {bars} of 3 bars", ["bars": "\(payload.signal)"]),
            words("Address: {address}", ["address": payload.address]),
        ] {
            UI.append(details, UI.label(line, selectable: true))
        }
        onChange?()
    }

    /// A switch's name in the state and layout lines: English whatever the language (the
    /// titles shown and spoken are the person's).
    private static func key(_ row: SwitchRow) -> String {
        ["airplane": "Airplane Mode", "wifi": "Wi-Fi", "bluetooth": "Bluetooth"][row.key] ?? row.title
    }

    func state() -> StateLine {
        var state = StateLine()
        state.lists = ["Switches": switches.map { Self.key($0) }, "Networks": networks.map(\.item.title)]
        state.selected = ["Networks": [network]]
        state.switches = keyed(switches.map { ($0.key, $0.isOn) })
        state.enabled = keyed(
            switches.map { ($0.key, $0.isEnabled) } + networks.map { ($0.item.title, $0.row.isEnabled) })
        state.brightness = brightness?.value ?? 0
        state.details = detailsShown
        state.info = info?.isShowing ?? false
        return state
    }

    func layout() -> PaneLayout? {
        guard let list, let brightness, let info,
            let window = gtk_widget_get_root(widget).map({
                UnsafeMutableRawPointer($0).assumingMemoryBound(to: GtkWidget.self)
            }),
            let listFrame = UI.bounds(of: list.widget, in: window), listFrame.height > 0
        else { return nil }
        func rect(_ widget: UnsafeMutablePointer<GtkWidget>) -> Rect? {
            UI.bounds(of: widget, in: window).map { Rect(x: $0.x, y: $0.y, width: $0.width, height: $0.height) }
        }
        var layout = PaneLayout()
        layout.lists = [
            ("Settings", Rect(x: listFrame.x, y: listFrame.y, width: listFrame.width, height: listFrame.height))
        ]
        if let frame = rect(brightness.scaleWidget) { layout.lists.append(("Brightness", frame)) }
        if let frame = rect(info.widget) { layout.lists.append(("Info", frame)) }
        if let details, let frame = rect(details) { layout.lists.append(("Details", frame)) }
        layout.rows = [
            ("Switches", switches.compactMap { row in rect(row.switchWidget).map { (Self.key(row), $0) } }),
            (
                "Rows",
                (switches.map { ($0.title, $0.widget) } + networks.map { ($0.item.title, $0.row.widget) }).compactMap {
                    title, w in rect(w).map { (title, $0) }
                }
            ),
            (
                "Details",
                networks.compactMap { network in rect(network.row.detailButton.widget).map { (network.item.title, $0) }
                }
            ),
        ]
        layout.targets = [("Brightness", brightness.id), ("Settings", listID)]
        return layout
    }
}

extension SettingsPane: GtkDragHostDelegate {
    func dragHost(_ host: GtkDragHost, perform drop: DropRequest) -> DropResult {
        .failed(DropFailure(.forbidden, words("Settings takes no drops.")))
    }

    func dragHost(_ host: GtkDragHost, itemProviderFor item: TargetID) -> ItemProvider? {
        guard let title = networks.first(where: { $0.item.targetID == item })?.item.title else { return nil }
        return ItemProvider(app: host.engine.app, representations: [.text(.utf8PlainText, title)])
    }

    func dragHost(_ host: GtkDragHost, exportedRepresentationsFor items: [TargetID]) -> [ExportedRepresentation] {
        [
            .text(
                items.compactMap { id in networks.first { $0.item.targetID == id }?.item.title }.joined(separator: "\n")
            )
        ]
    }
}
