/// One dragged item.
public struct DragItem: Sendable, Hashable, Identifiable {
    /// The source target's identifier (or, for another app's item, an identifier it chose).
    public var id: TargetID
    /// Accessible name ("Beach.jpg").
    public var name: String
    /// How to count it in announcements.
    public var kind: Noun
    /// Offered types, richest first.
    public var types: [ContentType]
    /// The container the item was dragged from, if it was registered here.
    public var sourceContainer: TargetID?
    /// The app the item comes from.
    public var app: AppID

    /// Creates an item.
    public init(
        id: TargetID, name: String, kind: Noun = .item, types: [ContentType],
        sourceContainer: TargetID? = nil, app: AppID
    ) {
        self.id = id
        self.name = name
        self.kind = kind
        self.types = types
        self.sourceContainer = sourceContainer
        self.app = app
    }
}

/// Identifies a drop whose data is still arriving (a deferred drop with placeholders).
public struct DropToken: Hashable, Sendable, Codable, CustomStringConvertible {
    /// A number unique within one engine.
    public var rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public var description: String { "drop#\(rawValue)" }
}

/// What the destination is asked to do at the drop.
public struct DropRequest: Sendable {
    /// The destination.
    public var destination: TargetID
    /// The items, in drag order.
    public var items: [DragItem]
    /// Copy or move (never forbidden or cancel: those never reach the destination).
    public var operation: DropOperation
    /// Where in a list or grid the items land, for destinations with an insertion layout.
    public var index: Int?
    /// The pointer position at the drop (nil for keyboard drops).
    public var point: Point?
    /// How the drag was made.
    public var mode: DragMode
    /// The drop's data: the only way to read it, open from the drop on (P5).
    public var data: DropDataAccess
    /// Names this drop if the destination defers it (``DropResult/deferred(placeholders:)``).
    public var token: DropToken
}

/// What a destination did with a drop.
public enum DropResult {
    /// The destination took the content. `undo` reverts its side (the engine groups it with the
    /// source's removal for a move); `nil` means the drop cannot be undone, and then no undo step
    /// is registered at all, not even for the source of a move. `cancellation` offers a way to
    /// take the drop back (U3); using it also puts moved items back in their source.
    case committed(undo: UndoableAction?, cancellation: DropCancellation? = nil)
    /// The destination could not take the content; nothing changed.
    case failed(DropFailure)
    /// The destination shows `placeholders` placeholders at the drop index at once and loads the
    /// data without blocking (A4); it reports progress with
    /// ``DragEngine/updateDeferredDrop(_:progress:)`` and ends with
    /// ``DragEngine/completeDeferredDrop(_:with:)``. Moved items leave their source only if
    /// the data arrives (S4, A6).
    case deferred(placeholders: Int)
}

/// A way to take a drop back after it happened, when undo is not enough (U3): "Stop Sharing".
public struct DropCancellation {
    /// The command's title, a short verb in title case.
    public var title: String
    /// Reverts the drop.
    public var perform: () -> Void

    /// Creates a cancellation offer.
    public init(title: String, perform: @escaping () -> Void) {
        self.title = title
        self.perform = perform
    }
}

/// What the engine needs from the app and platform: the app's model and the platform's output.
///
/// Every method but ``dragEngine(_:perform:)`` has a default, so a minimal app implements one.
public protocol DragEngineDelegate: AnyObject {
    /// The items a drag starting on `item` carries: the selection when `item` is selected (M1),
    /// otherwise just `item`. Default: `[item]`.
    func dragEngine(_ engine: DragEngine, itemsForDragStartingAt item: TargetID) -> [TargetID]

    /// Where in `container` (a list or grid) a drop at `point` lands. Default: nil (no index).
    /// ``InsertionIndex`` computes this from ordered item frames.
    func dragEngine(_ engine: DragEngine, insertionIndexIn container: TargetID, at point: Point?) -> Int?

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

    /// A deferred drop still loading was cancelled (``DragEngine/cancelDeferredDrop(_:)``): stop
    /// loading its data and take its placeholders away; nothing else changes (a move's items stay
    /// in their source). Called before ``FeedbackEvent/placeholderFailed(_:_:)`` is emitted, and
    /// ``DragEngine/completeDeferredDrop(_:with:)`` is ignored for it afterwards. Default: nothing
    /// (an app that removes placeholders when it sees `placeholderFailed` needs nothing more).
    func dragEngine(_ engine: DragEngine, cancelDeferredDrop drop: DropRequest)

    /// A spring-loaded control activates (SP1, SP3). Default: nothing.
    func dragEngine(_ engine: DragEngine, activate target: TargetID, explicit: Bool)

    /// Scrolls a container by `delta` (A1); returns the offset actually applied (less at the
    /// ends of the content). Default: nothing scrolls.
    func dragEngine(_ engine: DragEngine, scroll container: TargetID, by delta: Vector) -> Vector

    /// Something a person would see or hear happened.
    func dragEngine(_ engine: DragEngine, emitted event: FeedbackEvent)
}

extension DragEngineDelegate {
    public func dragEngine(_ engine: DragEngine, itemsForDragStartingAt item: TargetID) -> [TargetID] { [item] }
    public func dragEngine(_ engine: DragEngine, insertionIndexIn container: TargetID, at point: Point?) -> Int? {
        nil
    }
    public func dragEngine(_ engine: DragEngine, removeMovedItems items: [DragItem], after drop: DropRequest)
        -> UndoableAction?
    { nil }
    public func dragEngine(_ engine: DragEngine, itemProviderFor item: TargetID) -> ItemProvider? { nil }
    public func dragEngine(_ engine: DragEngine, nameOfItem item: TargetID, in container: TargetID) -> String? {
        nil
    }
    public func dragEngine(_ engine: DragEngine, cancelDeferredDrop drop: DropRequest) {}
    public func dragEngine(_ engine: DragEngine, activate target: TargetID, explicit: Bool) {}
    public func dragEngine(_ engine: DragEngine, scroll container: TargetID, by delta: Vector) -> Vector { .zero }
    public func dragEngine(_ engine: DragEngine, emitted event: FeedbackEvent) {}
}

/// Insertion indexes from ordered item frames, by binary search (F8).
public enum InsertionIndex {
    /// The index at which a drop at `point` lands among `frames` (in list order) laid out as
    /// `layout`: before the first item whose centre lies after the point. O(log n).
    public static func compute<C: RandomAccessCollection>(
        layout: InsertionLayout, frames: C, point: Point
    ) -> Int where C.Element == Rect, C.Index == Int {
        var low = frames.startIndex
        var high = frames.endIndex
        while low < high {
            let mid = (low + high) / 2
            if isBefore(frames[mid], point, layout) { low = mid + 1 } else { high = mid }
        }
        return low - frames.startIndex
    }

    /// Whether the item at `frame` comes before the insertion point for `point`.
    private static func isBefore(_ frame: Rect, _ point: Point, _ layout: InsertionLayout) -> Bool {
        switch layout {
        case .vertical: return frame.midY <= point.y
        case .horizontal: return frame.midX <= point.x
        case .grid:
            if frame.maxY <= point.y { return true }
            if frame.minY > point.y { return false }
            return frame.midX <= point.x
        }
    }
}
