import CDragDropGTKSupport
import CGtk4
import DragDrop

/// A `GtkScrolledWindow` that scrolls by itself while dragged content rests near its edges
/// (A1): faster nearer the edge, stopping as soon as the content leaves it. The rows inside
/// follow the scrolling, so a drop lands where the pointer is.
///
/// ```swift
/// let list = DragListView(id: "notes", title: "Notes", items: titles, host: host)
/// let scroll = DragScrollView(id: "notes-scroll", name: "Notes", child: list.widget, host: host)
/// gtk_box_append(box, scroll.widget)
/// try scroll.register(in: "main")
/// try list.register(in: scroll.id)   // the list lives inside the scroll container
/// ```
@MainActor
public final class DragScrollView: GtkDragRegistering {
    /// The scroll container's target identifier.
    public let id: TargetID
    /// The accessible name.
    public let name: String
    /// How fast and along which axes it autoscrolls (A1); the axes are also the ones people
    /// can scroll by hand. Set it before ``register(in:)`` (the engine reads it there; a later
    /// change of the axes takes effect on the scroll bars at once, the rest the next time the
    /// view registers).
    public var autoscroll: AutoscrollConfiguration {
        didSet { applyScrollPolicy() }
    }
    /// Called with the vertical offset after every change (scrolling by hand or autoscroll).
    public var onScroll: (@MainActor (Double) -> Void)?

    private unowned let host: GtkDragHost
    private let scrolled: GObjectRef

    /// The `GtkScrolledWindow`, to put in a window.
    public var widget: UnsafeMutablePointer<GtkWidget> { scrolled.widget }

    /// The vertical scroll offset, in pixels from the top of the content.
    public var verticalOffset: Double {
        gtk_scrolled_window_get_vadjustment(dd_scrolled_window(scrolled.raw)).map(gtk_adjustment_get_value) ?? 0
    }

    /// Wraps `child` in a scrolled window that autoscrolls with `autoscroll`.
    public init(
        id: TargetID? = nil, name: String, child: UnsafeMutablePointer<GtkWidget>, host: GtkDragHost,
        autoscroll: AutoscrollConfiguration = AutoscrollConfiguration()
    ) {
        self.id = id ?? GtkDragHost.uniqueID(name)
        self.name = name
        self.host = host
        self.autoscroll = autoscroll
        scrolled = GObjectRef(newWidget: gtk_scrolled_window_new())
        let view = dd_scrolled_window(scrolled.raw)
        gtk_scrolled_window_set_child(view, child)
        applyScrollPolicy()
        gtk_widget_set_vexpand(scrolled.widget, 1)
        gtk_widget_set_hexpand(scrolled.widget, 1)
        if let adjustment = gtk_scrolled_window_get_vadjustment(view) {
            GSignal.connect(UnsafeMutableRawPointer(adjustment), "value-changed") { [weak self] in
                guard let self else { return }
                self.onScroll?(self.verticalOffset)
            }
        }
        if id == nil { host.registerWhenPlaced(self) }
    }

    /// Scroll bars along the autoscroll axes only.
    private func applyScrollPolicy() {
        gtk_scrolled_window_set_policy(
            dd_scrolled_window(scrolled.raw),
            autoscroll.axes.contains(.horizontal) ? GTK_POLICY_AUTOMATIC : GTK_POLICY_NEVER,
            autoscroll.axes.contains(.vertical) ? GTK_POLICY_AUTOMATIC : GTK_POLICY_NEVER)
    }

    /// Registers the scroll container inside the registered target `parent`; register what it
    /// contains afterwards, inside ``id``.
    public func register(in parent: TargetID) throws(GtkDragHostError) {
        var target = DragTarget(id: id, name: name, frame: .zero, parent: parent)
        target.autoscroll = autoscroll
        target.clipsChildren = true
        try host.register(scrolled.widget, as: target, delegate: nil)
    }
}
