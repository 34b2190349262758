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
    /// Where in an outline the items land (T1): between two rows under a parent, or on a row
    /// (``DragTarget/outline``); nil for other destinations. Carry it out with
    /// ``OutlineTree/move(_:to:)``.
    public var outline: OutlineDropPoint? = nil
    /// The pointer position at the drop (nil for keyboard drops).
    public var point: Point?
    /// How the drag was made.
    public var mode: DragMode
    /// The drop's data: the only way to read it, open from the drop on (P5).
    public var data: DropDataAccess
    /// Names this drop if the destination defers it (``DropResult/deferred(placeholders:)``).
    public var token: DropToken
    /// The name of the row the items go into (a drop `.on` an outline's row), for the sentences
    /// said after the drop: "Copied 'Plan.txt' to 2026.", not to the outline.
    var placeName: String? = nil
}
