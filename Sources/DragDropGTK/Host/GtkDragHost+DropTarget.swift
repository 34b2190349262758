import CGtk4
import DragDrop
import Glibc

/// Pointer input during drags: a `GtkDropTargetAsync` on each window feeds GTK's drag positions
/// to the engine and finishes every drop.
extension GtkDragHost {
    /// The MIME types each window's drop target accepts: what in-app items offer plus common
    /// types other apps drag.
    static let commonMimeTypes = [
        "text/plain;charset=utf-8", "text/plain", "text/uri-list", "text/html", "image/png", "image/jpeg",
        "application/pdf",
    ]

    func attachDropTarget(to window: UnsafeMutablePointer<GtkWidget>, windowID: TargetID) {
        let actions = GdkDragAction(rawValue: GDK_ACTION_COPY.rawValue | GDK_ACTION_MOVE.rawValue)
        guard let target = gtk_drop_target_async_new(contentFormats(), actions) else { return }
        dropTargets[windowID] = GObjectRef(target)
        let raw = UnsafeMutableRawPointer(target)
        // This app's own drags are taken whatever they offer other apps (an item limited to its
        // app offers them nothing, P5): GDK names the drag behind a drop of this process, so no
        // private marker type has to be advertised to every app. Other drags: GTK's rule (an
        // action and a format in common).
        GSignal.connect(
            raw, "accept",
            pointerReturningBool: { [weak self] drop in
                guard let self, let drop else { return false }
                return self.accepts(drop)
            })
        GSignal.connect(
            raw, "drag-enter",
            pointerPointReturningEnum: { [weak self] drop, _, _ in
                // drag-enter reports (0, 0): positions come from drag-motion.
                guard let self, let drop, self.isOwnDrag(drop) else { return 0 }
                self.diagnose("drag-enter window=\(windowID)")
                return self.gdkAction(
                    for: self.engine.currentSession?.operation, allowed: gdk_drop_get_actions(OpaquePointer(drop)))
            })
        GSignal.connect(
            raw, "drag-motion",
            pointerPointReturningEnum: { [weak self] drop, x, y in
                self?.dragMotion(drop, x: x, y: y, window: windowID) ?? 0
            })
        GSignal.connect(
            raw, "drag-leave",
            pointer: { [weak self] drop in
                if let self, let drop, !self.isOwnDrag(drop) { return self.otherApps.dragLeave(drop, window: windowID) }
                guard let self, let drop, self.isOwnDrag(drop), self.engine.isDragging else { return }
                self.diagnose("drag-leave window=\(windowID)")
                self.pointerWatch.position = nil
                self.drive { self.engine.pointerMoved(to: Self.outside) }
            })
        GSignal.connect(
            raw, "drop",
            pointerPointReturningBool: { [weak self] drop, x, y in
                guard let drop else { return false }
                guard let self else {
                    gdk_drop_finish(OpaquePointer(drop), GdkDragAction(rawValue: 0))
                    return true
                }
                self.drop(drop, x: x, y: y, window: windowID)
                return true
            })
        gtk_widget_add_controller(window, OpaquePointer(raw))
    }

    /// Adds the concrete types `target` offers or accepts to what every window's drop target
    /// accepts.
    func learnMimeTypes(of target: DragTarget) {
        let new = (target.offers + target.accepts).filter { !$0.isWildcard }.map(\.essence)
            .filter { !mimeTypes.contains($0) }
        guard !new.isEmpty else { return }
        for type in new where !mimeTypes.contains(type) { mimeTypes.append(type) }
        let formats = contentFormats()
        defer { if let formats { gdk_content_formats_unref(formats) } }
        for target in dropTargets.values {
            gtk_drop_target_async_set_formats(OpaquePointer(target.raw), formats)
        }
    }

    /// The accepted types as new `GdkContentFormats` (transfer full).
    private func contentFormats() -> OpaquePointer? {
        withCStrings(mimeTypes) { gdk_content_formats_new($0, guint(mimeTypes.count)) }
    }

    /// Whether a window's drop target takes `drop`: always this host's own drag; another app's
    /// drag when it offers a type some window accepts (a file list saved through X Direct Save
    /// counts, ``DirectSave``) and allows a copy (S2: content from another app is copied), or
    /// offers a file list it allows moving (on X11, GTK and Qt sources offer only a move while
    /// the person holds Shift; a folder that takes other apps' moves moves it in). Other drags
    /// their app lets only be moved are not taken, and nothing lights up (F4).
    func accepts(_ drop: UnsafeMutableRawPointer) -> Bool {
        if isOwnDrag(drop) { return true }
        guard let offered = gdk_drop_get_formats(OpaquePointer(drop)) else { return false }
        let accepted = contentFormats()
        defer { if let accepted { gdk_content_formats_unref(accepted) } }
        guard let accepted else { return false }
        let takesFiles = gdk_content_formats_contain_mime_type(accepted, ContentType.uriList.mimeType) != 0
        guard
            gdk_content_formats_match(accepted, offered) != 0
                || (takesFiles && otherApps.directSaveOffer(offered: StandardMimeTypes.received(offered)) != nil)
                || (takesFiles && FileTransferPortal.isAvailable
                    && FileTransferPortal.offered(in: StandardMimeTypes.received(offered)) != nil)
        else { return false }
        let actions = gdk_drop_get_actions(OpaquePointer(drop)).rawValue
        let movableFiles =
            actions & GDK_ACTION_MOVE.rawValue != 0
            && gdk_content_formats_contain_mime_type(offered, ContentType.uriList.mimeType) != 0
        guard actions & GDK_ACTION_COPY.rawValue != 0 || movableFiles else {
            let app = otherApps.enteredAppName?.rawValue ?? "The other app"
            diagnose("external drag refused: \(app) allows only moving it")
            return false
        }
        return true
    }

    /// Whether a GTK drop is the drag this host started (an in-app drag).
    func isOwnDrag(_ drop: UnsafeMutableRawPointer) -> Bool {
        guard let own = gdkDrag?.drag.raw, let drag = gdk_drop_get_drag(OpaquePointer(drop)) else { return false }
        return UnsafeMutableRawPointer(drag) == own
    }

    private func dragMotion(_ drop: UnsafeMutableRawPointer?, x: Double, y: Double, window: TargetID) -> UInt32 {
        if let drop, !isOwnDrag(drop) { return otherApps.dragMotion(drop, x: x, y: y, window: window) }
        guard let drop, isOwnDrag(drop), engine.isDragging, let origin = windowOrigins[window] else { return 0 }
        // GDK moved the drag image just before telling this window about the motion, in the same
        // dispatch, and the request waits in the connection's buffer until the loop next
        // flushes: out it goes now, before the engine's work, so the image follows the pointer
        // as soon as it would in an app that does nothing here.
        gdk_display_flush(gdk_drop_get_display(OpaquePointer(drop)))
        let allowed = gdk_drop_get_actions(OpaquePointer(drop))
        feedback.recordPointer(window: window, x: x, y: y)
        notePointer(window: window, x: x, y: y)
        let modifiers = wayland.dragModifiers(negotiated: allowed)
        drive { engine.pointerMoved(to: Point(x: origin.x + x, y: origin.y + y), modifiers: modifiers) }
        return wayland.askedAction(after: modifiers, negotiated: allowed)
    }

    private func drop(_ drop: UnsafeMutableRawPointer, x: Double, y: Double, window: TargetID) {
        let gdkDrop = OpaquePointer(drop)
        if !isOwnDrag(drop) { return otherApps.drop(drop, x: x, y: y, window: window) }
        guard engine.isDragging, let origin = windowOrigins[window] else {
            diagnose("drop refused: the drag is over")
            gdk_drop_finish(gdkDrop, GdkDragAction(rawValue: 0))
            return
        }
        let allowed = gdk_drop_get_actions(gdkDrop)
        wayland.droppedHere = true
        // Where the pointer was let go of (X11: GDK's position may be an earlier one, see
        // GtkDragHost+PointerWatch.swift).
        var at = (x: x, y: y)
        if let checked = checkPointer(), checked.window == window { at = (checked.x, checked.y) }
        let outcome = engine.pointerUp(at: Point(x: origin.x + at.x, y: origin.y + at.y))
        reschedule()
        var action: UInt32 = 0
        switch outcome {
        case .completed(_, let operation): action = gdkAction(for: operation, allowed: allowed)
        case .placeholder: action = gdkAction(for: .copy, allowed: allowed)
        default: action = 0
        }
        diagnose("drop window=\(window) outcome=\(outcome?.name ?? "none") action=\(action)")
        // Always finish, success or not, so the drag source never hangs.
        gdk_drop_finish(gdkDrop, GdkDragAction(rawValue: action))
    }

    /// The GDK action for an engine proposal. X11 offers a single suggested action (COPY unless
    /// a modifier is held); the engine's proposal is the truth for in-app drags, so a move is
    /// accepted with whatever action GDK allows. `unclamped`: the proposal's own action whatever
    /// `allowed` says (on Wayland `allowed` is the action negotiated so far, not what the source
    /// offers).
    func gdkAction(for operation: DropOperation?, allowed: GdkDragAction, unclamped: Bool = false) -> UInt32 {
        let wanted: UInt32
        switch operation {
        case .copy: wanted = GDK_ACTION_COPY.rawValue
        case .move: wanted = GDK_ACTION_MOVE.rawValue
        default: return 0
        }
        if unclamped || allowed.rawValue & wanted != 0 { return wanted }
        if allowed.rawValue & GDK_ACTION_MOVE.rawValue != 0 { return GDK_ACTION_MOVE.rawValue }
        if allowed.rawValue & GDK_ACTION_COPY.rawValue != 0 { return GDK_ACTION_COPY.rawValue }
        return 0
    }

    /// Modifier keys held now: Ctrl forces a copy, Shift forces a move (S2).
    func currentModifiers() -> DragModifiers {
        let state = DefaultSeat.modifiers.rawValue
        var modifiers: DragModifiers = []
        if state & GDK_CONTROL_MASK.rawValue != 0 { modifiers.insert(.forceCopy) }
        if state & GDK_SHIFT_MASK.rawValue != 0 { modifiers.insert(.forceMove) }
        return modifiers
    }
}

/// Calls `body` with a NULL-terminated C array of the strings.
func withCStrings<R>(_ strings: [String], _ body: (UnsafeMutablePointer<UnsafePointer<CChar>?>?) -> R) -> R {
    let duplicates = strings.map { UnsafePointer(strdup($0)) }
    defer { for d in duplicates { free(UnsafeMutableRawPointer(mutating: d)) } }
    var array: [UnsafePointer<CChar>?] = duplicates + [nil]
    return array.withUnsafeMutableBufferPointer { body($0.baseAddress) }
}
