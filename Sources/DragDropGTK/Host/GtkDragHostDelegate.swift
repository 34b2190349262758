import DragDrop

/// One representation of dragged content handed to GTK (and through it to other apps).
public struct ExportedRepresentation: Sendable, Hashable {
    /// The MIME type, for example `text/plain;charset=utf-8`.
    public var mimeType: String
    /// The bytes.
    public var bytes: [UInt8]

    /// Creates a representation.
    public init(mimeType: String, bytes: [UInt8]) {
        self.mimeType = mimeType
        self.bytes = bytes
    }

    /// UTF-8 text as `text/plain;charset=utf-8`.
    public static func text(_ text: String) -> ExportedRepresentation {
        ExportedRepresentation(mimeType: "text/plain;charset=utf-8", bytes: Array(text.utf8))
    }
}

/// The app's model behind the widgets a ``GtkDragHost`` manages: what to drag, where drops land,
/// and how to apply them. Each registered widget names the delegate that owns it; the host
/// asks the owner of the item, the destination or the source container.
///
/// Only ``dragHost(_:perform:)`` is required. The delegate also has every optional feature, each
/// a protocol with a default implementation: implement its method and the host calls it
/// (``GtkDragStartGate``, ``GtkDragImageSource``, ``GtkPlaceholderDelegate``,
/// ``GtkAutoscrollDelegate``, ``GtkDragHostSelectionDelegate``,
/// ``GtkKeyboardDropPointsDelegate``, ``GtkModelItemsDelegate``, ``GtkOutlineDelegate``). Spring-loaded controls have
/// an owner of their own (``GtkSpringLoadingDelegate``).
@MainActor
public protocol GtkDragHostDelegate: GtkDragStartGate, GtkDragImageSource, GtkPlaceholderDelegate,
    GtkAutoscrollDelegate, GtkDragHostSelectionDelegate, GtkKeyboardDropPointsDelegate, GtkModelItemsDelegate,
    GtkOutlineDelegate
{
    /// The items a drag starting on `item` carries: the selection when `item` is selected (M1),
    /// otherwise just `item`. Default: `[item]`.
    func dragHost(_ host: GtkDragHost, itemsForDragStartingAt item: TargetID) -> [TargetID]

    /// Where in `container` a drop at `point` (engine coordinates; nil for a keyboard drop)
    /// lands; nil means no index. Default: `DragEngine.insertionIndex(in:at:)`, from the
    /// container's registered children, which is right for any container whose rows or tiles
    /// are all registered. Implement it for items that are not all registered (a virtualized
    /// list, from its model) or are not children (a text view's character offsets).
    func dragHost(_ host: GtkDragHost, insertionIndexIn container: TargetID, at point: Point?) -> Int?

    /// Performs a drop on a destination this delegate owns (S4: insert now, the source removes
    /// moved items afterwards).
    func dragHost(_ host: GtkDragHost, perform drop: DropRequest) -> DropResult

    /// Takes moved items out of a container this delegate owns, after the destination committed
    /// them. Returns how to put them back (U1). Default: nothing.
    func dragHost(_ host: GtkDragHost, removeMovedItems items: [DragItem], after drop: DropRequest)
        -> UndoableAction?

    /// Another app took `items` (of this delegate's containers) with a move (the person held
    /// the move modifier, S2): take out the ones that really left and return their identifiers;
    /// an item kept is reported as copied. Nothing here can be undone: the other app owns what
    /// it took. Default: none left.
    func dragHost(_ host: GtkDragHost, itemsMovedToOtherApp items: [DragItem], app: AppID?) -> [TargetID]

    /// The data of an item, produced lazily at the drop (P1): read by destinations in this app,
    /// and offered to other apps (its representations visible to every app, under standard
    /// MIME names, produced only when the other app asks). Default: nil.
    func dragHost(_ host: GtkDragHost, itemProviderFor item: TargetID) -> ItemProvider?

    /// The representations GTK offers other apps for a drag of `items`, richest first (P1), when
    /// some item has no ``dragHost(_:itemProviderFor:)`` provider. Default: the items' names as
    /// UTF-8 text, one per line.
    func dragHost(_ host: GtkDragHost, exportedRepresentationsFor items: [TargetID]) -> [ExportedRepresentation]

    /// Shows where a drop would land in `container` (rows make room, F8); nil removes it.
    /// Default: nothing is shown.
    func dragHost(_ host: GtkDragHost, showInsertionAt index: Int?, in container: TargetID)

    /// `destination` became (true) or stopped being (false) the one destination that would
    /// take the drop, as it is highlighted (F4). Default: nothing.
    func dragHost(_ host: GtkDragHost, destination: TargetID, isTargeted: Bool)
}

extension GtkDragHostDelegate {
    public func dragHost(_ host: GtkDragHost, itemsForDragStartingAt item: TargetID) -> [TargetID] { [item] }
    public func dragHost(_ host: GtkDragHost, insertionIndexIn container: TargetID, at point: Point?) -> Int? {
        host.engine.insertionIndex(in: container, at: point)
    }
    public func dragHost(_ host: GtkDragHost, removeMovedItems items: [DragItem], after drop: DropRequest)
        -> UndoableAction?
    { nil }
    public func dragHost(_ host: GtkDragHost, itemsMovedToOtherApp items: [DragItem], app: AppID?) -> [TargetID] {
        []
    }
    public func dragHost(_ host: GtkDragHost, itemProviderFor item: TargetID) -> ItemProvider? { nil }
    public func dragHost(_ host: GtkDragHost, exportedRepresentationsFor items: [TargetID]) -> [ExportedRepresentation]
    {
        [.text(items.map { host.engine.registry.target($0)?.name ?? $0.rawValue }.joined(separator: "\n"))]
    }
    public func dragHost(_ host: GtkDragHost, showInsertionAt index: Int?, in container: TargetID) {}
    public func dragHost(_ host: GtkDragHost, destination: TargetID, isTargeted: Bool) {}
}
