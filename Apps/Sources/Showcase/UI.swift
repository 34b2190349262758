import CGtk4
import DragDropGTK

/// Small helpers for building the showcase's widgets with the GTK C API.
@MainActor
enum UI {
    /// A label. Static text is selectable so people can copy it (K3); row titles are not (a
    /// selectable label would take the press that starts a drag).
    static func label(
        _ text: String, selectable: Bool = false, wrap: Bool = false, xalign: Float = 0, css: [String] = []
    ) -> UnsafeMutablePointer<GtkWidget> {
        let widget = gtk_label_new(text)!
        let label = dd_label(UnsafeMutableRawPointer(widget))
        gtk_label_set_xalign(label, xalign)
        if selectable {
            gtk_label_set_selectable(label, 1)
            // Clicking selects text (Copy is in its context menu); Tab passes it by for the
            // controls. Not `focusable = false`: a selectable label that is not focusable still
            // takes Tab and the shortcuts without ever showing the focus, and Tab stopped there.
            gtk_widget_set_can_focus(widget, 0)
            SelectableLabelMenu.attach(to: widget)  // Copy, Select, Select All as they apply (K6)
        }
        if wrap {
            gtk_label_set_wrap(label, 1)
            gtk_label_set_max_width_chars(label, 70)
        }
        for c in css { gtk_widget_add_css_class(widget, c) }
        return widget
    }

    static func box(_ orientation: GtkOrientation, spacing: Int32) -> UnsafeMutablePointer<GtkWidget> {
        gtk_box_new(orientation, spacing)!
    }

    static func append(_ box: UnsafeMutablePointer<GtkWidget>, _ child: UnsafeMutablePointer<GtkWidget>) {
        gtk_box_append(dd_box(UnsafeMutableRawPointer(box)), child)
    }

    static func margins(_ widget: UnsafeMutablePointer<GtkWidget>, _ value: Int32) {
        gtk_widget_set_margin_top(widget, value)
        gtk_widget_set_margin_bottom(widget, value)
        gtk_widget_set_margin_start(widget, value)
        gtk_widget_set_margin_end(widget, value)
    }

    /// A button titled with a short title-case verb (K1), borderless unless `bordered`.
    static func button(
        _ title: String, tooltip: String? = nil, bordered: Bool = false, _ action: @escaping @MainActor () -> Void
    ) -> UnsafeMutablePointer<GtkWidget> {
        let button = gtk_button_new_with_label(title)!
        if !bordered { gtk_button_set_has_frame(dd_button(UnsafeMutableRawPointer(button)), 0) }
        if let tooltip { gtk_widget_set_tooltip_text(button, tooltip) }
        GSignal.connect(UnsafeMutableRawPointer(button), "clicked", action)
        return button
    }

    /// Runs `action` when `key` (a lower-case letter) is pressed in `widget` or a child, with
    /// Ctrl held when `control`.
    static func onKey(
        _ widget: UnsafeMutablePointer<GtkWidget>, _ key: Character, control: Bool,
        _ action: @escaping @MainActor () -> Void
    ) {
        guard let keys = gtk_event_controller_key_new(), let scalar = key.unicodeScalars.first else { return }
        let lower = UInt32(gdk_unicode_to_keyval(scalar.value))
        let upper = UInt32(gdk_keyval_to_upper(guint(lower)))
        GSignal.connect(
            UnsafeMutableRawPointer(keys), "key-pressed",
            key: { keyval, _, state in
                guard keyval == lower || keyval == upper,
                    (state & GDK_CONTROL_MASK.rawValue != 0) == control
                else { return false }
                action()
                return true
            })
        gtk_widget_add_controller(widget, keys)
    }

    static func setText(_ label: UnsafeMutablePointer<GtkWidget>, _ text: String) {
        gtk_label_set_text(dd_label(UnsafeMutableRawPointer(label)), text)
    }

    /// The widget's bounds relative to `ancestor`, or nil before it is laid out there.
    static func bounds(
        of widget: UnsafeMutablePointer<GtkWidget>, in ancestor: UnsafeMutablePointer<GtkWidget>
    ) -> (x: Double, y: Double, width: Double, height: Double)? {
        var rect = graphene_rect_t()
        guard gtk_widget_compute_bounds(widget, ancestor, &rect) != 0 else { return nil }
        return (Double(rect.origin.x), Double(rect.origin.y), Double(rect.size.width), Double(rect.size.height))
    }

    /// Application-wide style for the showcase's own widgets.
    static let css = """
        .sc-sidebar row { padding: 3px 12px; min-height: 30px; }
        .sc-pane-title { font-size: 20px; font-weight: bold; }
        .sc-pending { color: rgb(130, 100, 30); font-weight: bold; }
        .sc-status { padding: 4px 12px; }
        .sc-count { opacity: 0.6; }
        .sc-list-title { font-weight: bold; }
        """
}
