import CGtk4

/// The CSS behind the drag feedback. Apps can restyle the classes with their own providers.
///
/// - `dd-drop-highlight`: the one destination that would take the drop (F4, F5, F6).
/// - `dd-insert-before` / `dd-insert-after`: rows making room where the drop lands (F8).
/// - `dd-drag-image`, `dd-flocked`, `dd-badge`, `dd-forbidden`, `dd-count`: the drag image
///   (F2, M3, S3).
/// - `dd-spring-flash`: a spring-loaded control about to open (SP1).
public enum DragStyles {
    /// The drop highlight's fill, in 8-bit RGB. Tests look for it on screen, so it lies off the
    /// blend of the theme's accent blue and white (antialiased selected rows never match it).
    public static let highlightFill: (red: UInt8, green: UInt8, blue: UInt8) = (205, 232, 255)

    /// The style sheet.
    public static let css = """
        .dd-drag-root:drop(active) { box-shadow: none; outline: none; }
        .dd-drop-highlight {
            background-color: rgb(\(highlightFill.red), \(highlightFill.green), \(highlightFill.blue));
            box-shadow: inset 0 0 0 2px rgb(53, 132, 228);
        }
        .dd-row { transition: margin-top 120ms ease-out, margin-bottom 120ms ease-out; }
        .dd-insert-before { margin-top: 28px; }
        .dd-insert-after { margin-bottom: 28px; }
        .dd-drag-image { background-color: white; border-radius: 6px; box-shadow: 0 2px 6px rgba(0, 0, 0, 0.3); }
        .dd-drag-image.dd-opaque { border-radius: 0; }
        .dd-drag-image.dd-flocked {
            box-shadow: 4px 4px 0 0 white, 4px 4px 0 1px rgba(0, 0, 0, 0.25), 8px 8px 0 0 white,
                8px 8px 0 1px rgba(0, 0, 0, 0.25);
        }
        .dd-badge, .dd-count {
            min-width: 20px; min-height: 20px; border-radius: 10px; padding: 0 4px;
            margin: 2px; font-weight: bold; color: white;
        }
        .dd-badge { background-color: rgb(46, 194, 126); }
        .dd-badge.dd-forbidden { background-color: rgb(224, 27, 36); }
        .dd-count { background-color: rgb(224, 27, 36); }
        .dd-spring-flash { background-color: rgb(255, 220, 120); }
        """

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
