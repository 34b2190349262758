import CGtk4
import DragDrop

// The features a delegate can provide, each a protocol with a default implementation.
// ``GtkDragHostDelegate`` refines every one but spring loading, so any delegate has them all:
// implement a method and the host calls it, with no conformance to remember and nothing cast at
// run time. Spring loading has no default (a control must do what a click does); a target gets
// it through ``GtkDragHost/register(_:as:springLoadedBy:)``, whose argument the compiler
// checks.

/// Draggable widgets that start drags only from some points of them: a text view drags only
/// when the press landed on its selection, and lets its own gestures select text everywhere
/// else.
@MainActor
public protocol GtkDragStartGate: AnyObject {
    /// Whether a drag of `item` may start from the press at `x`, `y` (widget coordinates).
    /// Default: always.
    func dragHost(_ host: GtkDragHost, canStartDragOf item: TargetID, atWidgetX x: Double, y: Double) -> Bool
}

extension GtkDragStartGate {
    public func dragHost(_ host: GtkDragHost, canStartDragOf item: TargetID, atWidgetX x: Double, y: Double) -> Bool {
        true
    }
}

/// Draggable items whose drag image is not the widget the drag started on: a text view's drag
/// shows the selected text, not the whole view (F2).
@MainActor
public protocol GtkDragImageSource: AnyObject {
    /// A widget to render as the drag image of `items`, and where the pointer holds it (in the
    /// widget's coordinates); nil renders the widget the drag started on. The widget must stay
    /// shown in a window until the drag ends (the image is a live rendering of it). Default: nil.
    func dragHost(_ host: GtkDragHost, dragImageFor items: [TargetID])
        -> (widget: UnsafeMutablePointer<GtkWidget>, hotspot: (x: Double, y: Double))?
}

extension GtkDragImageSource {
    public func dragHost(_ host: GtkDragHost, dragImageFor items: [TargetID])
        -> (widget: UnsafeMutablePointer<GtkWidget>, hotspot: (x: Double, y: Double))?
    { nil }
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

/// Destinations whose drops load later: they show placeholders with progress at the drop index
/// until the content arrives (A4). ``DragCollectionView`` is a complete example.
@MainActor
public protocol GtkPlaceholderDelegate: AnyObject {
    /// The placeholders of the deferred drop `token` in `container` changed. Default: nothing
    /// is shown.
    func dragHost(_ host: GtkDragHost, placeholder token: DropToken, in container: TargetID, changed: PlaceholderChange)
}

extension GtkPlaceholderDelegate {
    public func dragHost(
        _ host: GtkDragHost, placeholder token: DropToken, in container: TargetID, changed: PlaceholderChange
    ) {}
}

/// Containers that scroll their own content (a `GtkListView` or `GtkGridView`, which are their
/// own scrollables): the host asks them to autoscroll (A1). ``DragCollectionView`` is an example.
@MainActor
public protocol GtkAutoscrollDelegate: AnyObject {
    /// Scrolls `container`'s content by `delta` (clamped to it), moves the frames of the
    /// targets inside by the offset applied (`DragEngine/offsetDescendants(of:by:)`), and
    /// returns that offset. Default: nil, the host scrolls `container` itself when it is a
    /// registered `GtkScrolledWindow`.
    func dragHost(_ host: GtkDragHost, scroll container: TargetID, by delta: Vector) -> Vector?
}

extension GtkAutoscrollDelegate {
    public func dragHost(_ host: GtkDragHost, scroll container: TargetID, by delta: Vector) -> Vector? { nil }
}

/// Containers with a selection the keyboard picks up when the focus is on the container itself
/// rather than on one of its items (C4).
@MainActor
public protocol GtkDragHostSelectionDelegate: AnyObject {
    /// The selected items of `container`, in order. Default: none.
    func dragHost(_ host: GtkDragHost, selectedItemsIn container: TargetID) -> [TargetID]
}

extension GtkDragHostSelectionDelegate {
    public func dragHost(_ host: GtkDragHost, selectedItemsIn container: TargetID) -> [TargetID] { [] }
}

/// Containers whose model has keyboard drop points that are not registered (C4): the folders of
/// a virtualized list or grid scrolled out of view. A keyboard drag reaches them in the model's
/// order right after the container; one off screen is revealed (scrolled into view) and takes the
/// focus when its row registers. ``DragCollectionView`` is an example.
@MainActor
public protocol GtkKeyboardDropPointsDelegate: AnyObject {
    /// The item of `container` that takes drops (a folder) nearest after `item` in the model
    /// (`forward`) or before it, registered or not; `item` nil means from the container's start
    /// (forward) or end. Nil when there is none (the default). Changes nothing.
    func dragHost(_ host: GtkDragHost, keyboardDropPointIn container: TargetID, after item: TargetID?, forward: Bool)
        -> TargetID?

    /// Scrolls `item` of `container` into view (nothing when it shows whole): the keyboard focus
    /// goes to it, and a row not registered yet registers once GTK binds it. Default: nothing.
    func dragHost(_ host: GtkDragHost, reveal item: TargetID, in container: TargetID)
}

extension GtkKeyboardDropPointsDelegate {
    public func dragHost(
        _ host: GtkDragHost, keyboardDropPointIn container: TargetID, after item: TargetID?, forward: Bool
    ) -> TargetID? { nil }
    public func dragHost(_ host: GtkDragHost, reveal item: TargetID, in container: TargetID) {}
}

/// Model-backed containers (`DragTarget/modelItems`): a virtualized list whose rows off screen
/// are not registered, yet drag with the selection (M1).
@MainActor
public protocol GtkModelItemsDelegate: AnyObject {
    /// The name of `item`, an item of `container` that is not registered (announcements, and
    /// `DragItem/name` at the drop). Default: nil (the engine names it by its kind).
    func dragHost(_ host: GtkDragHost, nameOfItem item: TargetID, in container: TargetID) -> String?
}

extension GtkModelItemsDelegate {
    public func dragHost(_ host: GtkDragHost, nameOfItem item: TargetID, in container: TargetID) -> String? { nil }
}

/// The owner of an outline (`DragTarget/outline`, ``DragOutlineView``): the tree its drops are
/// placed in (T1), and where the drop point shows.
@MainActor
public protocol GtkOutlineDelegate: AnyObject {
    /// The tree of the outline `container`, as it shows now. Default: nil (a plain list).
    func dragHost(_ host: GtkDragHost, outlineOf container: TargetID) -> OutlineTree?

    /// Shows where a drop would land in the outline `container`: between two rows at a depth,
    /// or on a row; nil removes it. Default: nothing is shown.
    func dragHost(_ host: GtkDragHost, showOutlineDrop point: OutlineDropPoint?, in container: TargetID)
}

extension GtkOutlineDelegate {
    public func dragHost(_ host: GtkDragHost, outlineOf container: TargetID) -> OutlineTree? { nil }
    public func dragHost(_ host: GtkDragHost, showOutlineDrop point: OutlineDropPoint?, in container: TargetID) {}
}

/// The owner of spring-loaded controls (buttons, segments, tabs): it opens them when dragged
/// content rests on them (SP1). Register a control with
/// ``GtkDragHost/register(_:as:springLoadedBy:)``; the host flashes it (`dd-spring-flash`) just
/// before it calls ``dragHost(_:activate:explicit:)``.
///
/// The control must do the same when clicked (SP2); ``SpringButton`` is a complete example.
@MainActor
public protocol GtkSpringLoadingDelegate: GtkDragHostDelegate {
    /// Dragged content rested on `control` (or Space was pressed over it: `explicit`, SP3): do
    /// what a click does. Runs inside an engine call: change the app's widgets here, and
    /// register or unregister targets through ``GtkDragHost/scheduleUpdate(key:_:)``.
    func dragHost(_ host: GtkDragHost, activate control: TargetID, explicit: Bool)
}
