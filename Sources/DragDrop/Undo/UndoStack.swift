/// One reversible step: `undo` reverts it, `redo` applies it again.
///
/// Unlike Foundation's `UndoManager`, an action is registered once, as a pair of closures; the
/// closures do not re-register anything (registrations made while an undo or redo is running are
/// ignored by ``UndoStack``).
///
/// The closures are retained by the ``UndoStack`` for as long as the step is on one of its stacks.
/// Capture the model weakly (or `unowned`) when the model itself owns the stack, to avoid a
/// retain cycle.
///
/// ```swift
/// let action = UndoableAction(
///     undo: { [unowned model] in model.move(from: 3, to: 0) },
///     redo: { [unowned model] in model.move(from: 0, to: 3) }
/// )
/// ```
public struct UndoableAction {
    /// Reverts the change.
    public var undo: () -> Void
    /// Applies the change again, after `undo` reverted it.
    public var redo: () -> Void

    /// Creates an action from the closure that reverts a change and the one that re-applies it.
    public init(undo: @escaping () -> Void, redo: @escaping () -> Void) {
        self.undo = undo
        self.redo = redo
    }
}

/// What changed on an ``UndoStack``, reported through ``UndoStack/onChange``.
///
/// Events are fired after the stack's state is fully updated, so a handler can read
/// ``UndoStack/undoMenuItemTitle`` and friends and see the new values.
public enum UndoStackChange: Equatable, Sendable {
    /// A new top-level step was completed and pushed on the undo stack.
    ///
    /// Fired exactly once per completed step, with the step's name at that moment (`""` when
    /// unnamed): when the outermost group ends with at least one action in it, or when
    /// ``UndoStack/register(_:)`` is called with no group open. Renaming the step afterwards
    /// with ``UndoStack/setActionName(_:)`` does not fire again.
    case registered(name: String)
    /// The top step was undone and moved to the redo stack.
    case undid(name: String)
    /// The top redo step was redone and moved back to the undo stack.
    case redid(name: String)
    /// ``UndoStack/removeAllActions()`` was called.
    case cleared
    /// A step that said it could not be undone was taken out of the history, because what it
    /// recorded did not happen (``UndoStack/withdrawIrreversible(_:)``), or renamed to what did
    /// (``UndoStack/renameIrreversible(_:to:)``, with the new name).
    case withdrawn(name: String)
}

/// Names one step that cannot be undone (``UndoStack/registerIrreversible(named:)``), so it can
/// be corrected once the app learns what really happened.
public struct UndoStepID: Hashable, Sendable {
    let rawValue: Int
}

/// An undo manager built from pairs of closures: every drop or edit-menu command becomes one
/// undoable, named step ("Undo Move 3 Items").
///
/// Register an ``UndoableAction`` for each reversible change. Outside a group, each registration
/// is its own step; between ``beginGroup(named:)`` and ``endGroup()`` registrations are collected
/// and the outermost group becomes a single step, undone in reverse order of registration and
/// redone in order.
///
/// ```swift
/// let undo = UndoStack(levelsOfUndo: 100)
/// undo.beginGroup(named: "Move 3 Items")
/// for move in moves {
///     model.apply(move)
///     undo.register(UndoableAction(
///         undo: { [unowned model] in model.apply(move.inverse) },
///         redo: { [unowned model] in model.apply(move) }
///     ))
/// }
/// undo.endGroup()
/// undo.undoMenuItemTitle  // "Undo Move 3 Items"
/// undo.undo()             // runs the three inverses, last move first
/// undo.redoMenuItemTitle  // "Redo Move 3 Items"
/// ```
///
/// ## Rules
/// - Groups nest; only the outermost group becomes an undo step. A group that ends with no
///   action registered adds nothing (no step, no event, the redo stack is kept).
/// - The step's name comes from ``setActionName(_:)`` (the last call wins) or, failing that,
///   from the first non-nil name passed to ``beginGroup(named:)`` at any nesting level, so an
///   inner helper's group name never overrides the name of the command that called it.
/// - Registering an action clears the redo stack (at the moment of registration, even inside a
///   group).
/// - While ``undo()`` or ``redo()`` runs (``isUndoing``/``isRedoing``), ``register(_:)`` and
///   ``setActionName(_:)`` are ignored, so closures can share code paths that register.
///   Groups opened and closed by those closures stay empty and add nothing.
/// - When ``levelsOfUndo`` is positive, completing a step beyond that many drops the oldest
///   steps (silently: no event).
///
/// ## Programming errors (trap with `preconditionFailure`)
/// - ``endGroup()`` with no open group.
/// - ``undo()`` or ``redo()`` while a group is open, or from inside an undo or redo.
/// - ``removeAllActions()`` from inside an undo or redo.
///
/// ## Costs
/// ``register(_:)`` is amortized O(1), plus releasing the redo stack it clears.
/// ``undo()`` and ``redo()`` are O(actions in the step) plus the cost of the closures.
/// Completing a step is O(1), or O(``levelsOfUndo``) when the oldest steps are dropped.
/// All the other members are O(1), except ``removeAllActions()`` which releases every step.
///
/// The class is not `Sendable`: use it from one actor or thread.
public final class UndoStack {
    /// A completed, top-level undo step.
    private struct Step {
        var name: String
        var actions: [UndoableAction]
        /// A step that happened and cannot be reverted here (``registerIrreversible(named:)``).
        var irreversible = false
        /// Names an irreversible step; 0 for the others.
        var id = 0
    }

    private var lastStepID = 0

    /// The maximum number of undo steps kept; `0` means unlimited.
    public let levelsOfUndo: Int

    /// Completed steps, oldest first; the last one is undone next.
    private var undoSteps: [Step] = []
    /// Undone steps, oldest undo first; the last one is redone next.
    private var redoSteps: [Step] = []

    /// Actions collected by the open groups (all nesting levels share one list).
    private var openActions: [UndoableAction] = []
    /// Name of the step being collected by the open groups, if any was given.
    private var openName: String?

    /// The number of groups currently open: `0` when no group is open, `1` inside the outermost
    /// group, and so on.
    public private(set) var groupingLevel: Int = 0
    /// Whether ``undo()`` is running the undo closures of a step right now.
    public private(set) var isUndoing: Bool = false
    /// Whether ``redo()`` is running the redo closures of a step right now.
    public private(set) var isRedoing: Bool = false

    /// Called after every change of the stacks with what happened, so a platform can refresh
    /// menus and a test can record a timeline. See ``UndoStackChange`` for when each case fires.
    ///
    /// Not called for renames (``setActionName(_:)`` on a completed step), for empty groups, or
    /// when ``levelsOfUndo`` drops old steps.
    public var onChange: ((UndoStackChange) -> Void)?

    /// Creates an empty stack.
    ///
    /// - Parameter levelsOfUndo: The maximum number of undo steps kept; when a new step would
    ///   exceed it, the oldest steps are dropped. `0` (the default) means unlimited. Must not be
    ///   negative.
    public init(levelsOfUndo: Int = 0) {
        precondition(levelsOfUndo >= 0, "UndoStack: levelsOfUndo must be 0 (unlimited) or positive, got \(levelsOfUndo)")
        self.levelsOfUndo = levelsOfUndo
    }

    // MARK: Grouping

    /// Opens a group. Groups nest; only the outermost one becomes an undo step, when it ends.
    ///
    /// - Parameter name: The step's name, used unless ``setActionName(_:)`` names it or an
    ///   enclosing (or earlier) group already gave it a name.
    public func beginGroup(named name: String? = nil) {
        if openName == nil, let name { openName = name }
        groupingLevel += 1
    }

    /// Closes the innermost open group. Closing the outermost group completes the step: it is
    /// pushed on the undo stack and ``UndoStackChange/registered(name:)`` fires, unless no action
    /// was registered in it, in which case nothing happens.
    ///
    /// Calling it with no open group is a programming error and traps.
    public func endGroup() {
        guard groupingLevel > 0 else {
            preconditionFailure("UndoStack.endGroup() called with no open group (unbalanced beginGroup/endGroup)")
        }
        groupingLevel -= 1
        guard groupingLevel == 0 else { return }
        let actions = openActions
        let name = openName ?? ""
        openActions = []
        openName = nil
        if !actions.isEmpty {
            push(Step(name: name, actions: actions))
        }
    }

    // MARK: Registering

    /// Records an action whose change has just been applied.
    ///
    /// Outside a group the action becomes its own, unnamed step (name it right after with
    /// ``setActionName(_:)``); inside a group it is appended to the open group. Either way the
    /// redo stack is cleared. Ignored while an undo or redo is running.
    public func register(_ action: UndoableAction) {
        guard !isUndoing, !isRedoing else { return }
        redoSteps.removeAll()
        if groupingLevel > 0 {
            openActions.append(action)
        } else {
            push(Step(name: "", actions: [action]))
        }
    }

    /// Records a step that happened and cannot be reverted here (a move into another app: the
    /// other app owns what it took), so the history says so instead of offering an undo that
    /// could not work: while it is the most recent step ``canUndo`` is false and the Undo menu
    /// item reads "Can't Undo Move 'Report' to Thunar"; steps done after it undo as usual, and
    /// the steps before it stay behind it. Clears the redo stack. Ignored while an undo or redo
    /// is running or a group is open. Returns the step's identifier (nil when ignored), for
    /// ``withdrawIrreversible(_:)`` and ``renameIrreversible(_:to:)``.
    @discardableResult
    public func registerIrreversible(named name: String) -> UndoStepID? {
        guard isIdle else { return nil }
        redoSteps.removeAll()
        lastStepID += 1
        push(Step(name: name, actions: [], irreversible: true, id: lastStepID))
        return UndoStepID(rawValue: lastStepID)
    }

    /// Takes the irreversible step `id` out of the history, wherever it is: what it recorded
    /// did not happen after all (another app said it moved content and copied it). The steps
    /// around it are untouched (it holds no actions). Ignored when the step is gone (dropped
    /// as the oldest, or cleared).
    public func withdrawIrreversible(_ id: UndoStepID) {
        guard let index = undoSteps.firstIndex(where: { $0.irreversible && $0.id == id.rawValue }) else { return }
        let step = undoSteps.remove(at: index)
        onChange?(.withdrawn(name: step.name))
    }

    /// Renames the irreversible step `id` (part of what it recorded did not happen). Ignored
    /// when the step is gone.
    public func renameIrreversible(_ id: UndoStepID, to name: String) {
        guard let index = undoSteps.firstIndex(where: { $0.irreversible && $0.id == id.rawValue }) else { return }
        undoSteps[index].name = name
        onChange?(.withdrawn(name: name))
    }

    /// Whether the most recent step cannot be undone (``registerIrreversible(named:)``).
    public var undoIsBlocked: Bool { undoSteps.last?.irreversible == true }

    /// Records an action given as its two closures; same as
    /// `register(UndoableAction(undo: undo, redo: redo))`.
    public func register(undo: @escaping () -> Void, redo: @escaping () -> Void) {
        register(UndoableAction(undo: undo, redo: redo))
    }

    /// Records an undo the way Foundation's `UndoManager` does (which swift-corelibs-foundation
    /// does not have on Linux): `handler` reverts the change just made, on `target`, held weakly
    /// (a step whose target is gone does nothing). What `handler` registers through this method
    /// while it undoes becomes the redo, and what the redo registers becomes the next undo, so
    /// code written for `UndoManager` shares the history with drops unchanged:
    ///
    /// ```swift
    /// func rename(_ item: Item, to name: String) {
    ///     let old = item.name
    ///     stack.registerUndo(withTarget: item) { item in rename(item, to: old) }
    ///     stack.setActionName("Rename")
    ///     item.name = name
    /// }
    /// ```
    public func registerUndo<Target: AnyObject>(withTarget target: Target, handler: @escaping (Target) -> Void) {
        if let capture = capturing {
            // Inside a handler that is undoing or redoing: this is its inverse.
            capture.handlers.append(HandlerAction.bind(target, handler))
            return
        }
        let action = HandlerAction(undo: [HandlerAction.bind(target, handler)])
        register(
            UndoableAction(
                undo: { [unowned self] in action.undo = self.run(action.undo, into: &action.redo) },
                redo: { [unowned self] in action.redo = self.run(action.redo, into: &action.undo) }))
    }

    /// Runs `handlers` (last registered first) collecting what they register as the inverse;
    /// returns what is left to run this way next time (nothing: they ran).
    private func run(_ handlers: [() -> Void], into inverse: inout [() -> Void]) -> [() -> Void] {
        let capture = HandlerCapture()
        let outer = capturing
        capturing = capture
        for handler in handlers.reversed() { handler() }
        capturing = outer
        inverse = capture.handlers
        return []
    }

    /// Names the open group (the step it will become), or the most recent undo step if no group
    /// is open. The last call wins. Does nothing when there is neither, and is ignored while an
    /// undo or redo is running.
    ///
    /// Renaming a completed step does not fire ``onChange``; to have the name in the
    /// ``UndoStackChange/registered(name:)`` event, name the step before its group ends.
    public func setActionName(_ name: String) {
        guard !isUndoing, !isRedoing else { return }
        if groupingLevel > 0 {
            openName = name
        } else if !undoSteps.isEmpty {
            undoSteps[undoSteps.count - 1].name = name
        }
    }

    // MARK: Undo and redo

    /// Reverts the most recent step: runs its undo closures in reverse order of registration,
    /// then moves it to the redo stack and fires ``UndoStackChange/undid(name:)``. Does nothing
    /// if there is no step to undo.
    ///
    /// Calling it while a group is open, or from inside an undo or redo closure, is a
    /// programming error and traps. Cost: O(actions in the step) plus the closures.
    public func undo() {
        precondition(groupingLevel == 0, "UndoStack.undo() called while a group is open (groupingLevel \(groupingLevel)); end the group first")
        precondition(!isUndoing && !isRedoing, "UndoStack.undo() called from inside an undo or redo action")
        guard let step = undoSteps.last, !step.irreversible else { return }
        undoSteps.removeLast()
        isUndoing = true
        for action in step.actions.reversed() { action.undo() }
        isUndoing = false
        redoSteps.append(step)
        onChange?(.undid(name: step.name))
    }

    /// Re-applies the most recently undone step: runs its redo closures in order of
    /// registration, then moves it back to the undo stack and fires
    /// ``UndoStackChange/redid(name:)``. Does nothing if there is no step to redo.
    ///
    /// Calling it while a group is open, or from inside an undo or redo closure, is a
    /// programming error and traps. Cost: O(actions in the step) plus the closures.
    public func redo() {
        precondition(groupingLevel == 0, "UndoStack.redo() called while a group is open (groupingLevel \(groupingLevel)); end the group first")
        precondition(!isUndoing && !isRedoing, "UndoStack.redo() called from inside an undo or redo action")
        guard let step = redoSteps.popLast() else { return }
        isRedoing = true
        for action in step.actions { action.redo() }
        isRedoing = false
        undoSteps.append(step)
        onChange?(.redid(name: step.name))
    }

    /// Whether ``undo()`` would revert a step now: there is one, no group is open and no undo
    /// or redo is running.
    public var canUndo: Bool { !undoSteps.isEmpty && !undoIsBlocked && isIdle }

    /// Whether ``redo()`` would re-apply a step now: there is one, no group is open and no undo
    /// or redo is running.
    public var canRedo: Bool { !redoSteps.isEmpty && isIdle }

    /// The number of steps on the undo stack.
    public var undoCount: Int { undoSteps.count }

    /// The number of steps on the redo stack.
    public var redoCount: Int { redoSteps.count }

    /// The name of the step ``undo()`` would revert; `""` when it is unnamed or there is none.
    public var undoActionName: String { undoSteps.last?.name ?? "" }

    /// The name of the step ``redo()`` would re-apply; `""` when it is unnamed or there is none.
    public var redoActionName: String { redoSteps.last?.name ?? "" }

    /// The Undo menu item's title: `"Undo Move 3 Items"`, or `"Undo"` when the step is unnamed
    /// or there is none; `"Can't Undo Move 'Report' to Thunar"` when the most recent step cannot
    /// be undone.
    public var undoMenuItemTitle: String {
        undoIsBlocked
            ? Self.title(.cannotUndoMenu, .cannotUndoMenuNamed, undoActionName)
            : Self.title(.undoMenu, .undoMenuNamed, undoActionName)
    }

    /// The Redo menu item's title: `"Redo Move 3 Items"`, or `"Redo"` when the step is unnamed
    /// or there is none.
    public var redoMenuItemTitle: String { Self.title(.redoMenu, .redoMenuNamed, redoActionName) }

    /// Discards every undo and redo step, and the actions collected so far by open groups (the
    /// groups stay open, so balanced ``endGroup()`` calls remain valid). Fires
    /// ``UndoStackChange/cleared``, even when the stacks were already empty.
    ///
    /// Calling it from inside an undo or redo closure is a programming error and traps.
    public func removeAllActions() {
        precondition(!isUndoing && !isRedoing, "UndoStack.removeAllActions() called from inside an undo or redo action")
        undoSteps.removeAll()
        redoSteps.removeAll()
        openActions.removeAll()
        onChange?(.cleared)
    }

    // MARK: Private

    /// The handlers registered while a ``registerUndo(withTarget:handler:)`` step undoes or
    /// redoes: its inverse.
    private var capturing: HandlerCapture?

    private var isIdle: Bool { groupingLevel == 0 && !isUndoing && !isRedoing }

    /// Pushes a completed step, drops the oldest beyond `levelsOfUndo`, and reports it.
    private func push(_ step: Step) {
        undoSteps.append(step)
        if levelsOfUndo > 0, undoSteps.count > levelsOfUndo {
            undoSteps.removeFirst(undoSteps.count - levelsOfUndo)
        }
        onChange?(.registered(name: step.name))
    }

    private static func title(_ bare: EngineMessage, _ named: EngineMessage, _ name: String) -> String {
        name.isEmpty ? Localization.format(bare) : Localization.format(named, ["action": .name(name)])
    }
}

/// One ``UndoStack/registerUndo(withTarget:handler:)`` step: the handlers that undo it, or (once
/// undone) those that redo it.
private final class HandlerAction {
    var undo: [() -> Void]
    var redo: [() -> Void] = []
    init(undo: [() -> Void]) { self.undo = undo }

    /// `handler` on `target`, held weakly.
    static func bind<Target: AnyObject>(_ target: Target, _ handler: @escaping (Target) -> Void) -> () -> Void {
        { [weak target] in if let target { handler(target) } }
    }
}

/// Collects handlers registered during an undo or redo.
private final class HandlerCapture {
    var handlers: [() -> Void] = []
}
