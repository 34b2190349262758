import CGtk4

/// Why a standard control refused to be built the way it was asked: each case is a rule of the
/// controls page the control keeps (K7, K9, K10). Nothing is changed when one is thrown.
public enum ControlError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A page control was asked for more pages than people can take in at a glance (K7).
    case tooManyPages(Int)
    /// A switch row's title says on or off: the switch itself shows its state (K10).
    case switchTitleStatesValue(String)
    /// A slider's minimum is not below its maximum, or its step is not positive (K9).
    case invalidRange(minimum: Double, maximum: Double)
    /// A control needs a title or name people can read (K1, K12).
    case emptyTitle

    /// The message a person reads, ending with one full stop.
    public var description: String {
        switch self {
        case .tooManyPages(let count):
            "A page control shows at most \(HIGCheck.maximumPages) pages; \(count) pages need a grid that reaches "
                + "any page directly."
        case .switchTitleStatesValue(let title):
            "The switch row title '\(title)' says on or off; name the setting and let the switch show its state."
        case .invalidRange(let minimum, let maximum):
            "A slider needs a minimum below its maximum and a positive step (got \(minimum) to \(maximum))."
        case .emptyTitle:
            "A control needs a title people can read and a screen reader can say."
        }
    }
}

/// The style of the standard controls, installed once per display. The colours tests look for
/// on screen are package constants (for the GTK tests).
@MainActor
public enum ControlStyles {
    /// The current page's dot (K7).
    nonisolated package static let currentDot: (red: UInt8, green: UInt8, blue: UInt8) = (36, 31, 49)
    /// The other pages' dots.
    nonisolated package static let otherDot: (red: UInt8, green: UInt8, blue: UInt8) = (170, 168, 178)
    /// The filled part of a slider's track, from the minimum to the value (K9).
    nonisolated package static let sliderFill: (red: UInt8, green: UInt8, blue: UInt8) = (28, 113, 216)
    /// The rest of a slider's track.
    nonisolated package static let sliderTrack: (red: UInt8, green: UInt8, blue: UInt8) = (205, 203, 210)

    static func rgb(_ c: (red: UInt8, green: UInt8, blue: UInt8)) -> String { "rgb(\(c.red), \(c.green), \(c.blue))" }

    /// The style sheet.
    static let css = """
        .dd-page-control { min-height: 22px; }
        .dd-page-control:focus-visible { outline: 2px solid rgb(53, 132, 228); outline-offset: 2px; border-radius: 11px; }
        .dd-page-edge { border-radius: 8px; }
        .dd-slider scale trough { min-height: 6px; border-radius: 3px; background-color: \(rgb(sliderTrack)); }
        .dd-slider scale trough highlight { border-radius: 3px; background-color: \(rgb(sliderFill)); }
        .dd-slider .dd-slider-icon { color: rgb(94, 92, 100); }
        .dd-switch-row { padding: 8px 12px; }
        .dd-switch-row:disabled label { color: rgb(165, 162, 170); }
        .dd-control-row { padding: 8px 12px; }
        .dd-control-row:disabled label { color: rgb(165, 162, 170); }
        .dd-detail-button, .dd-info-button, .dd-contact-add-button { min-width: 28px; min-height: 28px; padding: 2px; }
        .dd-refresh { padding: 6px; }
        .dd-refresh label { color: rgb(94, 92, 100); }
        """

    /// Installs the style sheet on `widget`'s display (once per display).
    static func install(for widget: UnsafeMutablePointer<GtkWidget>) {
        GtkWidgetSupport.installCSS(css, key: "dd-controls", for: widget)
    }
}

extension GtkDragHost {
    /// Whether `widget` is, or lies inside, a registered drag source: a press there starts a
    /// content drag, so gestures of the controls (a page swipe, a pull to refresh) leave it alone.
    func isInsideDragSource(_ widget: UnsafeMutablePointer<GtkWidget>) -> Bool {
        let sources = Set(registered.values.filter { $0.dragSource != nil }.map { $0.widget.raw })
        var current: UnsafeMutablePointer<GtkWidget>? = widget
        while let w = current {
            if sources.contains(UnsafeMutableRawPointer(w)) { return true }
            current = gtk_widget_get_parent(w)
        }
        return false
    }
}
