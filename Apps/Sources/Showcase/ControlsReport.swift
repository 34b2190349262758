import CGtk4
import DragDropGTK
import DriverProtocol

/// What the showcase's own controls say, for the checks of the controls page and of keyboard
/// use: every visible button's title, every visible label (and whether it can be selected and
/// copied), every text field's placeholder and whether it hides what is typed, the HIG check's
/// findings (``HIGCheck``, the one place the rules are checked: K1, K3, K7, K9-K12) and how many
/// controls of each kind it looked at; and a short description of the widget holding the
/// keyboard focus.
@MainActor
enum ControlsReport {
    /// The `controls` line for the visible widgets under `root`. Labels inside a control (a
    /// button, a row, a tile, a field, or a widget in `targets`: drag sources and destinations,
    /// whose press starts a drag) are its title, not text to copy.
    static func line(
        under root: UnsafeMutablePointer<GtkWidget>, targets: Set<UnsafeMutableRawPointer>
    ) -> ControlsLine {
        var line = checked(under: root, targets: targets)
        var buttons: [ControlsLine.Button] = []
        var labels: [ControlsLine.Label] = []
        var fields: [ControlsLine.Field] = []
        walk(root, insideControl: false, targets: targets) { widget, insideControl in
            let raw = UnsafeMutableRawPointer(widget)
            if dd_is_menu_button(raw) != 0 {
                let title = gtk_menu_button_get_label(OpaquePointer(raw)).map { String(cString: $0) }
                buttons.append(ControlsLine.Button(title: title, menu: true, segment: false))
            } else if dd_is_button(raw) != 0 {
                let title = gtk_button_get_label(dd_button(raw)).map { String(cString: $0) }
                // A menu button's own toggle has no title of its own: the menu button has it.
                if title != nil || !isInsideMenuButton(widget) {
                    let segment = gtk_widget_get_parent(widget).map { gtk_widget_has_css_class($0, "linked") != 0 }
                    buttons.append(ControlsLine.Button(title: title, menu: false, segment: segment ?? false))
                }
            } else if dd_is_label(raw) != 0, !insideControl {
                let label = dd_label(raw)
                let text = gtk_label_get_text(label).map { String(cString: $0) } ?? ""
                if !text.isEmpty {
                    labels.append(ControlsLine.Label(text: text, selectable: gtk_label_get_selectable(label) != 0))
                }
            } else if dd_is_entry(raw) != 0 {
                let entry = dd_entry(raw)
                let placeholder = gtk_entry_get_placeholder_text(entry).map { String(cString: $0) } ?? ""
                fields.append(
                    ControlsLine.Field(placeholder: placeholder, secure: gtk_entry_get_visibility(entry) == 0))
            }
        }
        line.buttons = buttons
        line.labels = labels
        line.fields = fields
        return line
    }

    /// The HIG check of the visible widgets under `root`: `findings` (rule, message, widget)
    /// and `census` (how many buttons, switches, sliders, fields, labels and page controls it
    /// looked at). Labels inside `targets` are titles, not text to copy.
    static func checked(
        under root: UnsafeMutablePointer<GtkWidget>, targets: Set<UnsafeMutableRawPointer>
    ) -> ControlsLine {
        var options = HIGCheck.Options()
        options.titleContainers = targets
        var line = ControlsLine()
        line.findings = HIGCheck.findings(in: root, options: options).map {
            Finding(rule: $0.rule, message: $0.message, widget: $0.widget)
        }
        line.census = HIGCheck.census(in: root, options: options)
        return line
    }

    /// The focused widget of `window`: its GTK type and the first text inside it.
    static func focus(in window: UnsafeMutablePointer<GtkWidget>) -> FocusLine? {
        guard let focus = gtk_window_get_focus(dd_window(UnsafeMutableRawPointer(window))) else { return nil }
        let type = dd_type_name(UnsafeMutableRawPointer(focus)).map { String(cString: $0) } ?? ""
        return FocusLine(widget: type, text: firstText(in: focus) ?? "")
    }

    /// The text of the first label at or below `widget` (a row's title, a button's label).
    static func firstText(in widget: UnsafeMutablePointer<GtkWidget>) -> String? {
        let raw = UnsafeMutableRawPointer(widget)
        if dd_is_label(raw) != 0 { return gtk_label_get_text(dd_label(raw)).map { String(cString: $0) } }
        if dd_is_button(raw) != 0, let label = gtk_button_get_label(dd_button(raw)) { return String(cString: label) }
        var child = gtk_widget_get_first_child(widget)
        while let current = child {
            if let text = firstText(in: current) { return text }
            child = gtk_widget_get_next_sibling(current)
        }
        return nil
    }

    /// Visits the visible widgets under `widget`, saying whether each sits inside a control
    /// (a button, a row, a tile), whose labels are its title rather than text to copy.
    private static func walk(
        _ widget: UnsafeMutablePointer<GtkWidget>, insideControl: Bool, targets: Set<UnsafeMutableRawPointer>,
        _ visit: (UnsafeMutablePointer<GtkWidget>, Bool) -> Void
    ) {
        guard gtk_widget_get_mapped(widget) != 0 else { return }
        visit(widget, insideControl)
        let raw = UnsafeMutableRawPointer(widget)
        let control =
            insideControl || targets.contains(raw) || dd_is_button(raw) != 0 || dd_is_menu_button(raw) != 0
            || dd_is_list_box_row(raw) != 0 || dd_is_flow_box_child(raw) != 0 || dd_is_entry(raw) != 0
        var child = gtk_widget_get_first_child(widget)
        while let current = child {
            walk(current, insideControl: control, targets: targets, visit)
            child = gtk_widget_get_next_sibling(current)
        }
    }

    private static func isInsideMenuButton(_ widget: UnsafeMutablePointer<GtkWidget>) -> Bool {
        guard let parent = gtk_widget_get_parent(widget) else { return false }
        return dd_is_menu_button(UnsafeMutableRawPointer(parent)) != 0
    }
}
