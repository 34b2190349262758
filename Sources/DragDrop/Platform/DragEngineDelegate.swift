/// What the engine needs from the app and platform: the app's model and the platform's output.
///
/// Every method but ``dragEngine(_:perform:)`` has a default, so a minimal app implements one.
public protocol DragEngineDelegate: AnyObject {
    /// The items a drag starting on `item` carries: the selection when `item` is selected (M1),
    /// otherwise just `item`. Default: `[item]`.
    func dragEngine(_ engine: DragEngine, itemsForDragStartingAt item: TargetID) -> [TargetID]

    /// Where in `container` (a list or grid with an ``DragTarget/insertion`` layout) a drop at
    /// `point` lands; `point` is nil for a keyboard drop. Nil means no index. Default:
    /// ``DragEngine/insertionIndex(in:at:)``, from the container's registered children, so a
    /// container whose items are all registered needs nothing here. Implement it for items that
    /// are not all registered (a virtualized list: ``InsertionIndex`` over frames computed from
    /// the model) or that are not the container's children (a text view's offsets).
    func dragEngine(_ engine: DragEngine, insertionIndexIn container: TargetID, at point: Point?) -> Int?

    /// The tree of `container`, an outline (``DragTarget/outline``), as it shows now (T1): the
    /// engine reads its rows to place drops between them and on them, refuses drops of an item
    /// into its own subtree with the reason (T3) and names keyboard drop points by parent and
    /// position (T5). Asked on every pointer move over the outline; what the engine derives
    /// from the rows is rebuilt only when ``OutlineTree/revision`` changes. Default: nil (the
    /// container takes drops as a plain list).
    func dragEngine(_ engine: DragEngine, outlineOf container: TargetID) -> OutlineTree?

    /// Performs a drop. Called only with copy or move, after any confirmation.
    func dragEngine(_ engine: DragEngine, perform drop: DropRequest) -> DropResult

    /// The name of a dragged item of a model-backed container (``DragTarget/modelItems``) that
    /// is not registered (a row scrolled out of a virtualized list), for announcements and for
    /// the drop's ``DragItem/name``. Called for the first item at the lift, for every such item
    /// when the items are built (at the drop). Default: nil (the identifier's text).
    func dragEngine(_ engine: DragEngine, nameOfItem item: TargetID, in container: TargetID) -> String?

    /// The data an item of this app offers, richest first, produced lazily at the drop (P1).
    /// Default: nil (the destination uses the item identifiers only).
    func dragEngine(_ engine: DragEngine, itemProviderFor item: TargetID) -> ItemProvider?

    /// Takes moved items out of their source, after the destination committed them (S4).
    /// Returns how to put them back, for undo. Default: nothing to remove.
    func dragEngine(_ engine: DragEngine, removeMovedItems items: [DragItem], after drop: DropRequest)
        -> UndoableAction?

    /// Another app took `items` with a move (``DragEngine/dropHandedOff(to:operation:)``: the
    /// person held the move modifier, S2): take out of their source the ones that really left
    /// and return their identifiers: a row whose content the other app took with a move is
    /// deleted here; a file another app moved leaves its folder's listing. An item kept is
    /// reported as copied. Nothing here can be undone: the other app owns what it took.
    /// Default: none left (the drop reads as a copy).
    func dragEngine(_ engine: DragEngine, itemsMovedToOtherApp items: [DragItem], app: AppID?) -> [TargetID]

    /// A deferred drop still loading was cancelled (``DragEngine/cancelDeferredDrop(_:)``): stop
    /// loading its data and take its placeholders away; nothing else changes (a move's items stay
    /// in their source). Called before ``FeedbackEvent/placeholderFailed(_:_:)`` is emitted, and
    /// ``DragEngine/completeDeferredDrop(_:with:arrived:)`` is ignored for it afterwards. Default: nothing
    /// (an app that removes placeholders when it sees `placeholderFailed` needs nothing more).
    func dragEngine(_ engine: DragEngine, cancelDeferredDrop drop: DropRequest)

    /// A spring-loaded control activates (SP1, SP3). Default: nothing.
    func dragEngine(_ engine: DragEngine, activate target: TargetID, explicit: Bool)

    /// Scrolls a container by `delta` (A1); returns the offset actually applied (less at the
    /// ends of the content). Default: nothing scrolls.
    func dragEngine(_ engine: DragEngine, scroll container: TargetID, by delta: Vector) -> Vector

    /// The drop point of `container`'s model that a keyboard drag reaches next from `item` (C4),
    /// for a container whose items are not all registered (a virtualized list or grid: folders
    /// scrolled out of view). `item` is one of its items, or nil for the container's start
    /// (`forward`) or end (backward). Answer the nearest item in that direction that can take
    /// drops (a folder), registered or not, without changing anything; nil when there is none.
    /// The engine skips the dragged items and asks again from them. Default: nil (the drop
    /// points are the registered targets, in reading order).
    func dragEngine(_ engine: DragEngine, keyboardDropPointIn container: TargetID, after item: TargetID?, forward: Bool)
        -> TargetID?

    /// Brings `item`, an item of `container` that
    /// ``dragEngine(_:keyboardDropPointIn:after:forward:)`` answered and the keyboard focus goes
    /// to, into view (scroll to it; nothing when it shows already). One that is not registered
    /// must register: the focus lands on it when it does, now or later (C4). Default: nothing.
    func dragEngine(_ engine: DragEngine, reveal item: TargetID, in container: TargetID)

    /// Something a person would see or hear happened.
    func dragEngine(_ engine: DragEngine, emitted event: FeedbackEvent)
}

extension DragEngineDelegate {
    public func dragEngine(_ engine: DragEngine, itemsForDragStartingAt item: TargetID) -> [TargetID] { [item] }
    public func dragEngine(_ engine: DragEngine, insertionIndexIn container: TargetID, at point: Point?) -> Int? {
        engine.insertionIndex(in: container, at: point)
    }
    public func dragEngine(_ engine: DragEngine, removeMovedItems items: [DragItem], after drop: DropRequest)
        -> UndoableAction?
    { nil }
    public func dragEngine(_ engine: DragEngine, itemsMovedToOtherApp items: [DragItem], app: AppID?) -> [TargetID] {
        []
    }
    public func dragEngine(_ engine: DragEngine, itemProviderFor item: TargetID) -> ItemProvider? { nil }
    public func dragEngine(_ engine: DragEngine, outlineOf container: TargetID) -> OutlineTree? { nil }
    public func dragEngine(_ engine: DragEngine, nameOfItem item: TargetID, in container: TargetID) -> String? {
        nil
    }
    public func dragEngine(_ engine: DragEngine, cancelDeferredDrop drop: DropRequest) {}
    public func dragEngine(_ engine: DragEngine, activate target: TargetID, explicit: Bool) {}
    public func dragEngine(_ engine: DragEngine, scroll container: TargetID, by delta: Vector) -> Vector { .zero }
    public func dragEngine(
        _ engine: DragEngine, keyboardDropPointIn container: TargetID, after item: TargetID?, forward: Bool
    ) -> TargetID? { nil }
    public func dragEngine(_ engine: DragEngine, reveal item: TargetID, in container: TargetID) {}
    public func dragEngine(_ engine: DragEngine, emitted event: FeedbackEvent) {}
}
