/// A read-only view of the drag in progress, for platforms and tests.
public struct DragSessionSnapshot: Sendable, Hashable {
    /// The dragged items, in drag order.
    public var items: [DragItem]
    /// How the drag was started.
    public var mode: DragMode
    /// The destination currently proposed, if any.
    public var destination: TargetID?
    /// The current proposal.
    public var operation: DropOperation
    /// What the drag image shows.
    public var preview: PreviewState
    /// The highlighted destination, if any.
    public var highlighted: TargetID?
    /// The insertion index shown, if any.
    public var insertionIndex: Int?
    /// The outline drop point shown, if any (T1).
    public var outlineDropPoint: OutlineDropPoint?
    /// The last pointer position (nil for keyboard drags).
    public var pointer: Point?
    /// Whether the drop waits for the user's confirmation (U2).
    public var awaitingConfirmation: Bool
}

/// The engine's mutable record of one drag.
struct ActiveSession {
    /// The dragged items, once built. A pointer or keyboard drag starts without them
    /// (`DragEngine.sessionItems()` builds them from ``slots`` when first needed: a drop, a
    /// snapshot, an unregistration): building 50,000 of them is most of what a lift would
    /// cost, and the move path needs only their count.
    var builtItems: [DragItem]?
    /// The items' identifiers, in drag order.
    var ids: [TargetID]
    /// The items' registry slots, in drag order, while ``builtItems`` is nil. Valid until the
    /// registry unregisters anything, which builds the items first.
    var slots: [Int32] = []
    /// The items' identifiers as a set, to re-flag items re-registered during the drag; built
    /// on first use (`DragEngine.sessionItemIDs()`), so a lift hashes each item once, not twice.
    var itemIDs: Set<TargetID>?
    var masks: [TypeMask]
    var masksGeneration: Int
    var mode: DragMode
    /// The distinct apps the items come from (S2: another app always copies), kept up to date
    /// as items join, like ``sourceContainers``.
    var sourceApps: [AppID]
    var pointer: Point?
    /// Whether the pointer moved since the destination was last resolved (false when only the
    /// targets moved under it: content scrolled): the insertion's hysteresis follows a moving
    /// pointer only (F8).
    var pointerMoved = false
    var modifiers: DragModifiers = []
    /// What another app's drag allows (S2); this app's own drags allow both.
    var sourceAllows: DropOperations = .all
    var destination: TargetID?
    var destinationInfo: DestinationInfo?
    var operation: DropOperation = .cancel
    var highlighted: TargetID?
    var insertion: (container: TargetID, index: Int)?
    /// The outline the drag is over, what it derived from its rows, and the drop point shown.
    var outline: OutlineDrag?
    var preview: PreviewState
    /// Source containers the pointer has not yet left completely (F6).
    var sourcesNotLeft: [TargetID]
    var keyboard: KeyboardNavigation?
    var awaitingConfirmation: DropRequest?

    /// The distinct source containers of the items, kept up to date as items join (M2), so the
    /// move path never maps over every item.
    var sourceContainers: [TargetID?]
    /// Whether every item may leave its place; false makes every drop a copy.
    var itemsMovable = true
    /// The model-backed container some items belong to without being registered (rows off
    /// screen of a virtualized list); their offer mask comes from its ``ModelItems``.
    var modelContainer: TargetID?
    /// Which drag of the engine this is (``DragEngine`` numbers them as they start): a call
    /// that gave a delegate the word checks it afterwards, to stop when that drag ended.
    var serial = 0

    static func distinctApps(_ items: [DragItem]) -> [AppID] {
        var result: [AppID] = []
        for item in items where !result.contains(item.app) { result.append(item.app) }
        return result
    }

    static func distinctContainers(_ items: [DragItem]) -> [TargetID?] {
        var result: [TargetID?] = []
        for item in items where !result.contains(item.sourceContainer) { result.append(item.sourceContainer) }
        return result
    }

    /// The number of dragged items.
    var count: Int { ids.count }

    /// A snapshot; the items must be built.
    func snapshot() -> DragSessionSnapshot {
        DragSessionSnapshot(
            items: builtItems ?? [], mode: mode, destination: destination, operation: operation, preview: preview,
            highlighted: highlighted, insertionIndex: insertion?.index, outlineDropPoint: outline?.shown,
            pointer: pointer,
            awaitingConfirmation: awaitingConfirmation != nil)
    }
}

/// What the engine caches about the current destination, so the move path does no lookups.
struct DestinationInfo {
    var name: String
    var app: AppID
    var policy: OperationPolicy
    var takesMovesFromOtherApps = false
    var insertion: InsertionLayout?
    var outline: OutlineLayout?
    var confirmation: String?
}

/// A move into another app the engine recorded as a step that cannot be undone.
struct HandOff {
    var step: UndoStepID
    var history: UndoStack
    var moved: [DragItem]
    var appName: String
}
