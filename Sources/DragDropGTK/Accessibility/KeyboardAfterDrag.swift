import CGtk4
import DragDrop

/// Gives a window the keyboard back after a pointer drag, where the compositor takes it away
/// for the drag and never returns it (K12, C4).
///
/// On Wayland the compositor owns the keyboard focus. weston (10 to today) drops it when a drag
/// starts (`wl_keyboard.leave`) and gives it to nobody when the drag ends, so after a drop in
/// the app every key (Ctrl+Z to undo the drop) goes nowhere until the next click. A client
/// cannot ask for the focus there (weston has no `xdg_activation_v1`), but the shell activates
/// a window when it is mapped: so a window that had the keyboard when a drag began, lost it
/// during the drag and still lacks it shortly after the drop is unmapped and presented again.
/// Its widget focus is kept. Compositors that keep or give back the focus themselves (mutter,
/// KWin, sway) never reach that point, and X11 is left alone.
///
/// Only drags that end in this app (a drop here, a refusal, a cancel) give the keyboard back: a
/// drop in another app leaves the focus to the compositor, which may give it to that app.
@MainActor
final class KeyboardAfterDrag {
    /// How long after the drop the compositor may take to give the focus back itself.
    static let grace: UInt32 = 120

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

    /// The drag ended with `outcome`: unless the drop went to another app, check shortly after
    /// that the window has the keyboard again.
    func ended(with outcome: DropOutcome) {
        guard let window else { return }
        self.window = nil
        if case .handedOff = outcome { return }
        GLibSource.once(afterMilliseconds: Self.grace) { [weak self] in self?.giveBack(window) }
    }

    private func giveBack(_ ref: GObjectRef) {
        let window = ref.widget
        guard gtk_widget_get_visible(window) != 0,
            gtk_window_is_active(dd_window(UnsafeMutableRawPointer(window))) == 0,
            let display = gtk_widget_get_display(window),
            String(cString: dd_type_name(UnsafeMutableRawPointer(display))) == "GdkWaylandDisplay"
        else { return }
        diagnose("keyboard: the compositor kept the keyboard after the drag; presenting the window again")
        gtk_widget_hide(window)
        gtk_window_present(dd_window(UnsafeMutableRawPointer(window)))
    }
}
