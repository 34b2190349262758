import CGtk4
import DragDrop
import DragDropGTK
import DragDropTesting

/// The visuals scene's layout lines: the same `layout` schema as the default scene (lists on
/// screen only: a list on a hidden stack page has no frame), plus the controls' frames.
extension VisualsScene {
    func printLayout() {
        guard let window = host.frameInWindow(of: "window") else { return }
        var listFrames: [(String, JSONValue)] = []
        var rowFrames: [(String, JSONValue)] = []
        var laidOut = true
        for list in fixture.lists {
            guard let widget = host.widget(for: list.id), gtk_widget_get_mapped(widget) != 0,
                let frame = bounds(of: widget)
            else { continue }
            listFrames.append((list.id.rawValue, json(frame)))
            let rows = list.items.map { item -> JSONValue in
                let frame = host.widget(for: item.id).flatMap(bounds)
                if (frame?.height ?? 0) <= 0 { laidOut = false }
                return .object([("title", .string(item.title)), ("frame", frame.map(json) ?? .null)])
            }
            rowFrames.append((list.id.rawValue, .array(rows)))
        }
        emit(
            .object([
                ("kind", .string("layout")), ("window", .array([.number(window.width), .number(window.height)])),
                ("lists", .object(listFrames)), ("rows", .object(rowFrames)),
            ]))
        var controls: [(String, JSONValue)] = []
        if let spring, let frame = bounds(of: spring.widget) { controls.append(("spring", json(frame))) }
        if let scroll, let frame = bounds(of: scroll.widget) { controls.append(("scroll", json(frame))) }
        if let frame = bounds(of: stack.widget) { controls.append(("stack", json(frame))) }
        emit(.object([("kind", .string("controls"))] + controls))
        if laidOut, !fixture.announcedReady {
            fixture.announcedReady = true
            emit(.object([("kind", .string("ready"))]))
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
        emit(
            .object([
                ("kind", .string("confirmation")), ("cancel", found["cancel"].map(json) ?? .null),
                ("confirm", found["confirm"].map(json) ?? .null),
            ]))
    }

    /// A widget's bounds in the window, as GTK lays it out now.
    func bounds(of widget: UnsafeMutablePointer<GtkWidget>) -> Rect? {
        var r = graphene_rect_t()
        guard gtk_widget_compute_bounds(widget, window, &r) != 0 else { return nil }
        return Rect(
            x: Double(r.origin.x), y: Double(r.origin.y), width: Double(r.size.width), height: Double(r.size.height))
    }

    func json(_ r: Rect) -> JSONValue {
        .array([.number(r.minX), .number(r.minY), .number(r.width), .number(r.height)])
    }
}
