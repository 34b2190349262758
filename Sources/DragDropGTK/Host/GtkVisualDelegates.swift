import DragDrop

/// The owner of spring-loaded controls (buttons, segments, tabs): it opens them when dragged
/// content rests on them (SP1). Register a control as a target with
/// `DragTarget/springLoading` set and this delegate; ``GtkDragHost`` flashes it
/// (`dd-spring-flash`) just before it calls ``dragHost(_:activate:explicit:)``.
///
/// The control must do the same when clicked (SP2); ``SpringButton`` is a complete example.
@MainActor
public protocol GtkSpringLoadingDelegate: GtkDragHostDelegate {
    /// Dragged content rested on `control` (or Space was pressed over it: `explicit`, SP3): do
    /// what a click does. Runs inside an engine call: change the app's widgets here, and
    /// register or unregister targets through ``GtkDragHost/scheduleUpdate(key:_:)``.
    func dragHost(_ host: GtkDragHost, activate control: TargetID, explicit: Bool)
}

/// What happens to the placeholders of a drop that loads its content later
/// (`DropResult/deferred(placeholders:)`; A4, A6).
public enum PlaceholderChange: Sendable, Hashable {
    /// Show `count` placeholders where the drop landed (`index`, for lists and grids).
    case inserted(index: Int?, count: Int)
    /// The loading progressed: a fraction in 0...1, or nil when the total is unknown.
    case progress(Double?)
    /// The content arrived: the placeholders give way to it.
    case resolved
    /// The content did not arrive: remove the placeholders (the host shows the reason).
    case failed(DropFailure)
}

/// The owner of a destination whose drops load later: it shows placeholders with progress at
/// the drop index until the content arrives (A4). ``DragListView`` is a complete example.
@MainActor
public protocol GtkPlaceholderDelegate: GtkDragHostDelegate {
    /// The placeholders of the deferred drop `token` in `container` changed.
    func dragHost(_ host: GtkDragHost, placeholder token: DropToken, in container: TargetID, changed: PlaceholderChange)
}

/// The owner of a container that scrolls its own content (a `GtkListView` or `GtkGridView`,
/// which are their own scrollables): the host asks it to autoscroll (A1) instead of moving the
/// adjustment of a registered `GtkScrolledWindow` itself. ``DragCollectionView`` is an example.
@MainActor
public protocol GtkAutoscrollDelegate: GtkDragHostDelegate {
    /// Scrolls `container`'s content by `delta` (clamped to it), moves the frames of the
    /// targets inside by the offset applied (`DragEngine/offsetDescendants(of:by:)`), and
    /// returns that offset.
    func dragHost(_ host: GtkDragHost, scroll container: TargetID, by delta: Vector) -> Vector
}

/// The owner of a model-backed container (`DragTarget/modelItems`): a virtualized list whose
/// rows off screen are not registered, yet drag with the selection (M1).
@MainActor
public protocol GtkModelItemsDelegate: GtkDragHostDelegate {
    /// The name of `item`, an item of `container` that is not registered (announcements, and
    /// `DragItem/name` at the drop).
    func dragHost(_ host: GtkDragHost, nameOfItem item: TargetID, in container: TargetID) -> String?
}
