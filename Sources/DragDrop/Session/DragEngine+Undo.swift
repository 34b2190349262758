/// Undo histories (U1): the engine's own, and one per document.
extension DragEngine {
    // MARK: Undo histories

    /// Gives the document rooted at `target` (the target and everything registered below it)
    /// its own undo history, as a document-based app gives each document its own undo manager
    /// (U1): drops whose destination is in it are registered there, and ``undo(in:)`` from
    /// inside it undoes its own steps only. Without one, a target uses the nearest ancestor's
    /// history, or the engine's ``undoStack``. Pass the same stack for several targets to share
    /// one history. `nil` removes the assignment.
    public func useUndoStack(_ stack: UndoStack?, for target: TargetID) {
        documentUndoStacks[target] = stack
    }

    /// The undo history of `target`'s document: the stack given to the target or its nearest
    /// ancestor with ``useUndoStack(_:for:)``, else ``undoStack``. Edits an app makes itself (a
    /// rename, typing) go on this stack too, so they and the drops share one history.
    public func undoStack(for target: TargetID?) -> UndoStack {
        guard let target, !documentUndoStacks.isEmpty else { return undoStack }
        if let own = documentUndoStacks[target] { return own }
        for ancestor in registry.ancestors(of: target) {
            if let stack = documentUndoStacks[ancestor] { return stack }
        }
        return undoStack
    }

    /// Whether ``undo(in:)`` would undo a step of `target`'s history now: there is one and no
    /// drag is in progress.
    public func canUndo(in target: TargetID?) -> Bool { session == nil && undoStack(for: target).canUndo }

    /// Whether ``redo(in:)`` would redo a step of `target`'s history now.
    public func canRedo(in target: TargetID?) -> Bool { session == nil && undoStack(for: target).canRedo }

    /// Whether ``undo()`` would undo a step now: there is one and no drag is in progress.
    public var canUndo: Bool { canUndo(in: nil) }

    /// Whether ``redo()`` would redo a step now: there is one and no drag is in progress.
    public var canRedo: Bool { canRedo(in: nil) }

    /// Undoes the last drop or edit (U1) of the engine's own history (``undoStack``).
    public func undo() { undo(in: nil) }

    /// Redoes the last undone drop or edit (U1) of the engine's own history.
    public func redo() { redo(in: nil) }

    /// Undoes the last drop or edit (U1) of `target`'s document (``undoStack(for:)``): the
    /// history of the place the person works in, not another document's.
    ///
    /// Not during a drag (including a drop waiting for confirmation): undoing then could take
    /// away the very content being dragged or the list it is over; it is announced and nothing
    /// changes. A drop still loading is never undone: it is not on the undo stack until its data
    /// arrives, so undo reverts the step before it and leaves its placeholders loading.
    public func undo(in target: TargetID?) {
        let stack = undoStack(for: target)
        guard session == nil else {
            if stack.canUndo { announce(Localization.format(.finishBeforeUndo), force: true) }
            return
        }
        guard stack.canUndo else { return }
        let name = stack.undoActionName
        stack.undo()
        offeredCancellation = nil
        emit(.undid(name))
        announce(Announcements.undid(name), force: true)
    }

    /// Redoes the last undone drop or edit (U1) of `target`'s document; not during a drag, like
    /// ``undo(in:)``.
    public func redo(in target: TargetID?) {
        let stack = undoStack(for: target)
        guard session == nil else {
            if stack.canRedo { announce(Localization.format(.finishBeforeRedo), force: true) }
            return
        }
        guard stack.canRedo else { return }
        let name = stack.redoActionName
        stack.redo()
        emit(.redid(name))
        announce(Announcements.redid(name), force: true)
    }
}
