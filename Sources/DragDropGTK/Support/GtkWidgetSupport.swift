import CGtk4
import DragDrop

/// Small GTK helpers the widgets share: walking controllers, removing GTK's built-in drop
/// handling, and the signal shapes `GSignal` does not cover.
@MainActor
enum GtkWidgetSupport {
    /// The direction GTK lays `widget` out in (its own, else the default one, which follows the
    /// locale: right to left on a Hebrew or Arabic desktop), for the engine (L3).
    static func layoutDirection(of widget: UnsafeMutablePointer<GtkWidget>) -> LayoutDirection {
        gtk_widget_get_direction(widget) == GTK_TEXT_DIR_RTL ? .rightToLeft : .leftToRight
    }

    /// A list's or grid's title: bold, left-aligned and selectable so it can be copied (K3),
    /// passed by Tab (`can-focus` off). Not `focusable = false`: a selectable label that is not
    /// focusable still takes Tab and shortcuts (it swallowed Ctrl+Z after the list rebuilt its
    /// rows, and Tab stopped on it).
    static func heading(_ title: String) -> UnsafeMutablePointer<GtkWidget> {
        let heading = gtk_label_new(title)!
        gtk_widget_add_css_class(heading, "heading")
        let label = dd_label(UnsafeMutableRawPointer(heading))
        gtk_label_set_xalign(label, 0)
        gtk_label_set_selectable(label, 1)
        gtk_widget_set_can_focus(heading, 0)
        SelectableLabelMenu.attach(to: heading)  // Copy, Select, Select All as they apply (K6)
        return heading
    }

    /// The event controllers attached to `widget` (GTK's own included), each held by a reference.
    static func controllers(of widget: UnsafeMutablePointer<GtkWidget>) -> [GObjectRef] {
        guard let model = gtk_widget_observe_controllers(widget) else { return [] }
        defer { g_object_unref(UnsafeMutableRawPointer(model)) }
        var result: [GObjectRef] = []
        for index in 0..<g_list_model_get_n_items(model) {
            if let item = GObjectRef(adopting: g_list_model_get_item(model, index)) { result.append(item) }
        }
        return result
    }

    /// Whether `object` is an instance of `type` (or of a subtype).
    static func isInstance(_ object: UnsafeMutableRawPointer, of type: GType) -> Bool {
        g_type_check_instance_is_a(object.assumingMemoryBound(to: GTypeInstance.self), type) != 0
    }

    /// Removes GTK's built-in drop targets from `widget` and its descendants (a text view's or a
    /// text field's own text drops), so drags over them reach the window's drop target and the
    /// engine decides what happens.
    static func removeBuiltInDropTargets(from widget: UnsafeMutablePointer<GtkWidget>) {
        let dropTypes = [gtk_drop_target_async_get_type(), gtk_drop_target_get_type()]
        for controller in controllers(of: widget)
        where dropTypes.contains(where: { isInstance(controller.raw, of: $0) }) {
            gtk_widget_remove_controller(widget, OpaquePointer(controller.raw))
        }
        var child = gtk_widget_get_first_child(widget)
        while let current = child {
            removeBuiltInDropTargets(from: current)
            child = gtk_widget_get_next_sibling(current)
        }
    }

    /// The first descendant of `widget` (itself included) of `type`.
    static func descendant(of widget: UnsafeMutablePointer<GtkWidget>, type: GType) -> UnsafeMutablePointer<GtkWidget>?
    {
        if isInstance(UnsafeMutableRawPointer(widget), of: type) { return widget }
        var child = gtk_widget_get_first_child(widget)
        while let current = child {
            if let found = descendant(of: current, type: type) { return found }
            child = gtk_widget_get_next_sibling(current)
        }
        return nil
    }

    /// The modifier keys of the event a controller is handling now.
    static func currentState(of controller: UnsafeMutableRawPointer) -> UInt32 {
        gtk_event_controller_get_current_event_state(OpaquePointer(controller)).rawValue
    }

    /// Makes `widget` an application-priority CSS provider target for `css`, once per display.
    static func installCSS(_ css: String, key: String, for widget: UnsafeMutablePointer<GtkWidget>) {
        guard let display = gtk_widget_get_display(widget) else { return }
        let id = "\(key)@\(UInt(bitPattern: UnsafeMutableRawPointer(display)))"
        guard installedCSS.insert(id).inserted, let provider = gtk_css_provider_new() else { return }
        gtk_css_provider_load_from_data(provider, css, -1)
        gtk_style_context_add_provider_for_display(
            display, dd_style_provider(UnsafeMutableRawPointer(provider)),
            guint(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
        g_object_unref(UnsafeMutableRawPointer(provider))
    }

    private static var installedCSS: Set<String> = []
}

extension GSignal {
    /// `GtkGestureClick::pressed` and `::released`:
    /// `void (*)(self, int n_press, double x, double y, data)`.
    @discardableResult
    static func connect(
        _ instance: UnsafeMutableRawPointer, _ signal: String,
        click body: @escaping @MainActor (_ presses: Int32, _ x: Double, _ y: Double) -> Void
    ) -> gulong {
        let trampoline: @convention(c) (gpointer?, Int32, Double, Double, gpointer?) -> Void = { _, n, x, y, data in
            guard let box = CallbackBox<@MainActor (Int32, Double, Double) -> Void>.from(data) else { return }
            MainActor.assumeIsolated { box.body(n, x, y) }
        }
        let box = CallbackBox(body)
        return dd_signal_connect(
            instance, signal, unsafeBitCast(trampoline, to: GCallback.self), box.retainedPointer, releaseClosureNotify)
    }

    /// `GtkGestureLongPress::pressed`: `void (*)(self, double x, double y, data)`.
    @discardableResult
    static func connect(
        _ instance: UnsafeMutableRawPointer, _ signal: String,
        point body: @escaping @MainActor (_ x: Double, _ y: Double) -> Void
    ) -> gulong {
        let trampoline: @convention(c) (gpointer?, Double, Double, gpointer?) -> Void = { _, x, y, data in
            guard let box = CallbackBox<@MainActor (Double, Double) -> Void>.from(data) else { return }
            MainActor.assumeIsolated { box.body(x, y) }
        }
        let box = CallbackBox(body)
        return dd_signal_connect(
            instance, signal, unsafeBitCast(trampoline, to: GCallback.self), box.retainedPointer, releaseClosureNotify)
    }
}

extension GtkDragHost {
    /// `point` (engine coordinates) in the coordinates of the widget registered as `id`.
    func widgetPoint(_ point: Point, inWidgetOf id: TargetID) -> (x: Double, y: Double)? {
        guard let entry = registered[id], let window = registered[entry.window],
            let origin = windowOrigins[entry.window]
        else { return nil }
        var inWindow = graphene_point_t(x: Float(point.x - origin.x), y: Float(point.y - origin.y))
        var inWidget = graphene_point_t()
        guard gtk_widget_compute_point(window.widget.widget, entry.widget.widget, &inWindow, &inWidget) != 0 else {
            return nil
        }
        return (Double(inWidget.x), Double(inWidget.y))
    }

    /// Runs the drag source of the widget registered as `id` in the capture phase, so it sees
    /// the pointer before the widget's own gestures (a text view's selection drag).
    func captureDragSource(of id: TargetID) {
        guard let source = registered[id]?.dragSource else { return }
        gtk_event_controller_set_propagation_phase(OpaquePointer(source.raw), GTK_PHASE_CAPTURE)
    }

    /// Groups the drag source of `id` with the widget's own press gestures of `types` (a text
    /// view's click and selection-drag gestures). Those claim every press; grouped, the drag
    /// source shares their claim instead of being cancelled by it. `except` are controllers to
    /// leave out (the caller's own).
    func groupDragSource(of id: TargetID, withGesturesOf types: [GType], except: [UnsafeMutableRawPointer] = []) {
        guard let entry = registered[id], let source = entry.dragSource else { return }
        for controller in GtkWidgetSupport.controllers(of: entry.widget.widget)
        where controller.raw != source.raw && !except.contains(controller.raw)
            && types.contains(where: { GtkWidgetSupport.isInstance(controller.raw, of: $0) })
        {
            gtk_gesture_group(OpaquePointer(controller.raw), OpaquePointer(source.raw))
        }
    }

    /// The delegate that owns `id`, for widgets that read each other's models in one app.
    func owner(of id: TargetID) -> (any GtkDragHostDelegate)? { delegate(of: id) }
}

/// `raw` as a pointer to the GTK struct `T` (for types whose casting macros do not import and
/// have no `dd_` shim).
func gtkCast<T>(_ raw: UnsafeMutableRawPointer, to type: T.Type) -> UnsafeMutablePointer<T> {
    raw.assumingMemoryBound(to: type)
}

/// `pointer` as a pointer to the GTK struct `T`.
func gtkCast<P, T>(_ pointer: UnsafeMutablePointer<P>, to type: T.Type) -> UnsafeMutablePointer<T> {
    UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: type)
}

extension GtkDragHost {
    /// Registers an edit made outside a drag (typing, Cut, Paste, Delete) as one named undo
    /// step on the history of `target`'s document (`DragEngine.undoStack(for:)`; the engine's
    /// own without a target), so Ctrl+Z undoes edits and drops in the order they happened
    /// (K2, U1). The library's edit names ("Typing", "Cut", "Paste", "Delete") are shown in
    /// the person's language (`Localization.editName(_:)` in DragDrop); others as given.
    public func registerEdit(
        _ name: String, in target: TargetID? = nil, undo: @escaping () -> Void, redo: @escaping () -> Void
    ) {
        let stack = engine.undoStack(for: target)
        stack.beginGroup(named: Localization.editName(name))
        stack.register(undo: undo, redo: redo)
        stack.endGroup()
    }
}
