import CGtk4
import DragDrop

/// What a keyboard drag does at its drop: the engine's rules, or a move or copy chosen from a
/// menu ("Move To…", "Copy To…").
public enum KeyboardDragOperation: Sendable, Hashable {
    /// The engine's rules decide (S2), as for a plain pick-up.
    case automatic
    /// Moves where moving is allowed ("Move To…").
    case move
    /// Copies ("Copy To…").
    case copy
}

/// Keyboard dragging (C4) on every window the host manages (one of its collaborators, see
/// ``GtkDragHost``):
///
/// | Key | Does |
/// |---|---|
/// | Ctrl+Shift+D | picks up the focused item, or the focused list's selection |
/// | Tab, Down | next drop point |
/// | Shift+Tab, Up | previous drop point |
/// | Return, Enter | drops on the focused drop point |
/// | Escape | cancels |
/// | Space | opens the focused spring-loaded control at once (SP3) |
///
/// The keys other than Ctrl+Shift+D are only taken while a keyboard drag runs. Each window
/// also gets the actions `dd.pick-up`, `dd.move-to` and `dd.copy-to`, for menus
/// (``GtkDragHost/makeDragMenu()``). It also shows the keyboard focus on the drop point
/// (`dd-keyboard-focus`) and gives a window the keyboard back after a pointer drag where the
/// compositor keeps it (``KeyboardAfterDrag``).
@MainActor
final class KeyboardDragging: GtkDragHostCollaborator {
    private unowned let host: GtkDragHost
    /// The drop point showing the keyboard focus (`dd-keyboard-focus`).
    private var focusedDropPoint: TargetID?
    /// Per window: the registered target that last held GTK's focus (kept while a menu's
    /// popover has the focus, so "Move To…" picks up what was focused before the menu opened).
    private var lastFocus: [TargetID: TargetID] = [:]
    /// Per window: the `dd` action group (pick-up, move-to, copy-to).
    private var actionGroups: [TargetID: GObjectRef] = [:]
    /// Whether the running keyboard drag forced an operation through the engine's modifiers.
    private var forcedOperation = false
    /// Whether the host is asking a delegate what the keyboard picks up.
    private(set) var pickingUp = false
    /// Displays that have the keyboard styles.
    private var styledDisplays: Set<UInt> = []
    /// Gives a window the keyboard back after a pointer drag (Wayland compositors that keep it).
    private var keyboardAfterDrag: KeyboardAfterDrag?

    init(host: GtkDragHost) { self.host = host }

    // MARK: Picking up

    /// See ``GtkDragHost/beginKeyboardDrag(in:operation:)``.
    func begin(in window: TargetID, operation: KeyboardDragOperation) -> Bool {
        guard !host.engine.isDragging else {
            host.announce("A drag is already in progress.")
            return false
        }
        let (items, container) = itemsToPickUp(in: window)
        host.diagnose("keyboard pick-up window=\(window) items=\(items.count) operation=\(operation)")
        return begin(items: items, operation: operation, from: container)
    }

    /// See ``GtkDragHost/beginKeyboardDrag(items:operation:from:)``.
    func begin(items: [TargetID], operation: KeyboardDragOperation, from container: TargetID?) -> Bool {
        let engine = host.engine
        guard !engine.isDragging else {
            host.announce("A drag is already in progress.")
            return false
        }
        guard !items.isEmpty else {
            host.announce(WidgetText.nothingToPickUp)
            return false
        }
        host.refreshFrames()
        var started = false
        host.drive {
            do {
                host.dragModelContainer = container ?? engine.registry.modelContainer(ofFirstRegistered: items)
                try engine.beginKeyboardDrag(items: items, from: host.dragModelContainer)
                started = true
            } catch {
                host.report(error)
                host.announce(Sentence.explaining(WidgetText.cannotPickUp, error))
            }
            guard started, operation != .automatic else { return }
            forcedOperation = true
            engine.modifiersChanged(operation == .copy ? [.forceCopy] : [.forceMove])
        }
        return started
    }

    /// Sends a key to the running keyboard drag; returns whether it was used.
    func key(_ key: DragKey) -> Bool {
        var used = false
        host.drive { used = host.engine.keyDown(key).wasHandled }
        return used
    }

    // MARK: Engine events

    func engineEmitted(_ event: FeedbackEvent) {
        switch event {
        case .keyboardFocus(let target, _):
            showKeyboardFocus(on: target)
        case .lifted(let items, _, .pointer):
            if keyboardAfterDrag == nil {
                keyboardAfterDrag = KeyboardAfterDrag { [weak host] line in host?.diagnose(line) }
            }
            let window = items.first.flatMap { host.registered[$0]?.window }.flatMap { host.widget(for: $0) }
            keyboardAfterDrag?.lifted(in: window)
        case .dropped:
            keyboardAfterDrag?.ended(with: nil)
        case .outcome(let outcome):
            keyboardAfterDrag?.ended(with: outcome)
            // The forced move or copy of "Move To…" / "Copy To…" ends with its drag.
            guard forcedOperation else { return }
            forcedOperation = false
            GLibSource.idle { [weak host] in
                guard let host, !host.engine.isDragging else { return }
                host.engine.modifiersChanged([])
            }
        default:
            break
        }
    }

    private func showKeyboardFocus(on target: TargetID?) {
        if let old = focusedDropPoint, let widget = host.widget(for: old) {
            gtk_widget_remove_css_class(widget, KeyboardStyles.focusClass)
        }
        focusedDropPoint = target
        if let target, let widget = host.widget(for: target) {
            gtk_widget_add_css_class(widget, KeyboardStyles.focusClass)
        }
    }

    // MARK: Wiring

    /// Gives a window added to the host its keys, its `dd` actions and the keyboard styles.
    func windowRemoved(_ id: TargetID) {
        lastFocus[id] = nil
        actionGroups[id] = nil
    }

    func attach(to window: UnsafeMutablePointer<GtkWidget>, windowID: TargetID) {
        installKeyboardStyles(for: window)
        if let keys = gtk_event_controller_key_new() {
            gtk_event_controller_set_propagation_phase(keys, GTK_PHASE_CAPTURE)
            GSignal.connect(
                UnsafeMutableRawPointer(keys), "key-pressed",
                key: { [weak self] keyval, _, state in
                    self?.keyPressed(keyval, state: state, window: windowID) ?? false
                })
            gtk_widget_add_controller(window, keys)
        }
        installActions(on: window, windowID: windowID)
    }

    private func keyPressed(_ keyval: UInt32, state: UInt32, window: TargetID) -> Bool {
        // Escape gives up a drop another app took and never finished (the drag stays otherwise).
        if keyval == UInt32(GDK_KEY_Escape), host.otherApps.isWaitingForOtherApp {
            host.otherApps.giveUp(.cancelled)
            return true
        }
        let control = state & GDK_CONTROL_MASK.rawValue != 0
        let shift = state & GDK_SHIFT_MASK.rawValue != 0
        let isD = keyval == UInt32(GDK_KEY_d) || keyval == UInt32(GDK_KEY_D)
        if control, shift, isD {
            if host.engine.currentSession?.mode == .keyboard { return true }
            _ = begin(in: window, operation: .automatic)
            return true
        }
        guard host.engine.currentSession?.mode == .keyboard, let key = Self.dragKey(for: keyval, shift: shift) else {
            return false
        }
        host.diagnose("keyboard key=\(key.rawValue)")
        _ = self.key(key)
        return true
    }

    /// The drag key a key press means during a keyboard drag.
    static func dragKey(for keyval: UInt32, shift: Bool) -> DragKey? {
        switch Int32(bitPattern: keyval) {
        case GDK_KEY_Tab, GDK_KEY_KP_Tab: shift ? .previousDropPoint : .nextDropPoint
        case GDK_KEY_ISO_Left_Tab, GDK_KEY_Up, GDK_KEY_KP_Up: .previousDropPoint
        case GDK_KEY_Down, GDK_KEY_KP_Down: .nextDropPoint
        case GDK_KEY_Return, GDK_KEY_KP_Enter, GDK_KEY_ISO_Enter: .drop
        case GDK_KEY_Escape: .cancel
        case GDK_KEY_space, GDK_KEY_KP_Space: .activate
        default: nil
        }
    }

    private func installActions(on window: UnsafeMutablePointer<GtkWidget>, windowID: TargetID) {
        guard let group = g_simple_action_group_new() else { return }
        let actions: [(String, KeyboardDragOperation)] = [
            ("pick-up", .automatic), ("move-to", .move), ("copy-to", .copy),
        ]
        for (name, operation) in actions {
            guard let action = g_simple_action_new(name, nil) else { continue }
            GSignal.connect(
                UnsafeMutableRawPointer(action), "activate",
                pointer: { [weak self] _ in
                    self?.host.diagnose("action dd.\(name) window=\(windowID)")
                    _ = self?.begin(in: windowID, operation: operation)
                })
            g_action_map_add_action(OpaquePointer(group), action)
            g_object_unref(UnsafeMutableRawPointer(action))
        }
        gtk_widget_insert_action_group(window, "dd", OpaquePointer(group))
        actionGroups[windowID] = GObjectRef(adopting: UnsafeMutableRawPointer(group))
    }

    private func installKeyboardStyles(for window: UnsafeMutablePointer<GtkWidget>) {
        guard let display = gtk_widget_get_display(window) else { return }
        guard styledDisplays.insert(UInt(bitPattern: UnsafeMutableRawPointer(display))).inserted else { return }
        KeyboardStyles.install(on: display)
    }

    // MARK: What to pick up

    /// Remembers the registered target holding the focus; focus moving into a popover (a menu)
    /// keeps the last one.
    func focusChanged(in window: TargetID) {
        guard let focus = focusWidget(in: window) else { return }
        lastFocus[window] = registeredTarget(containing: focus, in: window)
    }

    /// The window's focus widget, or nil when it has none or it sits in a popover.
    private func focusWidget(in window: TargetID) -> UnsafeMutablePointer<GtkWidget>? {
        guard let windowWidget = host.widget(for: window),
            let focus = gtk_window_get_focus(dd_window(UnsafeMutableRawPointer(windowWidget))),
            let native = gtk_widget_get_native(focus),
            UnsafeMutableRawPointer(native) == UnsafeMutableRawPointer(windowWidget)
        else { return nil }
        return focus
    }

    /// What the keyboard picks up in `window`, and the model-backed container it comes from
    /// when it is a container's selection.
    private func itemsToPickUp(in window: TargetID) -> (items: [TargetID], container: TargetID?) {
        let focused = focusWidget(in: window).flatMap { registeredTarget(containing: $0, in: window) }
        guard let id = focused ?? lastFocus[window], host.registered[id] != nil,
            let target = host.engine.registry.target(id)
        else { return ([], nil) }
        if target.isSource {
            pickingUp = true
            defer { pickingUp = false }
            let items = host.delegate(of: id)?.dragHost(host, itemsForDragStartingAt: id) ?? [id]
            return (items.isEmpty ? [id] : items, nil)
        }
        if let owner = host.delegate(of: id) {
            return (owner.dragHost(host, selectedItemsIn: id), target.modelItems != nil ? id : nil)
        }
        return ([], nil)
    }

    /// The nearest registered target at or above `widget` in `window` (not the window itself).
    private func registeredTarget(containing widget: UnsafeMutablePointer<GtkWidget>, in window: TargetID)
        -> TargetID?
    {
        // Several targets can share a widget (a text view and its selection): the drag source
        // among them is what the keyboard picks up.
        var byWidget: [UnsafeMutableRawPointer: TargetID] = [:]
        for (id, entry) in host.registered where entry.window == window && id != window {
            if let other = byWidget[entry.widget.raw], host.engine.registry.target(other)?.isSource == true { continue }
            byWidget[entry.widget.raw] = id
        }
        var current: UnsafeMutablePointer<GtkWidget>? = widget
        while let w = current {
            if let id = byWidget[UnsafeMutableRawPointer(w)] { return id }
            current = gtk_widget_get_parent(w)
        }
        return nil
    }
}

/// Keyboard dragging's public face on the host.
extension GtkDragHost {
    /// The pick-up shortcut in GTK's accelerator syntax.
    public nonisolated static let pickUpAccelerator = "<Control><Shift>d"

    /// Picks up what has the keyboard focus in `window` for a keyboard drag: the focused drag
    /// source with the items its delegate drags with it (the selection, M1), or the selection of
    /// the focused container. Announces the pick-up, or why nothing was picked up.
    @discardableResult
    public func beginKeyboardDrag(in window: TargetID, operation: KeyboardDragOperation = .automatic) -> Bool {
        keyboard.begin(in: window, operation: operation)
    }

    /// Picks up `items` (registered drag sources, in order) for a keyboard drag: what an app's
    /// own menu command does with its selection ("Move To…" in a list's edit menu). Announces
    /// the pick-up, or why nothing was picked up. Items that are not registered (rows scrolled
    /// out of a virtualized list) belong to `container`, a model-backed container
    /// (`DragTarget/modelItems`); without it, that of the first registered item.
    @discardableResult
    public func beginKeyboardDrag(
        items: [TargetID], operation: KeyboardDragOperation = .automatic, from container: TargetID? = nil
    ) -> Bool {
        keyboard.begin(items: items, operation: operation, from: container)
    }

    /// True while a delegate's ``GtkDragHostDelegate/dragHost(_:itemsForDragStartingAt:)`` is
    /// asked what the keyboard picks up (no pointer press came first): a text view takes its
    /// current selection as the dragged text then.
    public var isPickingUpByKeyboard: Bool { keyboard.pickingUp }

    /// Sends a key to the running keyboard drag; returns whether it was used.
    @discardableResult
    public func keyboardDragKey(_ key: DragKey) -> Bool { keyboard.key(key) }

    /// A menu model with "Move To…", "Copy To…" and "Pick Up" (with its shortcut) bound to the
    /// `dd` actions every host window has. The caller owns the returned `GMenuModel`.
    public static func makeDragMenu() -> UnsafeMutablePointer<GMenuModel>? {
        guard let menu = g_menu_new() else { return nil }
        let entries = [
            ("Move To\u{2026}", "dd.move-to", nil), ("Copy To\u{2026}", "dd.copy-to", nil),
            ("Pick Up", "dd.pick-up", pickUpAccelerator),
        ]
        for (label, action, accel) in entries {
            guard let item = g_menu_item_new(Localization.command(label), action) else { continue }
            if let accel { g_menu_item_set_attribute_value(item, "accel", g_variant_new_string(accel)) }
            g_menu_append_item(menu, item)
            g_object_unref(UnsafeMutableRawPointer(item))
        }
        return UnsafeMutableRawPointer(menu).assumingMemoryBound(to: GMenuModel.self)
    }
}

/// Keyboard drop points from a container's model, through the container's owner (C4).
extension GtkDragHost {
    public func dragEngine(
        _ engine: DragEngine, keyboardDropPointIn container: TargetID, after item: TargetID?, forward: Bool
    ) -> TargetID? {
        delegate(of: container)?.dragHost(self, keyboardDropPointIn: container, after: item, forward: forward)
    }

    public func dragEngine(_ engine: DragEngine, reveal item: TargetID, in container: TargetID) {
        diagnose("keyboard reveal \(item) in \(container)")
        delegate(of: container)?.dragHost(self, reveal: item, in: container)
    }
}
