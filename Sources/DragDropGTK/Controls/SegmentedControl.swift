import CGtk4
import DragDrop

/// A row of linked toggle buttons, one of which is selected, where every segment is
/// spring-loaded: content held over a segment during a drag selects it after a short pause,
/// flashing first (SP1). A click (or Space on the focused segment) selects it too (SP2).
///
/// ```swift
/// let views = SegmentedControl(id: "views", name: "View", segments: ["Day", "Week", "Month"], host: host)
/// views.onSelect = { index, how in showCalendar(index) }
/// gtk_box_append(box, views.widget)
/// try views.register(in: "main")
/// ```
@MainActor
public final class SegmentedControl {
    /// How a segment got selected.
    public enum Activation: String, Sendable {
        /// A click, a tap or the keyboard (SP2).
        case click
        /// Content hovered over it during a drag (SP1), or Space forced it (SP3).
        case springLoading
    }

    /// The control's target identifier; segment *i* is `"<id>.<i>"`.
    public let id: TargetID
    /// The accessible name.
    public let name: String
    /// The segments' titles.
    public let segments: [String]
    /// The selected segment's index.
    public private(set) var selectedIndex: Int
    /// Called when a segment becomes selected, with how.
    public var onSelect: (@MainActor (_ index: Int, _ activation: Activation) -> Void)?

    private unowned let host: GtkDragHost
    private let root: GObjectRef
    private var buttons: [GObjectRef] = []
    private var springing = false

    /// The control's widget, to put in a window.
    public var widget: UnsafeMutablePointer<GtkWidget> { root.widget }

    /// Creates a control with `segments`, `selected` selected.
    public init(id: TargetID, name: String, segments: [String], selected: Int = 0, host: GtkDragHost) {
        self.id = id
        self.name = name
        self.segments = segments
        self.host = host
        selectedIndex = min(max(0, selected), max(0, segments.count - 1))
        root = GObjectRef(newWidget: gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0))
        gtk_widget_add_css_class(root.widget, "linked")
        gtk_widget_set_halign(root.widget, GTK_ALIGN_START)
        dd_accessible_set_label(dd_accessible(root.raw), name)
        for (index, title) in segments.enumerated() {
            let button = GObjectRef(newWidget: gtk_toggle_button_new_with_label(title))
            let toggle = gtkCast(button.raw, to: GtkToggleButton.self)
            if let first = buttons.first {
                gtk_toggle_button_set_group(toggle, gtkCast(first.raw, to: GtkToggleButton.self))
            }
            gtk_toggle_button_set_active(toggle, index == selectedIndex ? 1 : 0)
            GSignal.connect(button.raw, "toggled") { [weak self] in self?.toggled(index) }
            gtk_box_append(dd_box(root.raw), button.widget)
            buttons.append(button)
        }
    }

    /// The target identifier of segment `index`.
    public func segmentID(_ index: Int) -> TargetID { TargetID("\(id.rawValue).\(index)") }

    /// Registers the control and its spring-loaded segments inside the registered window `window`.
    public func register(in window: TargetID, springLoading: SpringLoadingConfiguration = .init())
        throws(GtkDragHostError)
    {
        try host.register(root.widget, as: DragTarget(id: id, name: name, frame: .zero, parent: window), delegate: self)
        for (index, button) in buttons.enumerated() {
            var segment = DragTarget(id: segmentID(index), name: segments[index], frame: .zero, parent: id)
            segment.springLoading = springLoading
            try host.register(button.widget, as: segment, springLoadedBy: self)
        }
    }

    /// Selects segment `index` as if by `activation`.
    public func select(_ index: Int, by activation: Activation = .click) {
        guard buttons.indices.contains(index) else { return }
        springing = activation == .springLoading
        defer { springing = false }
        gtk_toggle_button_set_active(gtkCast(buttons[index].raw, to: GtkToggleButton.self), 1)
    }

    private func toggled(_ index: Int) {
        guard gtk_toggle_button_get_active(gtkCast(buttons[index].raw, to: GtkToggleButton.self)) != 0,
            index != selectedIndex
        else { return }
        selectedIndex = index
        onSelect?(index, springing ? .springLoading : .click)
    }
}

extension SegmentedControl: GtkSpringLoadingDelegate {
    public func dragHost(_ host: GtkDragHost, perform drop: DropRequest) -> DropResult {
        .failed(DropFailure(.forbidden, Localization.format(.segmentsTakeNoDrops, ["name": .name(name)])))
    }

    /// Content held over a segment selects it (SP1).
    public func dragHost(_ host: GtkDragHost, activate target: TargetID, explicit: Bool) {
        guard let index = (0..<segments.count).first(where: { segmentID($0) == target }) else { return }
        select(index, by: .springLoading)
    }
}
