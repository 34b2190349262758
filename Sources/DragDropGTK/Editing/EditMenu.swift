import CGtk4
import DragDrop

/// One command of an edit menu: a short verb in title case (K1) and what it does.
public struct EditCommand {
    /// The title ("Cut", "Undo Move 3 Items").
    public var title: String
    /// Runs the command (the menu has closed by then).
    public var perform: @MainActor () -> Void

    /// Creates a command.
    public init(_ title: String, perform: @escaping @MainActor () -> Void) {
        self.title = title
        self.perform = perform
    }
}

/// A context menu that lists only the edit commands that apply right now (C1, K2): no Copy
/// without a selection, no Select All when everything is selected.
///
/// It opens with a secondary click, a long press on a touch screen, or Shift+F10 / Menu, and
/// replaces the widget's own context menu. The owner computes the commands each time it opens.
/// The widget's gesture controllers keep the menu alive as long as the widget lives.
///
/// ```swift
/// menu = EditMenu(attachedTo: entry, name: "To") { [weak self] in self?.editCommands() ?? [] }
/// ```
@MainActor
public final class EditMenu {
    /// Called whenever an edit menu opens (after layout), with its owner's name and its items
    /// as they read (the library's commands in the person's language, `Localization.command(_:)`),
    /// each with its frame in window coordinates when known: for logs and tests.
    public static var onOpen: (@MainActor (_ owner: String, _ items: [(title: String, frame: Rect?)]) -> Void)?

    /// The owner's name, as reported to ``onOpen``.
    public let name: String
    /// Called with the press position (widget coordinates) before the commands are computed,
    /// so a secondary click on an unselected item can select it first. Nil for keyboard opens.
    public var willOpen: (@MainActor (_ x: Double, _ y: Double) -> Void)?
    /// Where the menu points, in the owner's coordinates: the selection (or the caret) its
    /// commands act on. When it returns a rectangle, the menu is placed beside it, above when
    /// there is room and below otherwise, never over it (K6); when nil, the menu points at the
    /// press, or at the middle of the widget when the keyboard opened it.
    public var anchor: (@MainActor () -> Rect?)?
    /// Where the secondary click or long press that opened the menu happened (the owner's
    /// coordinates); nil when the keyboard opened it. "Select" selects the word there.
    public private(set) var openedAt: (x: Double, y: Double)?

    private let owner: UnsafeMutablePointer<GtkWidget>
    private let commands: @MainActor () -> [EditCommand]
    private var popover: GObjectRef?

    /// Attaches a menu to `widget` (which must outlive the menu's use); `commands` lists what
    /// applies when it opens.
    public init(
        attachedTo widget: UnsafeMutablePointer<GtkWidget>, name: String,
        commands: @escaping @MainActor () -> [EditCommand]
    ) {
        owner = widget
        self.name = name
        self.commands = commands
        attachGestures()
    }

    /// Whether the menu is open.
    public var isOpen: Bool { popover != nil }

    /// Opens the menu pointing at `x`, `y` in the owner's coordinates.
    public func popup(atX x: Double, y: Double) {
        close()
        let items = commands()
        guard !items.isEmpty, let pop = gtk_popover_new() else { return }
        let popover = GObjectRef(newWidget: pop)
        let raw = gtkPopover(popover.raw)
        gtk_widget_set_parent(popover.widget, owner)
        if let target = anchor?() {
            // Beside the selection (K6): above it, or below when there is no room above (GTK flips
            // a popover that does not fit). No arrow: without a compositor its corners paint black.
            gtk_popover_set_has_arrow(raw, 0)
            gtk_popover_set_position(raw, GTK_POS_TOP)
            var rect = GdkRectangle(
                x: Int32(target.minX.rounded(.down)), y: Int32(target.minY.rounded(.down)),
                width: Int32(max(1, target.width.rounded(.up))), height: Int32(max(1, target.height.rounded(.up))))
            gtk_popover_set_pointing_to(raw, &rect)
        } else {
            gtk_popover_set_has_arrow(raw, 0)
            gtk_popover_set_position(raw, GTK_POS_BOTTOM)
            var rect = GdkRectangle(x: Int32(x.rounded()), y: Int32(y.rounded()), width: 1, height: 1)
            gtk_popover_set_pointing_to(raw, &rect)
        }
        let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)
        var buttons: [(String, UnsafeMutablePointer<GtkWidget>)] = []
        for command in items {
            // The library's commands in the person's language (L1).
            let label = Localization.command(command.title)
            guard let button = gtk_button_new_with_label(label) else { continue }
            gtk_button_set_has_frame(dd_button(UnsafeMutableRawPointer(button)), 0)
            if let label = gtk_button_get_child(dd_button(UnsafeMutableRawPointer(button))) {
                gtk_label_set_xalign(dd_label(UnsafeMutableRawPointer(label)), 0)
            }
            gtk_widget_add_css_class(button, "dd-menu-item")
            let perform = command.perform
            GSignal.connect(UnsafeMutableRawPointer(button), "clicked") { [weak self] in
                self?.close()
                perform()
            }
            gtk_box_append(dd_box(UnsafeMutableRawPointer(box)), button)
            buttons.append((label, button))
        }
        gtk_popover_set_child(raw, box)
        let popoverBits = PointerBits(popover.raw)
        GSignal.connect(popover.raw, "closed") { [weak self] in
            guard let self, self.popover?.raw == popoverBits.pointer else { return }
            self.close()
        }
        self.popover = popover
        gtk_popover_popup(raw)
        GLibSource.once(afterMilliseconds: 60) { [weak self] in
            guard let self, self.popover?.raw == popoverBits.pointer else { return }
            EditMenu.onOpen?(self.name, buttons.map { ($0.0, self.frameInWindow($0.1)) })
        }
    }

    /// Closes the menu if it is open.
    public func close() {
        guard let popover else { return }
        self.popover = nil
        gtk_popover_popdown(gtkPopover(popover.raw))
        gtk_widget_unparent(popover.widget)
    }

    /// Secondary click and long press (touch) open the menu where they happened; Shift+F10 and
    /// Menu open it in the middle of the widget. Each replaces the widget's own menu.
    private func attachGestures() {
        if let click = gtk_gesture_click_new() {
            gtk_gesture_single_set_button(
                dd_gesture_single(UnsafeMutableRawPointer(click)), guint(GDK_BUTTON_SECONDARY))
            gtk_event_controller_set_propagation_phase(click, GTK_PHASE_CAPTURE)
            let bits = PointerBits(UnsafeMutableRawPointer(click))
            GSignal.connect(
                UnsafeMutableRawPointer(click), "pressed",
                click: { [self] _, x, y in
                    if let gesture = bits.pointer {
                        gtk_gesture_set_state(dd_gesture(gesture), GTK_EVENT_SEQUENCE_CLAIMED)
                    }
                    open(atX: x, y: y)
                })
            gtk_widget_add_controller(owner, click)
        }
        if let press = gtk_gesture_long_press_new() {
            gtk_gesture_single_set_touch_only(dd_gesture_single(UnsafeMutableRawPointer(press)), 1)
            GSignal.connect(UnsafeMutableRawPointer(press), "pressed", point: { [self] x, y in open(atX: x, y: y) })
            gtk_widget_add_controller(owner, press)
        }
        if let keys = gtk_event_controller_key_new() {
            gtk_event_controller_set_propagation_phase(keys, GTK_PHASE_CAPTURE)
            GSignal.connect(
                UnsafeMutableRawPointer(keys), "key-pressed",
                key: { [self] keyval, _, state in
                    let shiftF10 = keyval == UInt32(GDK_KEY_F10) && state & GDK_SHIFT_MASK.rawValue != 0
                    guard shiftF10 || keyval == UInt32(GDK_KEY_Menu) else { return false }
                    openedAt = nil
                    popup(atX: Double(gtk_widget_get_width(owner)) / 2, y: Double(gtk_widget_get_height(owner)) / 2)
                    return true
                })
            gtk_widget_add_controller(owner, keys)
        }
    }

    private func open(atX x: Double, y: Double) {
        openedAt = (x, y)
        willOpen?(x, y)
        popup(atX: x, y: y)
    }

    /// A menu item's frame relative to the owner's window.
    private func frameInWindow(_ item: UnsafeMutablePointer<GtkWidget>) -> Rect? {
        guard let popover else { return nil }
        return PopoverGeometry.frameInWindow(item, popover: popover.raw, owner: owner)
    }
}

extension EditMenu {
    /// The Undo and Redo commands that apply now, titled from the undo history of `target`'s
    /// document ("Undo Move 3 Items") (U1, K2).
    public static func undoCommands(_ host: GtkDragHost, for target: TargetID? = nil) -> [EditCommand] {
        var result: [EditCommand] = []
        let stack = host.engine.undoStack(for: target)
        if stack.canUndo {
            result.append(EditCommand(stack.undoMenuItemTitle) { [weak host] in host?.undo(in: target) })
        }
        if stack.canRedo {
            result.append(EditCommand(stack.redoMenuItemTitle) { [weak host] in host?.redo(in: target) })
        }
        return result
    }
}

private func gtkPopover(_ raw: UnsafeMutableRawPointer) -> UnsafeMutablePointer<GtkPopover> {
    gtkCast(raw, to: GtkPopover.self)
}
