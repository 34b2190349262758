import CGtk4
import DragDrop

/// A detail button: in a row, it opens more about that row's item while a click elsewhere on the
/// row selects it (K4). ``DetailRow`` puts one at the end of each row. Shows an icon; its
/// accessible name says whose details it opens ("Details for Home", K12).
@MainActor
public final class DetailButton {
    /// The item whose details the button opens.
    public let itemName: String
    /// Called on a click, Space or Return.
    public var onActivate: (@MainActor () -> Void)?

    private let button: GObjectRef

    /// The `GtkButton`.
    public var widget: UnsafeMutablePointer<GtkWidget> { button.widget }

    /// Creates a detail button for the item named `itemName`.
    public init(itemName: String) {
        self.itemName = itemName
        button = GObjectRef(newWidget: gtk_button_new_from_icon_name("view-more-horizontal-symbolic"))
        gtk_button_set_has_frame(dd_button(button.raw), 0)
        gtk_widget_add_css_class(button.widget, "circular")
        gtk_widget_add_css_class(button.widget, "dd-detail-button")
        gtk_widget_set_valign(button.widget, GTK_ALIGN_CENTER)
        gtk_widget_set_tooltip_text(button.widget, WidgetText.showDetails)
        dd_accessible_set_label(dd_accessible(button.raw), WidgetText.details(for: itemName))
        ControlStyles.install(for: button.widget)
        GSignal.connect(button.raw, "clicked") { [weak self] in self?.onActivate?() }
    }
}

/// An info button: reveals details about the app in a popover (K5). An icon with the
/// accessible name "About <app>" (K12); the details are selectable text people can copy (K3).
@MainActor
public final class InfoButton {
    /// The app (or screen) the details are about.
    public let title: String
    /// The lines shown under the title.
    public let details: [String]
    /// Called when the details are shown.
    public var onShow: (@MainActor () -> Void)?

    private let button: GObjectRef
    private let popover: GObjectRef

    /// The `GtkMenuButton`.
    public var widget: UnsafeMutablePointer<GtkWidget> { button.widget }
    /// Whether the details are on screen.
    public var isShowing: Bool { gtk_widget_get_visible(popover.widget) != 0 }

    /// Creates an info button about `title` showing `details`.
    public init(about title: String, details: [String]) {
        self.title = title
        self.details = details
        button = GObjectRef(newWidget: gtk_menu_button_new())
        popover = GObjectRef(newWidget: gtk_popover_new())
        let menu = dd_menu_button(button.raw)
        gtk_menu_button_set_icon_name(menu, "help-about-symbolic")
        gtk_menu_button_set_has_frame(menu, 0)
        gtk_widget_add_css_class(button.widget, "dd-info-button")
        gtk_widget_set_tooltip_text(button.widget, WidgetText.about(title))
        dd_accessible_set_label(dd_accessible(button.raw), WidgetText.about(title))
        let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 6)!
        for margin in [gtk_widget_set_margin_top, gtk_widget_set_margin_bottom, gtk_widget_set_margin_start] {
            margin(box, 10)
        }
        gtk_widget_set_margin_end(box, 10)
        for (index, line) in ([title] + details).enumerated() {
            let label = gtk_label_new(line)!
            gtk_label_set_xalign(dd_label(UnsafeMutableRawPointer(label)), 0)
            gtk_label_set_selectable(dd_label(UnsafeMutableRawPointer(label)), 1)
            gtk_label_set_wrap(dd_label(UnsafeMutableRawPointer(label)), 1)
            gtk_label_set_max_width_chars(dd_label(UnsafeMutableRawPointer(label)), 40)
            if index == 0 { gtk_widget_add_css_class(label, "heading") }
            gtk_box_append(dd_box(UnsafeMutableRawPointer(box)), label)
        }
        gtk_popover_set_child(dd_popover(popover.raw), box)
        gtk_menu_button_set_popover(menu, popover.widget)
        ControlStyles.install(for: button.widget)
        GSignal.connect(popover.raw, "show") { [weak self] in self?.onShow?() }
    }
}

/// A contact-add button beside a text field (K5): it opens a list of contacts, and picking one
/// calls ``onPick`` with it. It never replaces the keyboard: the field beside it still takes typed
/// text (and dropped contacts, see ``RecipientField``). An icon named "Add Contact" (K12); the
/// list is keyboard operable (arrows, Return) and closes with Escape.
@MainActor
public final class ContactAddButton {
    /// A contact to pick: its name and its card.
    public struct Contact: Sendable, Hashable {
        /// The name shown in the list.
        public var name: String
        /// The whole card, vCard text (what a dragged contact carries).
        public var vCard: String
        /// Creates a contact.
        public init(name: String, vCard: String) {
            self.name = name
            self.vCard = vCard
        }
    }

    /// Called with each opened list's contact names and their frames in the window (nil when
    /// unknown), for logs and tests.
    public static var onOpen: (@MainActor (_ field: String, _ rows: [(name: String, frame: Rect?)]) -> Void)?

    /// The field the button adds to.
    public let fieldName: String
    /// The contacts offered, read each time the list opens.
    public var contacts: @MainActor () -> [Contact]
    /// Called with the contact picked.
    public var onPick: (@MainActor (Contact) -> Void)?

    private let button: GObjectRef
    private let popover: GObjectRef
    private let list: GObjectRef
    private var shown: [(contact: Contact, row: GObjectRef)] = []

    /// The `GtkMenuButton`.
    public var widget: UnsafeMutablePointer<GtkWidget> { button.widget }
    /// Whether the list is open.
    public var isOpen: Bool { gtk_widget_get_visible(popover.widget) != 0 }

    /// Creates a button adding to the field named `fieldName`, offering `contacts`.
    public init(fieldName: String, contacts: @escaping @MainActor () -> [Contact]) {
        self.fieldName = fieldName
        self.contacts = contacts
        button = GObjectRef(newWidget: gtk_menu_button_new())
        popover = GObjectRef(newWidget: gtk_popover_new())
        list = GObjectRef(newWidget: gtk_list_box_new())
        let menu = dd_menu_button(button.raw)
        gtk_menu_button_set_icon_name(menu, "contact-new-symbolic")
        gtk_widget_add_css_class(button.widget, "dd-contact-add-button")
        gtk_widget_set_tooltip_text(button.widget, WidgetText.addContact(to: fieldName))
        dd_accessible_set_label(dd_accessible(button.raw), WidgetText.addContact)
        gtk_list_box_set_selection_mode(dd_list_box(list.raw), GTK_SELECTION_NONE)
        gtk_list_box_set_activate_on_single_click(dd_list_box(list.raw), 1)
        dd_accessible_set_label(dd_accessible(list.raw), WidgetText.contacts)
        let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 6)!
        let heading = gtk_label_new(WidgetText.chooseContact)!
        gtk_label_set_xalign(dd_label(UnsafeMutableRawPointer(heading)), 0)
        gtk_label_set_selectable(dd_label(UnsafeMutableRawPointer(heading)), 1)
        gtk_widget_set_can_focus(heading, 0)
        gtk_widget_add_css_class(heading, "heading")
        gtk_box_append(dd_box(UnsafeMutableRawPointer(box)), heading)
        gtk_box_append(dd_box(UnsafeMutableRawPointer(box)), list.widget)
        gtk_popover_set_child(dd_popover(popover.raw), box)
        gtk_menu_button_set_popover(menu, popover.widget)
        ControlStyles.install(for: button.widget)
        GSignal.connect(popover.raw, "show") { [weak self] in self?.fill() }
        GSignal.connect(list.raw, "row-activated", pointer: { [weak self] row in self?.activated(row) })
    }

    /// Picks `contact` as a choice in the list would.
    public func pick(_ contact: Contact) {
        gtk_popover_popdown(dd_popover(popover.raw))
        onPick?(contact)
    }

    private func fill() {
        for (_, row) in shown { gtk_list_box_remove(dd_list_box(list.raw), row.widget) }
        shown = contacts().map { contact in
            let row = GObjectRef(newWidget: gtk_list_box_row_new())
            let label = gtk_label_new(contact.name)!
            gtk_label_set_xalign(dd_label(UnsafeMutableRawPointer(label)), 0)
            for margin in [gtk_widget_set_margin_top, gtk_widget_set_margin_bottom] { margin(label, 6) }
            gtk_widget_set_margin_start(label, 8)
            gtk_widget_set_margin_end(label, 8)
            gtk_list_box_row_set_child(dd_list_box_row(row.raw), label)
            dd_accessible_set_label(dd_accessible(row.raw), contact.name)
            gtk_list_box_append(dd_list_box(list.raw), row.widget)
            return (contact, row)
        }
        if let first = shown.first { gtk_widget_grab_focus(first.row.widget) }
        let rows = shown
        let popoverBits = PointerBits(popover.raw)
        GLibSource.once(afterMilliseconds: 60) { [weak self] in
            guard let self, self.isOpen, let popover = popoverBits.pointer else { return }
            let owner = self.button.widget
            Self.onOpen?(
                self.fieldName,
                rows.map {
                    ($0.contact.name, PopoverGeometry.frameInWindow($0.row.widget, popover: popover, owner: owner))
                })
        }
    }

    private func activated(_ row: UnsafeMutableRawPointer?) {
        guard let row, let picked = shown.first(where: { $0.row.raw == row })?.contact else { return }
        pick(picked)
    }
}

/// Where a widget inside a popover is, in its owner's window: the popup surface's position, the
/// popover's place in its surface and the widget's place in the popover.
@MainActor
enum PopoverGeometry {
    static func frameInWindow(
        _ item: UnsafeMutablePointer<GtkWidget>, popover: UnsafeMutableRawPointer,
        owner: UnsafeMutablePointer<GtkWidget>
    ) -> Rect? {
        let popoverWidget = popover.assumingMemoryBound(to: GtkWidget.self)
        guard let root = gtk_widget_get_root(owner) else { return nil }
        let window = UnsafeMutableRawPointer(root).assumingMemoryBound(to: GtkWidget.self)
        var bounds = graphene_rect_t()
        guard gtk_widget_compute_bounds(item, popoverWidget, &bounds) != 0,
            let popoverNative = gtk_widget_get_native(popoverWidget),
            let surface = gtk_native_get_surface(popoverNative),
            let windowNative = gtk_widget_get_native(window)
        else { return nil }
        var popX = 0.0, popY = 0.0, winX = 0.0, winY = 0.0
        gtk_native_get_surface_transform(popoverNative, &popX, &popY)
        gtk_native_get_surface_transform(windowNative, &winX, &winY)
        let surfaceX = Double(gdk_popup_get_position_x(surface))
        let surfaceY = Double(gdk_popup_get_position_y(surface))
        return Rect(
            x: surfaceX + popX - winX + Double(bounds.origin.x), y: surfaceY + popY - winY + Double(bounds.origin.y),
            width: Double(bounds.size.width), height: Double(bounds.size.height))
    }
}
