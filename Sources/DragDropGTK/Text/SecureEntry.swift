import CGtk4
import DragDrop

/// A secure text field for a password or another secret (K11): it hides what is typed (a peek
/// button shows it on request), and never offers its text: no Copy or Cut in its edit menu,
/// Ctrl+C and Ctrl+X do nothing, and its text never drags out. Its placeholder is its label
/// (no separate label needed); the accessible name says what it asks for (K12).
///
/// Its edit menu (secondary click, Shift+F10, Menu) lists Paste when the clipboard holds text,
/// Delete with a selection, and Select All unless everything is selected (K6).
///
/// ```swift
/// let password = SecureEntry(name: "Password", placeholder: "Password")
/// password.onChange = { signIn.enabled = !password.isEmpty }
/// gtk_box_append(form, password.widget)
/// ```
@MainActor
public final class SecureEntry {
    /// The accessible name.
    public let name: String
    /// Called after the text changed.
    public var onChange: (@MainActor () -> Void)?

    private let entry: GObjectRef
    private var menu: EditMenu?

    /// The `GtkPasswordEntry`, to put in a window.
    public var widget: UnsafeMutablePointer<GtkWidget> { entry.widget }
    /// The secret typed so far (for the app; never shown, copied or dragged).
    public var text: String { gtk_editable_get_text(editable).map { String(cString: $0) } ?? "" }
    /// Whether nothing is typed.
    public var isEmpty: Bool { text.isEmpty }

    private var editable: OpaquePointer { dd_editable(entry.raw) }

    /// Creates a secure field named `name` showing `placeholder` while empty.
    public init(name: String, placeholder: String) {
        self.name = name
        entry = GObjectRef(newWidget: gtk_password_entry_new())
        dd_object_set_string(entry.raw, "placeholder-text", placeholder)
        gtk_password_entry_set_show_peek_icon(OpaquePointer(entry.raw), 1)
        dd_accessible_set_label(dd_accessible(entry.raw), name)
        // GTK's own text drops would paste dragged text; the field takes text only by typing
        // and Paste.
        GtkWidgetSupport.removeBuiltInDropTargets(from: entry.widget)
        GSignal.connect(entry.raw, "changed") { [weak self] in self?.onChange?() }
        if let text = GtkWidgetSupport.descendant(of: entry.widget, type: gtk_text_get_type()) {
            // Belt and braces: GTK already refuses to copy hidden text; make sure nothing does.
            for signal in ["copy-clipboard", "cut-clipboard"] {
                let bits = PointerBits(UnsafeMutableRawPointer(text))
                GSignal.connect(UnsafeMutableRawPointer(text), signal) {
                    guard let text = bits.pointer else { return }
                    g_signal_stop_emission_by_name(text, signal)
                }
            }
        }
        menu = EditMenu(attachedTo: entry.widget, name: name) { [weak self] in self?.editCommands() ?? [] }
    }

    /// The commands that apply now: Paste, Delete and Select All as they apply; never Cut or
    /// Copy (K11).
    public func editCommands() -> [EditCommand] {
        var commands: [EditCommand] = []
        var start: Int32 = 0
        var end: Int32 = 0
        let selected = gtk_editable_get_selection_bounds(editable, &start, &end) != 0 && start != end
        if EditClipboard.hasText(for: entry.widget) {
            commands.append(
                EditCommand("Paste") { [weak self] in
                    guard let self else { return }
                    EditClipboard.readText(for: self.entry.widget) { [weak self] pasted in
                        guard let self, let pasted else { return }
                        let line = String(pasted.filter { !$0.isNewline })
                        var a: Int32 = 0
                        var b: Int32 = 0
                        if gtk_editable_get_selection_bounds(self.editable, &a, &b) != 0 {
                            gtk_editable_delete_text(self.editable, min(a, b), max(a, b))
                        }
                        var position = gtk_editable_get_position(self.editable)
                        gtk_editable_insert_text(self.editable, line, -1, &position)
                        gtk_editable_set_position(self.editable, position)
                    }
                })
        }
        if selected {
            commands.append(
                EditCommand("Delete") { [weak self] in
                    guard let self else { return }
                    gtk_editable_delete_selection(self.editable)
                })
        }
        let count = Int32(text.unicodeScalars.count)
        if count > 0, !(selected && min(start, end) == 0 && max(start, end) == count) {
            commands.append(
                EditCommand("Select All") { [weak self] in
                    guard let self else { return }
                    gtk_editable_select_region(self.editable, 0, -1)
                })
        }
        return commands
    }
}
