import CGtk4
import DragDrop
import DragDropGTK
import DriverProtocol

// `--a11y`: the default two lists with keyboard dragging made visible: an "Edit" menu button
// above them (Move To…, Copy To…, Pick Up; F10 opens it) and the announcement status line
// below them. Also prints:
//   {"kind":"live","text":…,"shown":…,"label":…,"description":…,"role":…}
//       at startup and after every announcement: the status label's text as shown and its
//       accessible label, description and role as GTK holds them
//   {"kind":"accessible","targets":[{"id","name","label","description","shortcuts"}…]}
//       at startup and after every change: the accessible properties of the lists and rows

@MainActor
enum AccessibilityScene {
    private static var status: GtkAnnouncementLabel?
    private static let printer = ChangedLineWriter()

    /// Arranges the window's content as menu button, `content`, status line when `--a11y` was
    /// given; does nothing otherwise. Call before the host adds the window, which wraps the
    /// window's child in its feedback layer.
    static func arrangeIfRequested(
        fixture: Fixture, window: UnsafeMutablePointer<GtkWidget>, content: UnsafeMutablePointer<GtkWidget>?
    ) {
        guard CommandLine.arguments.contains("--a11y"), let host = fixture.host, let content else { return }
        let column = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)
        g_object_ref(UnsafeMutableRawPointer(content))
        gtk_window_set_child(dd_window(UnsafeMutableRawPointer(window)), nil)
        gtk_box_append(dd_box(UnsafeMutableRawPointer(column)), menuButton())
        gtk_box_append(dd_box(UnsafeMutableRawPointer(column)), content)
        g_object_unref(UnsafeMutableRawPointer(content))
        gtk_widget_set_vexpand(content, 1)

        let status = GtkAnnouncementLabel()
        gtk_box_append(dd_box(UnsafeMutableRawPointer(column)), status.widget)
        host.addAnnouncementLabel(status)
        status.onChange = { _ in printLive() }
        self.status = status
        gtk_window_set_child(dd_window(UnsafeMutableRawPointer(window)), column)
    }

    /// Prints the accessible properties after every change, once the lists are registered.
    static func installIfRequested(fixture: Fixture) {
        guard CommandLine.arguments.contains("--a11y") else { return }
        for list in fixture.lists {
            let previous = list.onChange
            list.onChange = { [weak fixture] in
                previous?()
                if let fixture { printAccessible(fixture) }
            }
        }
        printLive()
        printAccessible(fixture)
    }

    private static func menuButton() -> UnsafeMutablePointer<GtkWidget> {
        let button = gtk_menu_button_new()
        let raw = OpaquePointer(button)
        gtk_menu_button_set_label(raw, "Edit")
        if let model = GtkDragHost.makeDragMenu() {
            gtk_menu_button_set_menu_model(raw, model)
            g_object_unref(UnsafeMutableRawPointer(model))
        }
        gtk_menu_button_set_primary(raw, 1)  // F10 opens it
        gtk_widget_set_halign(button, GTK_ALIGN_START)
        gtk_widget_set_margin_start(button, 16)
        gtk_widget_set_margin_top(button, 8)
        guard let button else { preconditionFailure("gtk_menu_button_new returned NULL") }
        return button
    }

    private static func printLive() {
        guard let status else { return }
        let widget = status.widget
        let shown = gtk_label_get_text(dd_label(UnsafeMutableRawPointer(widget))).map { String(cString: $0) } ?? ""
        LineWriter.write(
            LiveLine(
                text: status.text, shown: shown, label: AccessibleProperties.label(of: widget),
                description: AccessibleProperties.description(of: widget), role: AccessibleProperties.role(of: widget)))
    }

    private static func printAccessible(_ fixture: Fixture) {
        guard let host = fixture.host else { return }
        var targets: [AccessibleLine.Target] = []
        for list in fixture.lists {
            for (id, name) in [(list.id, list.title)] + list.items.map({ ($0.id, $0.title) }) {
                guard let widget = host.widget(for: id) else { continue }
                targets.append(
                    AccessibleLine.Target(
                        id: id.rawValue, name: name, label: AccessibleProperties.label(of: widget),
                        description: AccessibleProperties.description(of: widget),
                        shortcuts: AccessibleProperties.keyShortcuts(of: widget)))
            }
        }
        printer.write(AccessibleLine(targets: targets))
    }
}
