import CGtk4
import DragDrop

/// A row of a ``SettingsList``: a switch row, a detail row or a row holding another control.
@MainActor
public protocol SettingsRow: AnyObject {
    /// A stable name for the row ("wifi"), for the app's storage.
    var key: String { get }
    /// The title shown and read by screen readers.
    var title: String { get }
    /// The `GtkListBoxRow`.
    var widget: UnsafeMutablePointer<GtkWidget> { get }
}

extension SettingsRow {
    /// Whether the row can be used now: a disabled row is greyed and skipped by Tab (K10).
    public var isEnabled: Bool { gtk_widget_get_sensitive(widget) != 0 }

    func setEnabled(_ enabled: Bool) { gtk_widget_set_sensitive(widget, enabled ? 1 : 0) }
}

/// A list row with a title and a switch, and nothing that says on or off: the switch shows the
/// state (K10). Switches belong only in list rows; put it in a ``SettingsList``.
///
/// A click anywhere on the row, Space or Return toggles it; the switch is named after the title
/// for assistive technology (K12).
@MainActor
public final class SwitchRow: SettingsRow {
    /// The key the row was created with (the setting it shows).
    public let key: String
    /// The title shown, also the row's accessible name.
    public let title: String
    /// Whether the switch is on.
    public internal(set) var isOn: Bool

    let row: GObjectRef
    let toggle: GObjectRef
    var programmatic = 0
    /// Called when a person flips the switch (the list's business).
    var onFlip: (@MainActor (SwitchRow, Bool) -> Void)?

    /// The row's widget (`GtkListBoxRow`), which the settings list holds.
    public var widget: UnsafeMutablePointer<GtkWidget> { row.widget }
    /// The `GtkSwitch`.
    public var switchWidget: UnsafeMutablePointer<GtkWidget> { toggle.widget }

    /// Creates a row titled `title` with its switch `isOn`. Throws
    /// ``ControlError/switchTitleStatesValue(_:)`` when the title says on or off (K10), and
    /// ``ControlError/emptyTitle`` without a title.
    public init(key: String, title: String, subtitle: String? = nil, isOn: Bool) throws(ControlError) {
        guard !title.trimmingCharacters(in: .whitespaces).isEmpty else { throw .emptyTitle }
        guard !HIGCheck.statesOnOff(title), !HIGCheck.statesOnOff(subtitle ?? "") else {
            throw .switchTitleStatesValue(title)
        }
        self.key = key
        self.title = title
        self.isOn = isOn
        row = GObjectRef(newWidget: gtk_list_box_row_new())
        toggle = GObjectRef(newWidget: gtk_switch_new())
        gtk_widget_add_css_class(row.widget, "dd-switch-row")
        gtk_widget_set_valign(toggle.widget, GTK_ALIGN_CENTER)
        gtk_switch_set_active(dd_switch(toggle.raw), isOn ? 1 : 0)
        dd_accessible_set_label(dd_accessible(toggle.raw), title)
        dd_accessible_set_label(dd_accessible(row.raw), title)
        let box = SettingsList.titleBox(title: title, subtitle: subtitle)
        gtk_box_append(dd_box(UnsafeMutableRawPointer(box)), toggle.widget)
        gtk_list_box_row_set_child(dd_list_box_row(row.raw), box)
        GSignal.connect(
            toggle.raw, "notify::active",
            pointer: { [weak self] _ in
                guard let self, self.programmatic == 0 else { return }
                let on = gtk_switch_get_active(dd_switch(self.toggle.raw)) != 0
                guard on != self.isOn else { return }
                if let onFlip = self.onFlip { onFlip(self, on) } else { self.isOn = on }
            })
    }

    /// Shows `on` without telling anyone (the list applies changes, undo and redo).
    func show(_ on: Bool) {
        isOn = on
        programmatic += 1
        gtk_switch_set_active(dd_switch(toggle.raw), on ? 1 : 0)
        programmatic -= 1
    }

    /// Flips the switch as a person would (a click on the row, Return).
    func flip() { gtk_switch_set_active(dd_switch(toggle.raw), isOn ? 0 : 1) }
}

/// A list row for an item with more to it (a Wi-Fi network): a click anywhere on the row, or
/// Return, selects the item (``onSelect``); its detail button, at the end, opens the item's
/// details (``onShowDetails``, K4). A row whose whole surface shows details needs no detail
/// button: use a plain activatable row for that.
@MainActor
public final class DetailRow: SettingsRow {
    /// The key the row was created with (the setting it shows).
    public let key: String
    /// The title shown, also the row's accessible name.
    public let title: String
    /// The detail button at the end of the row.
    public let detailButton: DetailButton
    /// Called when the row is clicked outside its detail button, or activated with the keyboard.
    public var onSelect: (@MainActor () -> Void)?
    /// Called when the detail button is used.
    public var onShowDetails: (@MainActor () -> Void)? {
        get { detailButton.onActivate }
        set { detailButton.onActivate = newValue }
    }

    let row: GObjectRef
    private let check: GObjectRef
    private let value: UnsafeMutablePointer<GtkWidget>

    /// The row's widget (`GtkListBoxRow`), which the settings list holds.
    public var widget: UnsafeMutablePointer<GtkWidget> { row.widget }

    /// Whether the row shows a check mark (the chosen network).
    public var isChecked: Bool = false {
        didSet {
            gtk_widget_set_opacity(check.widget, isChecked ? 1 : 0)
            dd_accessible_set_label(dd_accessible(row.raw), isChecked ? "\(title), chosen" : title)
        }
    }

    /// Creates a row titled `title`, showing `detail` (a short value) before its detail button.
    public init(key: String, title: String, detail: String? = nil) throws(ControlError) {
        guard !title.trimmingCharacters(in: .whitespaces).isEmpty else { throw .emptyTitle }
        self.key = key
        self.title = title
        row = GObjectRef(newWidget: gtk_list_box_row_new())
        gtk_widget_add_css_class(row.widget, "dd-control-row")
        check = GObjectRef(newWidget: gtk_image_new_from_icon_name("object-select-symbolic"))
        gtk_widget_set_opacity(check.widget, 0)
        dd_accessible_set_hidden(dd_accessible(check.raw), 1)
        detailButton = DetailButton(itemName: title)
        let box = SettingsList.titleBox(title: title, subtitle: nil)
        gtk_box_prepend(dd_box(UnsafeMutableRawPointer(box)), check.widget)
        value = gtk_label_new(detail ?? "")!
        gtk_widget_add_css_class(value, "dim-label")
        gtk_box_append(dd_box(UnsafeMutableRawPointer(box)), value)
        gtk_box_append(dd_box(UnsafeMutableRawPointer(box)), detailButton.widget)
        gtk_list_box_row_set_child(dd_list_box_row(row.raw), box)
        dd_accessible_set_label(dd_accessible(row.raw), title)
    }

    /// Changes the short value shown before the detail button.
    public func setDetail(_ detail: String) { gtk_label_set_text(dd_label(UnsafeMutableRawPointer(value)), detail) }
}

/// A list row holding a control under a title (a slider).
@MainActor
public final class ControlRow: SettingsRow {
    /// The key the row was created with (the setting it shows).
    public let key: String
    /// The title shown, also the row's accessible name.
    public let title: String
    let row: GObjectRef

    /// The row's widget (`GtkListBoxRow`), which the settings list holds.
    public var widget: UnsafeMutablePointer<GtkWidget> { row.widget }

    /// Creates a row titled `title` holding `control` below the title.
    public init(key: String, title: String, control: UnsafeMutablePointer<GtkWidget>) {
        self.key = key
        self.title = title
        row = GObjectRef(newWidget: gtk_list_box_row_new())
        gtk_widget_add_css_class(row.widget, "dd-control-row")
        gtk_list_box_row_set_activatable(dd_list_box_row(row.raw), 0)
        let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 4)!
        let label = gtk_label_new(title)!
        gtk_label_set_xalign(dd_label(UnsafeMutableRawPointer(label)), 0)
        gtk_box_append(dd_box(UnsafeMutableRawPointer(box)), label)
        gtk_box_append(dd_box(UnsafeMutableRawPointer(box)), control)
        gtk_list_box_row_set_child(dd_list_box_row(row.raw), box)
        dd_accessible_set_label(dd_accessible(row.raw), title)
    }
}

/// A list of settings rows (a table): switch rows, detail rows and rows holding other controls.
///
/// Switches can drive other rows, at once and undoably (K10):
/// - ``turnsOff(_:whenOn:)``: turning the controller on turns the dependent switches off and
///   greys them while it stays on (Airplane Mode turns off Wi-Fi and Bluetooth);
/// - ``disables(_:whenOff:)``: the rows are greyed while the controller is off (or greyed
///   itself): the networks while Wi-Fi is off.
///
/// Each flip is one undo step on the engine's stack, named for what it did ("Undo Turn On
/// Airplane Mode"), undoing the dependents' changes with it.
///
/// ```swift
/// let list = SettingsList(name: "Connections", host: host)
/// let airplane = try SwitchRow(key: "airplane", title: "Airplane Mode", isOn: false)
/// let wifi = try SwitchRow(key: "wifi", title: "Wi-Fi", isOn: true)
/// for row in [airplane, wifi] { list.append(row) }
/// list.turnsOff([wifi], whenOn: airplane)
/// list.onSwitchesChanged = { states in store.save(states) }
/// ```
@MainActor
public final class SettingsList {
    /// The list's accessible name.
    public let name: String
    /// Called after switches changed (a person's flip, an undo, a redo) with every switch's state
    /// by key.
    public var onSwitchesChanged: (@MainActor (_ states: [String: Bool]) -> Void)?

    private unowned let host: GtkDragHost
    /// A registered target of the document whose undo history the flips go to
    /// (`DragEngine.undoStack(for:)`); the engine's own history when nil.
    public var undoDocument: TargetID?
    private let list: GObjectRef
    private var rows: [any SettingsRow] = []
    private var offWhileOn: [(controller: SwitchRow, dependents: [SwitchRow])] = []
    private var greyWhileOff: [(controller: SwitchRow, rows: [any SettingsRow])] = []

    /// The `GtkListBox`, to put in a window.
    public var widget: UnsafeMutablePointer<GtkWidget> { list.widget }
    /// Every switch's state, by key.
    public var switchStates: [String: Bool] {
        Dictionary(uniqueKeysWithValues: switches.map { ($0.key, $0.isOn) })
    }

    private var switches: [SwitchRow] { rows.compactMap { $0 as? SwitchRow } }

    /// Creates an empty list named `name` (K12).
    public init(name: String, host: GtkDragHost) {
        self.name = name
        self.host = host
        list = GObjectRef(newWidget: gtk_list_box_new())
        gtk_list_box_set_selection_mode(dd_list_box(list.raw), GTK_SELECTION_NONE)
        gtk_list_box_set_activate_on_single_click(dd_list_box(list.raw), 1)
        gtk_widget_add_css_class(list.widget, "boxed-list")
        dd_accessible_set_label(dd_accessible(list.raw), name)
        ControlStyles.install(for: list.widget)
        GSignal.connect(list.raw, "row-activated", pointer: { [weak self] row in self?.activated(row) })
    }

    /// Adds a row at the end.
    public func append(_ row: any SettingsRow) {
        rows.append(row)
        gtk_list_box_append(dd_list_box(list.raw), row.widget)
        if let row = row as? SwitchRow {
            row.onFlip = { [weak self] row, on in self?.flip(row, to: on) }
        }
        updateEnabled()
    }

    /// Turning `controller` on turns `dependents` off and greys them while it stays on (K10).
    public func turnsOff(_ dependents: [SwitchRow], whenOn controller: SwitchRow) {
        offWhileOn.append((controller, dependents))
        updateEnabled()
    }

    /// `rows` are greyed while `controller` is off, or greyed itself (K10).
    public func disables(_ rows: [any SettingsRow], whenOff controller: SwitchRow) {
        greyWhileOff.append((controller, rows))
        updateEnabled()
    }

    /// Shows saved states (by key) as the app's own change: no undo step, no
    /// ``onSwitchesChanged``.
    public func setSwitches(_ states: [String: Bool]) {
        for row in switches { if let on = states[row.key] { row.show(on) } }
        updateEnabled()
    }

    /// The row with this key.
    public func row(_ key: String) -> (any SettingsRow)? { rows.first { $0.key == key } }

    // MARK: Changes

    /// A person flipped `row`: it and the switches it drives change together, as one undo step.
    private func flip(_ row: SwitchRow, to on: Bool) {
        let before = switchStates
        var after = before
        after[row.key] = on
        if on {
            for rule in offWhileOn where rule.controller === row {
                for dependent in rule.dependents { after[dependent.key] = false }
            }
        }
        apply(after)
        let name = WidgetText.turn(on, row.title)
        host.registerEdit(
            name, in: undoDocument, undo: { [weak self] in self?.apply(before, notify: true) },
            redo: { [weak self] in self?.apply(after, notify: true) })
        onSwitchesChanged?(after)
    }

    private func apply(_ states: [String: Bool], notify: Bool = false) {
        for row in switches { if let on = states[row.key], on != row.isOn { row.show(on) } }
        updateEnabled()
        if notify { onSwitchesChanged?(switchStates) }
    }

    /// Greys the rows that cannot be used now, in one pass (a greyed controller greys its own
    /// dependents too).
    private func updateEnabled() {
        var disabled = Set<ObjectIdentifier>()
        for rule in offWhileOn where rule.controller.isOn {
            for dependent in rule.dependents { disabled.insert(ObjectIdentifier(dependent)) }
        }
        for rule in greyWhileOff
        where !rule.controller.isOn || disabled.contains(ObjectIdentifier(rule.controller)) {
            for row in rule.rows { disabled.insert(ObjectIdentifier(row)) }
        }
        for row in rows { row.setEnabled(!disabled.contains(ObjectIdentifier(row))) }
    }

    private func activated(_ widget: UnsafeMutableRawPointer?) {
        guard let widget, let row = rows.first(where: { UnsafeMutableRawPointer($0.widget) == widget }) else { return }
        if let row = row as? SwitchRow {
            row.flip()
        } else if let row = row as? DetailRow {
            row.onSelect?()
        }
    }

    /// A row's title (and subtitle) taking the row's width, ready for a trailing control.
    static func titleBox(title: String, subtitle: String?) -> UnsafeMutablePointer<GtkWidget> {
        let box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12)!
        let labels = gtk_box_new(GTK_ORIENTATION_VERTICAL, 2)!
        gtk_widget_set_hexpand(labels, 1)
        gtk_widget_set_valign(labels, GTK_ALIGN_CENTER)
        let label = gtk_label_new(title)!
        gtk_label_set_xalign(dd_label(UnsafeMutableRawPointer(label)), 0)
        gtk_box_append(dd_box(UnsafeMutableRawPointer(labels)), label)
        if let subtitle {
            let sub = gtk_label_new(subtitle)!
            gtk_label_set_xalign(dd_label(UnsafeMutableRawPointer(sub)), 0)
            gtk_widget_add_css_class(sub, "dim-label")
            gtk_box_append(dd_box(UnsafeMutableRawPointer(labels)), sub)
        }
        gtk_box_append(dd_box(UnsafeMutableRawPointer(box)), labels)
        return box
    }
}
