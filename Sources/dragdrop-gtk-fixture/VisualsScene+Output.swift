import CGtk4
import DragDrop
import DragDropGTK
import DriverProtocol

/// The visuals scene's layout lines: the same `layout` schema as the default scene (lists on
/// screen only: a list on a hidden stack page has no frame), plus the controls' frames.
extension VisualsScene {
    func printLayout() {
        guard let window = host.frameInWindow(of: "window") else { return }
        var layout = LayoutLine()
        layout.window = [window.width, window.height]
        layout.lists = [:]
        layout.rows = [:]
        var laidOut = true
        for list in fixture.lists {
            guard let widget = host.widget(for: list.id), gtk_widget_get_mapped(widget) != 0,
                let frame = bounds(of: widget)
            else { continue }
            layout.lists?[list.id.rawValue] = Frame(frame)
            layout.rows?[list.id.rawValue] = list.items.map { item in
                let frame = host.widget(for: item.id).flatMap(bounds)
                if (frame?.height ?? 0) <= 0 { laidOut = false }
                return TitledFrame(title: item.title, frame: frame.map(Frame.init))
            }
        }
        LineWriter.write(layout)
        var controls = ControlsLine()
        if let spring { controls.spring = bounds(of: spring.widget).map(Frame.init) }
        if let scroll { controls.scroll = bounds(of: scroll.widget).map(Frame.init) }
        controls.stack = bounds(of: stack.widget).map(Frame.init)
        LineWriter.write(controls)
        if laidOut, !fixture.announcedReady {
            fixture.announcedReady = true
            LineWriter.write(ReadyLine())
        }
    }

    /// The confirmation sheet's buttons, found in the window by their labels.
    func printConfirmationButtons() {
        var found: [String: Rect] = [:]
        func walk(_ widget: UnsafeMutablePointer<GtkWidget>) {
            if dd_is_button(UnsafeMutableRawPointer(widget)) != 0,
                let label = gtk_button_get_label(dd_button(UnsafeMutableRawPointer(widget))).map(String.init(cString:)),
                ["Cancel", "Move", "Copy"].contains(label), let frame = bounds(of: widget)
            {
                found[label == "Cancel" ? "cancel" : "confirm"] = frame
            }
            var child = gtk_widget_get_first_child(widget)
            while let c = child {
                walk(c)
                child = gtk_widget_get_next_sibling(c)
            }
        }
        walk(window)
        LineWriter.write(
            ConfirmationLine(cancel: found["cancel"].map(Frame.init), confirm: found["confirm"].map(Frame.init)))
    }

    /// A widget's bounds in the window, as GTK lays it out now.
    func bounds(of widget: UnsafeMutablePointer<GtkWidget>) -> Rect? {
        var r = graphene_rect_t()
        guard gtk_widget_compute_bounds(widget, window, &r) != 0 else { return nil }
        return Rect(
            x: Double(r.origin.x), y: Double(r.origin.y), width: Double(r.size.width), height: Double(r.size.height))
    }
}
