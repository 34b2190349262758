import CGtk4
import DragDrop

/// Gives a window the keyboard back after a pointer drag, where the compositor takes it away
/// for the drag and never returns it (K12, C4).
///
/// On Wayland the compositor owns the keyboard focus. weston (10 and later) drops it when a drag
/// starts (`wl_keyboard.leave` in `weston_pointer_start_drag`) and gives it to nobody when the
/// drag ends, so after a drop in the app every key (Ctrl+Z to undo the drop) goes nowhere until
/// the next click. A client cannot ask for the focus there (weston has no `xdg_activation_v1`),
/// but the shell activates a window that maps, and when the window holding the focus goes, it
/// activates the topmost one left. So a window that had the keyboard when a drag began, lost it
/// during the drag and still lacks it shortly after the drop shows a 1 × 1 transparent window
/// of its own, destroyed as soon as that window has the keyboard: the focus falls back to the
/// window, whose focused widget never changed. Compositors that keep or give back the focus
/// themselves (mutter, KWin, sway) never reach that point, and X11 is left alone.
///
/// Only drags that end in this app (a drop here, a refusal, a cancel) give the keyboard back: a
/// drop in another app leaves the focus to the compositor, which may give it to that app.
@MainActor
final class KeyboardAfterDrag {
    /// How long after the drop (milliseconds) the compositor may take to give the focus back.
    static let grace: UInt32 = 120
    /// How long the stand-in window may wait for the keyboard before it goes anyway.
    static let standInLimit: UInt32 = 1000

    /// The window that had the keyboard when the running pointer drag was lifted.
    private var window: GObjectRef?
    private let diagnose: @MainActor (String) -> Void

    init(diagnose: @escaping @MainActor (String) -> Void) { self.diagnose = diagnose }

    /// A pointer drag was lifted in `window`: remember it if it has the keyboard.
    func lifted(in window: UnsafeMutablePointer<GtkWidget>?) {
        guard let window, gtk_window_is_active(dd_window(UnsafeMutableRawPointer(window))) != 0 else {
            self.window = nil
            return
        }
        self.window = GObjectRef(raw: UnsafeMutableRawPointer(window))
    }

    /// The drag ended: dropped here (`outcome` nil: the outcome may wait for a confirmation the
    /// keyboard must be able to answer) or with `outcome`. Unless the drop went to another app,
    /// checks shortly after that the window has the keyboard again.
    func ended(with outcome: DropOutcome?) {
        guard let window else { return }
        if case .handedOff = outcome {
            self.window = nil
            return
        }
        self.window = nil
        GLibSource.once(afterMilliseconds: Self.grace) { [weak self] in self?.giveBack(window) }
    }

    private func giveBack(_ ref: GObjectRef) {
        let window = ref.widget
        guard gtk_widget_get_visible(window) != 0,
            gtk_window_is_active(dd_window(UnsafeMutableRawPointer(window))) == 0,
            let display = gtk_widget_get_display(window),
            String(cString: dd_type_name(UnsafeMutableRawPointer(display))) == "GdkWaylandDisplay",
            let standIn = gtk_window_new()
        else { return }
        diagnose("keyboard: the compositor kept the keyboard after the drag; a stand-in window takes it back")
        let standInWindow = dd_window(UnsafeMutableRawPointer(standIn))
        gtk_window_set_transient_for(standInWindow, dd_window(UnsafeMutableRawPointer(window)))
        gtk_window_set_decorated(standInWindow, 0)
        gtk_window_set_default_size(standInWindow, 1, 1)
        // Nearly transparent (KeyboardStyles): a window that draws nothing is never mapped.
        gtk_widget_add_css_class(standIn, KeyboardStyles.standInClass)
        let stand = StandIn(GObjectRef(raw: UnsafeMutableRawPointer(standIn))) { [weak self] in
            GLibSource.once(afterMilliseconds: 50) {
                let active = gtk_window_is_active(dd_window(UnsafeMutableRawPointer(window))) != 0
                self?.diagnose("keyboard: back in the window after the drag: \(active)")
            }
        }
        // Gone once it has the keyboard (the shell then activates the window), or after a while.
        GSignal.connect(
            UnsafeMutableRawPointer(standIn), "notify::is-active",
            pointer: { [weak stand] _ in stand?.finishIfActive() })
        GLibSource.once(afterMilliseconds: Self.standInLimit) { stand.finish() }
        gtk_window_present(standInWindow)
    }
}

/// The stand-in window of ``KeyboardAfterDrag``, destroyed once.
@MainActor
private final class StandIn {
    private var window: GObjectRef?
    private let onFinish: @MainActor () -> Void

    init(_ window: GObjectRef, onFinish: @escaping @MainActor () -> Void) {
        self.window = window
        self.onFinish = onFinish
    }

    /// Destroys the window once it has the keyboard.
    func finishIfActive() {
        guard let window, gtk_window_is_active(dd_window(window.raw)) != 0 else { return }
        finish()
    }

    func finish() {
        guard let window else { return }
        self.window = nil
        gtk_window_destroy(dd_window(window.raw))
        onFinish()
    }
}
