import CGtk4

/// The CSS behind the drag feedback. Apps can restyle the classes with their own providers.
///
/// - `dd-drop-highlight`: the one destination that would take the drop (F4, F5, F6).
/// - `dd-insert-before` / `dd-insert-after`: rows making room where the drop lands (F8).
/// - `dd-drag-image`, `dd-flocked`, `dd-badge`, `dd-forbidden`, `dd-count`: the drag image
///   (F2, M3, S3).
/// - `dd-spring-flash`: a spring-loaded control about to open (SP1).
/// - `dd-flock`, `dd-flock-card`: several dragged items stacked under the pointer (M3).
/// - `dd-placeholder`: a row standing in for dropped content that is still loading (A4).
/// - `dd-notice`: why a drop failed (F7, A6); `dd-scrim`, `dd-confirm`: the confirmation of
///   an irreversible drop (U2); `dd-evaporating`: the image of a failed drop fading out (F7).
public enum DragStyles {
    /// The drop highlight's fill, in 8-bit RGB. Tests look for it on screen, so it lies off the
    /// blend of the theme's accent blue and white (antialiased selected rows never match it).
    package static let highlightFill: (red: UInt8, green: UInt8, blue: UInt8) = (205, 232, 255)

    /// The copy badge's fill (S3).
    package static let copyBadgeFill: (red: UInt8, green: UInt8, blue: UInt8) = (46, 194, 126)
    /// The not-allowed badge's fill (S3).
    package static let forbiddenBadgeFill: (red: UInt8, green: UInt8, blue: UInt8) = (224, 27, 36)
    /// The count pill's fill (M3); apart from the badges' colours so both read side by side.
    package static let countFill: (red: UInt8, green: UInt8, blue: UInt8) = (129, 61, 156)
    /// The opaque backdrop behind a flock when the screen cannot show translucent drag images
    /// (no compositor): the stacked cards stay readable on it (M3).
    package static let flockBackdrop: (red: UInt8, green: UInt8, blue: UInt8) = (212, 204, 192)
    /// The two colours a spring-loaded control alternates between while it flashes (SP1).
    package static let springFlashFills: [(red: UInt8, green: UInt8, blue: UInt8)] = [(255, 220, 120), (255, 190, 60)]
    /// The filled part of a placeholder's progress bar (A4).
    package static let progressFill: (red: UInt8, green: UInt8, blue: UInt8) = (0, 150, 170)
    /// The background of the notice that says why a drop failed (F7, A6).
    package static let noticeFill: (red: UInt8, green: UInt8, blue: UInt8) = (40, 44, 62)
    /// The background of the confirmation card of an irreversible drop (U2).
    package static let confirmFill: (red: UInt8, green: UInt8, blue: UInt8) = (252, 243, 207)

    static func rgb(_ c: (red: UInt8, green: UInt8, blue: UInt8)) -> String { "rgb(\(c.red), \(c.green), \(c.blue))" }

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
        .dd-badge, .dd-count {
            min-width: 20px; min-height: 20px; border-radius: 10px; padding: 0 4px;
            margin: 2px; font-weight: bold; color: white;
        }
        .dd-badge { background-color: \(rgb(copyBadgeFill)); }
        .dd-badge.dd-forbidden { background-color: \(rgb(forbiddenBadgeFill)); }
        .dd-count { background-color: \(rgb(countFill)); }
        .dd-flock { background-color: transparent; }
        .dd-flock.dd-opaque { background-color: \(rgb(flockBackdrop)); }
        .dd-flock-card { background-color: white; box-shadow: 0 0 0 1px rgba(0, 0, 0, 0.35); }
        @keyframes dd-spring-flash {
            from { background-color: \(rgb(springFlashFills[0])); }
            to { background-color: \(rgb(springFlashFills[1])); }
        }
        .dd-spring-flash {
            background-image: none; background-color: \(rgb(springFlashFills[0]));
            animation: dd-spring-flash 120ms ease-in-out infinite alternate;
        }
        .dd-placeholder { background-color: rgb(246, 245, 244); }
        .dd-placeholder label { font-style: italic; color: rgb(94, 92, 100); }
        .dd-placeholder progressbar > trough { min-height: 8px; }
        .dd-placeholder progressbar > trough > progress { min-height: 8px; background-color: \(rgb(progressFill)); }
        .dd-notice {
            background-color: \(rgb(noticeFill)); color: white; border-radius: 8px; padding: 8px 16px;
            margin: 12px;
        }
        .dd-scrim { background-color: rgba(0, 0, 0, 0.25); }
        .dd-confirm {
            background-color: \(rgb(confirmFill)); border-radius: 10px; padding: 16px;
            box-shadow: 0 2px 8px rgba(0, 0, 0, 0.3);
        }
        .dd-evaporating { background-color: white; box-shadow: 0 2px 6px rgba(0, 0, 0, 0.3); }
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
