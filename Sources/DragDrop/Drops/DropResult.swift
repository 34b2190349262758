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
    /// ``DragEngine/completeDeferredDrop(_:with:arrived:)``. Moved items leave their source only if
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
