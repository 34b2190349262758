import CGtk4

/// A status line showing the engine's announcements (C4): a label with the accessible role
/// `status` whose text and accessible label are replaced by every announcement.
///
/// It is for the eyes: sighted keyboard users read what a keyboard drag would do there. Screen
/// readers hear the same sentences another way, because GTK 4.8 sends nothing when a label's
/// text changes and a screen reader does not speak changes of a widget without the focus: the
/// host makes each sentence the description of the focused widget for a while
/// (`FocusDescriptionAnnouncer`). The label's accessible label still follows the text, so a
/// screen reader's "read the status bar" command finds the last sentence.
///
/// ```swift
/// let status = GtkAnnouncementLabel()
/// gtk_box_append(box, status.widget)
/// host.addAnnouncementLabel(status)
/// ```
@MainActor
public final class GtkAnnouncementLabel {
    /// The sentence shown now (empty before the first announcement).
    public private(set) var text = ""
    /// Called after the text changed, with the new text.
    public var onChange: (@MainActor (String) -> Void)?

    private let label: GObjectRef

    /// The label widget, to put in a window.
    public var widget: UnsafeMutablePointer<GtkWidget> { label.widget }

    /// Creates an empty status label with the style class `dd-announcement`.
    public init() {
        label = GObjectRef(newWidget: dd_label_new_with_role("", GTK_ACCESSIBLE_ROLE_STATUS))
        gtk_label_set_xalign(dd_label(label.raw), 0)
        gtk_label_set_wrap(dd_label(label.raw), 1)
        gtk_widget_add_css_class(label.widget, "dd-announcement")
    }

    /// Replaces the text and the accessible label with `sentence`.
    public func show(_ sentence: String) {
        text = sentence
        gtk_label_set_text(dd_label(label.raw), sentence)
        dd_accessible_set_string(dd_accessible(label.raw), GTK_ACCESSIBLE_PROPERTY_LABEL, sentence)
        onChange?(sentence)
    }
}

/// A weak reference to an announcement label (the app owns its labels).
struct WeakAnnouncementLabel {
    weak var label: GtkAnnouncementLabel?
}

/// Reads accessible properties back from GTK (GTK 4.8 has no public getter; this goes through
/// GTK's test API, which compares against the value GTK holds). For tests and diagnostics.
@MainActor
package enum AccessibleProperties {
    /// The accessible label GTK holds for `widget`, or nil when none is set.
    package static func label(of widget: UnsafeMutablePointer<GtkWidget>) -> String? {
        string(GTK_ACCESSIBLE_PROPERTY_LABEL, of: widget)
    }

    /// The accessible description GTK holds for `widget`, or nil when none is set.
    package static func description(of widget: UnsafeMutablePointer<GtkWidget>) -> String? {
        string(GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, of: widget)
    }

    /// The keyboard shortcuts GTK holds for `widget`, or nil when none are set.
    package static func keyShortcuts(of widget: UnsafeMutablePointer<GtkWidget>) -> String? {
        string(GTK_ACCESSIBLE_PROPERTY_KEY_SHORTCUTS, of: widget)
    }

    /// The widget's accessible role, in GTK's spelling ("status", "list", "label"...).
    package static func role(of widget: UnsafeMutablePointer<GtkWidget>) -> String {
        let role = gtk_accessible_get_accessible_role(dd_accessible(UnsafeMutableRawPointer(widget)))
        guard let enumClass = g_type_class_ref(gtk_accessible_role_get_type()) else { return "\(role.rawValue)" }
        defer { g_type_class_unref(enumClass) }
        let value = g_enum_get_value(enumClass.assumingMemoryBound(to: GEnumClass.self), Int32(role.rawValue))
        return value?.pointee.value_nick.map { String(cString: $0) } ?? "\(role.rawValue)"
    }

    private static func string(_ property: GtkAccessibleProperty, of widget: UnsafeMutablePointer<GtkWidget>)
        -> String?
    {
        guard let value = dd_accessible_copy_string(dd_accessible(UnsafeMutableRawPointer(widget)), property) else {
            return nil
        }
        defer { g_free(value) }
        return String(cString: value)
    }
}
