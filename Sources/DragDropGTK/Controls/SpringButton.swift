import CGtk4
import DragDrop

/// A button that is spring-loaded (SP1): dragged content resting on it makes it flash, then
/// act as if clicked, without dropping. A click does the same (SP2).
///
/// ```swift
/// let archive = SpringButton(id: "show-archive", title: "Show Archive", host: host)
/// archive.onActivate = { how in stack.show("archive") }
/// gtk_box_append(toolbar, archive.widget)
/// try archive.register(in: "main")
/// ```
///
/// Other spring-loaded controls (segmented controls, tabs) are built the same way: register each
/// part as a target with `DragTarget/springLoading` and a ``GtkSpringLoadingDelegate``; the
/// host flashes it with the `dd-spring-flash` class.
@MainActor
public final class SpringButton: GtkDragRegistering {
    /// How the button was activated.
    public enum Activation: Sendable, Hashable {
        /// Clicked, tapped or pressed with the keyboard (SP2).
        case click
        /// Dragged content rested on it (SP1); `explicit` when Space opened it at once (SP3).
        case springLoaded(explicit: Bool)
    }

    /// The button's target identifier.
    public let id: TargetID
    /// The label, a short verb in title case (K1).
    public private(set) var title: String
    /// The hover delay and flash lead (SP1). Read by ``register(in:)``: set it before
    /// registering (a later change applies the next time the button registers).
    public var springLoading: SpringLoadingConfiguration
    /// What the button does, however it was activated.
    public var onActivate: (@MainActor (Activation) -> Void)?

    private unowned let host: GtkDragHost
    private let button: GObjectRef

    /// The `GtkButton`, to put in a window.
    public var widget: UnsafeMutablePointer<GtkWidget> { button.widget }

    /// Creates a button titled `title`, managed by `host`.
    public init(
        id: TargetID? = nil, title: String, host: GtkDragHost, springLoading: SpringLoadingConfiguration = .init()
    ) {
        self.id = id ?? GtkDragHost.uniqueID(title)
        self.title = title
        self.host = host
        self.springLoading = springLoading
        button = GObjectRef(newWidget: gtk_button_new_with_label(title))
        gtk_widget_add_css_class(button.widget, "dd-spring-button")
        GSignal.connect(button.raw, "clicked") { [weak self] in self?.onActivate?(.click) }
        if id == nil { host.registerWhenPlaced(self) }
    }

    /// Registers the button with the host inside the registered target `parent`.
    public func register(in parent: TargetID) throws(GtkDragHostError) {
        var target = DragTarget(id: id, name: title, frame: .zero, parent: parent)
        target.springLoading = springLoading
        try host.register(button.widget, as: target, springLoadedBy: self)
    }

    /// Changes the label.
    public func setTitle(_ title: String) {
        self.title = title
        gtk_button_set_label(dd_button(button.raw), title)
    }
}

extension SpringButton: GtkSpringLoadingDelegate {
    public func dragHost(_ host: GtkDragHost, perform drop: DropRequest) -> DropResult {
        .failed(DropFailure(.forbidden, Localization.format(.takesNoDrops, ["name": .name(title)])))
    }

    public func dragHost(_ host: GtkDragHost, activate control: TargetID, explicit: Bool) {
        onActivate?(.springLoaded(explicit: explicit))
    }
}
