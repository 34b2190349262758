import CGtk4

/// The CSS of keyboard dragging and of the announcement label.
///
/// - `dd-keyboard-focus`: the drop point a keyboard drag would drop on (C4), a thick outline
///   in `focusOutline`.
/// - `dd-insert-before` / `dd-insert-after` inside the focused drop point: a line in the same
///   colour where a keyboard drop lands (the room rows make is invisible at a list's end).
/// - `dd-announcement`: a ``GtkAnnouncementLabel`` shown as a status line.
/// - `dd-keyboard-stand-in`: the transparent window of `KeyboardAfterDrag`.
public enum KeyboardStyles {
    /// The class on the focused drop point.
    public static let focusClass = "dd-keyboard-focus"

    /// The class of the transparent window that brings the keyboard back after a drag on
    /// Wayland compositors that keep it (`KeyboardAfterDrag`).
    static let standInClass = "dd-keyboard-stand-in"

    /// The focus outline's colour, in 8-bit RGB. Tests look for it on screen: an orange that
    /// the default theme does not use.
    package static let focusOutline: (red: UInt8, green: UInt8, blue: UInt8) = (230, 97, 0)

    /// The style sheet.
    public static let css = """
        .dd-keyboard-focus {
            outline: 4px solid \(rgb(focusOutline));
            outline-offset: 2px;
        }
        .dd-keyboard-focus > .dd-insert-before { border-top: 4px solid \(rgb(focusOutline)); }
        .dd-keyboard-focus > .dd-insert-after { border-bottom: 4px solid \(rgb(focusOutline)); }
        .dd-announcement { padding: 4px 16px 8px 16px; min-height: 20px; }
        window.\(standInClass) { background: rgba(255, 255, 255, 0.01); box-shadow: none; border: none; }
        """

    /// ``focusOutline`` as a CSS colour.
    static var outlineCSS: String { rgb(focusOutline) }

    private static func rgb(_ c: (red: UInt8, green: UInt8, blue: UInt8)) -> String {
        "rgb(\(c.red), \(c.green), \(c.blue))"
    }

    /// Adds the style sheet to `display` at application priority.
    @MainActor
    static func install(on display: OpaquePointer) {
        guard let provider = gtk_css_provider_new() else { return }
        gtk_css_provider_load_from_data(provider, css, -1)
        gtk_style_context_add_provider_for_display(
            display, dd_style_provider(UnsafeMutableRawPointer(provider)),
            guint(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
        g_object_unref(UnsafeMutableRawPointer(provider))
    }
}
