import CGtk4

extension GSignal {
    /// `GtkEventControllerScroll::scroll`: `gboolean (*)(self, double dx, double dy, data)`.
    @discardableResult
    static func connect(
        _ instance: UnsafeMutableRawPointer, _ signal: String,
        scroll body: @escaping @MainActor (_ dx: Double, _ dy: Double) -> Bool
    ) -> gulong {
        let trampoline: @convention(c) (gpointer?, Double, Double, gpointer?) -> gboolean = { _, dx, dy, data in
            guard let box = CallbackBox<@MainActor (Double, Double) -> Bool>.from(data) else { return 0 }
            return MainActor.assumeIsolated { box.body(dx, dy) } ? 1 : 0
        }
        let box = CallbackBox(body)
        return dd_signal_connect(
            instance, signal, unsafeBitCast(trampoline, to: GCallback.self), box.retainedPointer, releaseClosureNotify)
    }

    /// `GtkSwitch::state-set`: `gboolean (*)(self, gboolean state, data)`; return true to stop
    /// GTK's own handler.
    @discardableResult
    static func connect(
        _ instance: UnsafeMutableRawPointer, _ signal: String, bool body: @escaping @MainActor (Bool) -> Bool
    ) -> gulong {
        let trampoline: @convention(c) (gpointer?, gboolean, gpointer?) -> gboolean = { _, value, data in
            guard let box = CallbackBox<@MainActor (Bool) -> Bool>.from(data) else { return 0 }
            return MainActor.assumeIsolated { box.body(value != 0) } ? 1 : 0
        }
        let box = CallbackBox(body)
        return dd_signal_connect(
            instance, signal, unsafeBitCast(trampoline, to: GCallback.self), box.retainedPointer, releaseClosureNotify)
    }
}

/// A press-and-slide made with the pointer (or a finger) on a control's empty area: a swipe
/// between pages, a pull past the top of a list. It never starts on a registered drag source
/// (pressing there drags content instead) nor while a drag runs, and it claims the pointer only
/// once the slide is clearly along its axis, so clicks and the widgets' own gestures still work.
@MainActor
final class SlideGesture {
    /// The axis the slide must follow.
    enum Axis {
        case horizontal
        case vertical
    }

    /// Called as the slide moves, with the offset from the press (claimed slides only).
    var onSlide: (@MainActor (_ dx: Double, _ dy: Double) -> Void)?
    /// Called when a claimed slide ends, with the offset from the press.
    var onEnd: (@MainActor (_ dx: Double, _ dy: Double) -> Void)?
    /// Called when a claimed slide is cancelled (another gesture took the pointer).
    var onCancel: (@MainActor () -> Void)?
    /// Whether a press at `x`, `y` (the widget's coordinates) may start a slide; default: yes.
    var mayStart: (@MainActor (_ x: Double, _ y: Double) -> Bool)?

    private let gesture: GObjectRef
    private var claimed = false

    /// Attaches a slide along `axis` to `widget`, ignoring presses on `host`'s drag sources.
    init(on widget: UnsafeMutablePointer<GtkWidget>, axis: Axis, host: GtkDragHost, threshold: Double = 12) {
        let drag = gtk_gesture_drag_new()!
        gesture = GObjectRef(drag)!
        gtk_event_controller_set_propagation_phase(drag, GTK_PHASE_CAPTURE)
        let bits = PointerBits(UnsafeMutableRawPointer(drag))
        let widgetBits = PointerBits(UnsafeMutableRawPointer(widget))
        GSignal.connect(
            UnsafeMutableRawPointer(drag), "drag-begin",
            point: { [weak self, weak host] x, y in
                guard let self, let host, let gesture = bits.pointer,
                    let owner = widgetBits.pointer?.assumingMemoryBound(to: GtkWidget.self)
                else { return }
                self.claimed = false
                let picked = gtk_widget_pick(owner, x, y, GTK_PICK_DEFAULT)
                let onSource = picked.map { host.isInsideDragSource($0) } ?? false
                if host.engine.isDragging || onSource || !(self.mayStart?(x, y) ?? true) {
                    gtk_gesture_set_state(dd_gesture(gesture), GTK_EVENT_SEQUENCE_DENIED)
                    // A press on a drag source becomes a content drag whose pointer grab eats the
                    // release: forget the press now, or the gesture would wait for it and never
                    // begin again.
                    GLibSource.idle {
                        guard let gesture = bits.pointer else { return }
                        gtk_event_controller_reset(OpaquePointer(gesture))
                    }
                }
            })
        GSignal.connect(
            UnsafeMutableRawPointer(drag), "drag-update",
            point: { [weak self] dx, dy in
                guard let self, let gesture = bits.pointer else { return }
                if !self.claimed {
                    let along = axis == .horizontal ? abs(dx) : dy
                    let across = axis == .horizontal ? abs(dy) : abs(dx)
                    guard along > threshold, along > 2 * across else { return }
                    self.claimed = true
                    gtk_gesture_set_state(dd_gesture(gesture), GTK_EVENT_SEQUENCE_CLAIMED)
                }
                self.onSlide?(dx, dy)
            })
        GSignal.connect(
            UnsafeMutableRawPointer(drag), "drag-end",
            point: { [weak self] dx, dy in
                guard let self, self.claimed else { return }
                self.claimed = false
                self.onEnd?(dx, dy)
            })
        GSignal.connect(
            UnsafeMutableRawPointer(drag), "cancel",
            pointer: { [weak self] _ in
                guard let self, self.claimed else { return }
                self.claimed = false
                self.onCancel?()
            })
        gtk_widget_add_controller(widget, drag)
    }
}

extension GLibSource {
    /// Runs `body` every `milliseconds` until it returns false or the source is cancelled.
    /// Returns the source id, for ``cancel(_:)`` (cancel only a source still running).
    @discardableResult
    static func every(milliseconds: UInt32, _ body: @escaping @MainActor () -> Bool) -> guint {
        let box = CallbackBox(body)
        let trampoline: GSourceFunc = { data in
            guard let box = CallbackBox<@MainActor () -> Bool>.from(data) else { return 0 }
            return MainActor.assumeIsolated { box.body() } ? 1 : 0
        }
        return g_timeout_add_full(0, milliseconds, trampoline, box.retainedPointer, releaseSourceNotify)
    }
}
