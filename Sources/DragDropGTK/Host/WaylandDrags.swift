import CGtk4
import DragDrop

/// What a drag on Wayland needs beyond GDK's common ground.
///
/// - **Modifier keys.** The compositor takes the keyboard for the whole drag, so the app never
///   sees Ctrl or Shift held; the compositor applies them itself to the drop's action
///   (weston: Ctrl copies, Shift moves). On Wayland `gdk_drop_get_actions` is that negotiated
///   action, so an action other than the one this app asked for is a modifier held: the host
///   passes it to the engine as `forceCopy` / `forceMove` (S2), and keeps asking for the
///   operation the engine proposes without it, so that releasing the key brings it back.
/// - **How a drag to another app ended.** X11 tells (XdndFinished with accepted or not, the
///   other app's name from its window); Wayland tells only that the other app performed the drop
///   (`drop-performed`) and then that it finished (`dnd-finished`) or not (`cancel`, reason
///   error). A cancel after the drop was performed is the other app refusing it (F7, A6),
///   named "the other app": Wayland does not say which app a surface belongs to. A cancel
///   with no drop performed is a release where nothing took the drag, as GDK's `NO_TARGET` on
///   X11.
@MainActor
final class WaylandDrags {
    private unowned let host: GtkDragHost
    /// The operation the engine proposed for the running in-app drag without a modifier.
    private var unforcedOperation: DropOperation?
    /// Whether GDK says the running drag's drop was performed (by another app, or here).
    private var dropPerformed = false
    /// Whether the running drag was dropped on this app's own drop target.
    var droppedHere = false
    /// What the running drag offers (a Wayland source says it once, before the drag starts):
    /// copy alone, unless Shift was held then (S2), and the modifiers held at that moment.
    private var offer: (actions: UInt32, modifiers: DragModifiers)?

    init(host: GtkDragHost) { self.host = host }

    /// Whether the app runs on Wayland (GDK's default display is a `GdkWaylandDisplay`).
    var isWayland: Bool { DisplayBackend.isWayland(gdk_display_get_default()) }

    /// Sets what a drag about to start offers on Wayland, where a source says it once (S2:
    /// other apps copy unless the person asks otherwise): with Shift held now, copy and move
    /// (Ctrl and Shift then change the action during the drag, as the compositor negotiates
    /// it); otherwise copy alone, and inside the app the modifiers held now stay for the whole
    /// drag (the compositor keeps the keyboard until the drop). On X11 every drag offers both
    /// and move is taken out while no modifier asks for it (`dd_x11_drag_offer_copy_by_default`).
    func prepareOffer(_ source: UnsafeMutableRawPointer, modifiers: DragModifiers) {
        var actions = GDK_ACTION_COPY.rawValue | GDK_ACTION_MOVE.rawValue
        if isWayland, !modifiers.contains(.forceMove) { actions = GDK_ACTION_COPY.rawValue }
        offer = isWayland ? (actions, modifiers) : nil
        gtk_drag_source_set_actions(OpaquePointer(source), GdkDragAction(rawValue: actions))
    }

    /// The modifiers of an in-app drag's motion: the keyboard's on X11; on Wayland the action
    /// the compositor negotiated, when it is not the one this app asked for (or, for a drag
    /// offering copy alone, the modifiers held when it started).
    func dragModifiers(negotiated: GdkDragAction) -> DragModifiers {
        guard isWayland else { return host.currentModifiers() }
        if let offer, offer.actions == GDK_ACTION_COPY.rawValue { return offer.modifiers }
        // A modifier held as the drag started counts until another one is seen (weston applies
        // only modifiers that change during the drag).
        let held = offer?.modifiers ?? []
        guard
            let asked = unforcedOperation.map({ host.gdkAction(for: $0, allowed: negotiated, unclamped: true) }),
            asked != 0, negotiated.rawValue != asked
        else { return held }
        switch negotiated.rawValue {
        case GDK_ACTION_COPY.rawValue: return [.forceCopy]
        case GDK_ACTION_MOVE.rawValue: return [.forceMove]
        default: return held
        }
    }

    /// After an in-app drag's motion with `modifiers`: the GDK action to ask for. On Wayland the
    /// operation without modifiers (remembered while none is held), whatever was negotiated.
    func askedAction(after modifiers: DragModifiers, negotiated: GdkDragAction) -> UInt32 {
        guard isWayland else { return host.gdkAction(for: host.engine.currentSession?.operation, allowed: negotiated) }
        if let offer, offer.actions == GDK_ACTION_COPY.rawValue {
            // Copy is all the drag offers: the engine's operation is the truth inside the app.
            return host.engine.currentSession?.operation.isPerformable == true ? GDK_ACTION_COPY.rawValue : 0
        }
        if modifiers.isEmpty || unforcedOperation == nil { unforcedOperation = host.engine.currentSession?.operation }
        return host.gdkAction(for: unforcedOperation, allowed: negotiated, unclamped: true)
    }

    /// A GDK drag started: on Wayland, note when another app performs its drop.
    func watch(_ drag: UnsafeMutableRawPointer) {
        unforcedOperation = nil
        dropPerformed = false
        droppedHere = false
        guard isWayland else { return }
        GSignal.connect(drag, "drop-performed") { [weak self] in
            guard let self else { return }
            self.host.diagnose(self.droppedHere ? "drop performed here" : "drop performed by another app")
            self.dropPerformed = true
        }
    }

    /// How `drag-cancel` with `reason` ends the engine session on Wayland, or nil to decide as
    /// on X11.
    func cancel(reason: UInt32) -> Cancel? {
        guard isWayland, reason == GDK_DRAG_CANCEL_ERROR.rawValue else { return nil }
        return dropPerformed && !droppedHere ? .refusedByOtherApp : .noTarget
    }

    enum Cancel {
        /// Released where nothing took the drag (GDK's `NO_TARGET` on X11).
        case noTarget
        /// Another app performed the drop, then did not finish it.
        case refusedByOtherApp
    }
}
