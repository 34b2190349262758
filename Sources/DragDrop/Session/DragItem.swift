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
