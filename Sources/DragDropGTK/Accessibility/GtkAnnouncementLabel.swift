import CGtk4

/// A live region for the engine's announcements (C4): a label with the accessible role
/// `status` whose text, accessible label and accessible description are replaced by every
/// announcement.
///
/// GTK 4.8 has no call to make a screen reader speak. Assistive technology reaches the
/// sentences through this label instead: over AT-SPI it is a *status bar* whose name and
/// description change with each sentence (GTK emits an AT-SPI `PropertyChange` event for
/// `accessible-name` and `accessible-description` each time), which a screen reader can follow
/// or read back. Sighted keyboard users read it too, so it is meant to be shown, as a status
/// line.
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

    /// Replaces the text, the accessible label and the accessible description with `sentence`.
    /// A sentence equal to the last one is still a change for assistive technology.
    public func show(_ sentence: String) {
        let accessible = dd_accessible(label.raw)
        if sentence == text {
            dd_accessible_set_string(accessible, GTK_ACCESSIBLE_PROPERTY_LABEL, "")
            dd_accessible_set_string(accessible, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, "")
        }
        text = sentence
        gtk_label_set_text(dd_label(label.raw), sentence)
        dd_accessible_set_string(accessible, GTK_ACCESSIBLE_PROPERTY_LABEL, sentence)
        dd_accessible_set_string(accessible, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, sentence)
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
public enum AccessibleProperties {
    /// The accessible label GTK holds for `widget`, or nil when none is set.
    public static func label(of widget: UnsafeMutablePointer<GtkWidget>) -> String? {
        string(GTK_ACCESSIBLE_PROPERTY_LABEL, of: widget)
    }

    /// The accessible description GTK holds for `widget`, or nil when none is set.
    public static func description(of widget: UnsafeMutablePointer<GtkWidget>) -> String? {
        string(GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, of: widget)
    }

    /// The keyboard shortcuts GTK holds for `widget`, or nil when none are set.
    public static func keyShortcuts(of widget: UnsafeMutablePointer<GtkWidget>) -> String? {
        string(GTK_ACCESSIBLE_PROPERTY_KEY_SHORTCUTS, of: widget)
    }

    /// The widget's accessible role, in GTK's spelling ("status", "list", "label"...).
    public static func role(of widget: UnsafeMutablePointer<GtkWidget>) -> String {
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
