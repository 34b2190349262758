/// Errors from starting or changing a drag.
public enum DragError: Error, Equatable, CustomStringConvertible {
    /// A drag is already in progress.
    case dragInProgress
    /// No drag is in progress.
    case noDrag
    /// The identifier names no registered draggable item.
    case notDraggable(TargetID)
    /// A drag needs at least one item.
    case noItems

    public var description: String {
        switch self {
        case .dragInProgress: "A drag is already in progress; finish or cancel it first."
        case .noDrag: "No drag is in progress."
        case .notDraggable(let id): "'\(id)' is not a registered draggable item."
        case .noItems: "A drag needs at least one item."
        }
    }
}

/// The drag-and-drop engine: turns pointer, key and time input into sessions, proposals,
/// feedback and drops, following the HIG rules (see `HIG-REQUIREMENTS.md`).
///
/// The engine never starts timers or reads the system time: it reads the injected ``DragClock``
/// and publishes ``nextDeadline``; the platform calls ``tick()`` when that instant arrives.
///
/// ```swift
/// let engine = DragEngine(app: "Notes", clock: SystemClock())
/// engine.delegate = myApp
/// try engine.register(listTarget)
/// engine.pointerDown(at: p)
/// engine.pointerMoved(to: q)   // lifts once the pointer has moved 3 points (F1)
/// engine.pointerUp(at: q)      // drops, or returns the content to its source (F7)
/// ```
///
/// The engine is not thread-safe: use it from one actor (the platform's main actor).
public final class DragEngine {
    /// Tunable behaviour.
    public struct Configuration: Sendable {
        /// When a press becomes a drag (F1).
        public var lift = LiftConfiguration()
        /// Whether to emit announcements for pointer drags too (they are always emitted for
        /// keyboard drags).
        public var announcePointerDrags = true
        /// How far past the boundary between two items (in points, along a list's axis) the
        /// pointer must go before the insertion moves there (F8): a pointer jittering on a
        /// boundary does not make the rows make room back and forth (each flip repaints the
        /// list). 0 moves it at the boundary. Grids move at the boundary.
        public var insertionHysteresis = 6.0

        /// The defaults.
        public init() {}
    }

    /// The app this engine runs in.
    public let app: AppID
    /// The injected clock.
    public let clock: any DragClock
    /// Tunable behaviour.
    public var configuration: Configuration
    /// Receives drops and feedback. Held weakly: the platform owns the engine.
    public weak var delegate: (any DragEngineDelegate)?
    /// The registered targets.
    public private(set) var registry: TargetRegistry
    /// The engine's own undo history (U1): drops and edits go here unless their document has one
    /// of its own (``useUndoStack(_:for:)``, ``undoStack(for:)``).
    public let undoStack: UndoStack

    var lift: LiftStateMachine
    var pressedSource: TargetID?
    /// The modifier keys held, as last reported; a pointer drag starts with them (S2).
    var heldModifiers: DragModifiers = []
    /// Undo histories of documents (``useUndoStack(_:for:)``).
    var documentUndoStacks: [TargetID: UndoStack] = [:]
    /// Recent moves into other apps, with their undo steps (``otherAppKept(_:)``).
    var handOffs: [HandOff] = []
    /// What the next drag from another app allows, reported before it entered.
    var pendingSourceAllows: DropOperations = .all
    /// The spring-loaded control a press began on when nothing draggable was under it: the press
    /// stays a click on that control however long it lasts or however it wobbles, as long as it
    /// is released over it (SP2: the control must keep working without a drag).
    var pressedControl: TargetID?
    /// How many drags ended (outcomes emitted), and the latest outcome: what ``pointerUp(at:)``
    /// and ``cancelDrag()`` return.
    var outcomesEmitted = 0
    var lastEmittedOutcome: DropOutcome?
    var session: ActiveSession?
    /// The drags started so far (``ActiveSession/serial``).
    var sessionsStarted = 0
    /// The retargets started so far: a retarget that gave a delegate the word stops when another
    /// ran meanwhile (the later one used the newer state).
    var retargetsStarted = 0
    var spring = SpringLoadingStateMachine<TargetID>()
    var springName: String?
    var autoscroll = AutoscrollStateMachine<TargetID>()
    var needsResolve = false
    var membershipVersion = 0
    /// The way out offered after the last drop (U3), with how to put moved items back in their
    /// source when it is used.
    var offeredCancellation: (target: TargetID, cancellation: DropCancellation, restoreSource: UndoableAction?)?
    /// Drops whose data is still loading (A4).
    var deferredDrops = DeferredDrops()
    var nextToken = 0
    var externalProviders: [ItemProvider]?

    /// Picks representations for drops; its conformance follows ``setConformance(_:)``.
    public var chooser: RepresentationChooser
    /// Where large representations are spooled at the drop (P3); nil disables spooling.
    public var spool: SpoolDirectory?

    /// Creates an engine for `app`, reading time from `clock`.
    public init(
        app: AppID, clock: any DragClock, configuration: Configuration = Configuration(),
        undoStack: UndoStack = UndoStack(), conformance: TypeConformance = TypeConformance()
    ) {
        self.app = app
        self.clock = clock
        self.configuration = configuration
        self.undoStack = undoStack
        self.registry = TargetRegistry(localApp: app, conformance: conformance)
        self.lift = LiftStateMachine(configuration: configuration.lift)
        self.chooser = RepresentationChooser(conformance: conformance)
    }

    // MARK: State

    /// The drag in progress, if any.
    public var currentSession: DragSessionSnapshot? {
        guard session != nil else { return nil }
        _ = sessionItems()
        return session?.snapshot()
    }

    /// Whether a drag is in progress (including one waiting for confirmation).
    public var isDragging: Bool { session != nil }

    /// The next instant the engine must be woken at with ``tick()``, if any. When targets
    /// changed under a still pointer during a drag (a spring-loaded folder opened, content
    /// scrolled, a list was hidden), this is the current instant: the destination must be
    /// resolved again at once, without waiting for the pointer to move.
    public var nextDeadline: MonotonicInstant? {
        if resolveIsDue { return clock.now }
        var earliest = lift.deadline
        if let d = spring.deadline, earliest.map({ d < $0 }) ?? true { earliest = d }
        if let d = autoscroll.deadline, earliest.map({ d < $0 }) ?? true { earliest = d }
        return earliest
    }

    /// Whether targets changed under the pointer of a pointer or external drag that can still
    /// move, so ``tick()`` must resolve the destination again.
    var resolveIsDue: Bool {
        guard needsResolve, let s = session, s.awaitingConfirmation == nil else { return false }
        // A keyboard drag's drop points follow the targets too (a list hidden, a folder opened).
        return s.mode == .keyboard || s.pointer != nil
    }

    /// The keyboard drop points of the current keyboard drag, in order (C4).
    public var keyboardDropPoints: [KeyboardDropPoint] { session?.keyboard?.points ?? [] }

    /// The cancellation offered after the last drop, if it is still available (U3).
    public var availableCancellation: (target: TargetID, title: String)? {
        offeredCancellation.map { ($0.target, $0.cancellation.title) }
    }

    // MARK: Registration

    /// Registers a target. Its parent, if any, must already be registered.
    public func register(_ target: DragTarget) throws(RegistryError) {
        try registry.register(target)
        if session != nil, sessionItemIDs().contains(target.id) { registry.markInSession([target.id], true) }
        membershipChanged()
    }

    /// Unregisters a target and its descendants.
    public func unregister(_ id: TargetID) throws(RegistryError) {
        // The session's items are built from registry slots, which unregistering frees.
        if session != nil { sessionItems() }
        try registry.unregister(id)
        membershipChanged()
    }

    /// Moves or resizes a target. The destination under a still pointer is re-resolved on the
    /// next ``tick()`` (``nextDeadline`` asks for one at once) or pointer event.
    public func setFrame(_ frame: Rect, for id: TargetID) throws(RegistryError) {
        try registry.setFrame(frame, for: id)
        if session != nil { needsResolve = true }
    }

    /// The handle of a registered target, for ``setFrame(_:for:)-(_,TargetHandle)``.
    public func handle(for id: TargetID) -> TargetHandle? { registry.handle(for: id) }

    /// Moves or resizes the target `handle` names, without looking its identifier up: for a
    /// layout pass that hands the engine every frame on every move (most unchanged), a few
    /// nanoseconds each. Throws ``RegistryError/staleHandle`` when the target was unregistered
    /// since the handle was made.
    public func setFrame(_ frame: Rect, for handle: TargetHandle) throws(RegistryError) {
        try registry.setFrame(frame, for: handle)
        if session != nil { needsResolve = true }
    }

    /// Moves or resizes many targets in one pass, through their handles: what a layout pass
    /// that re-frames every item per pointer move calls.
    ///
    /// ```swift
    /// try engine.setFrames { set in
    ///     for (position, item) in order.enumerated() { set(handles[item], layout.frame(at: position)) }
    /// }
    /// ```
    public func setFrames(_ body: (_ set: (TargetHandle, Rect) -> Void) -> Void) throws(RegistryError) {
        defer { if session != nil { needsResolve = true } }
        try registry.setFrames(body)
    }

    /// Moves a container's descendants (its content scrolled).
    public func offsetDescendants(of id: TargetID, by delta: Vector) throws(RegistryError) {
        try registry.offsetDescendants(of: id, by: delta)
        if session != nil { needsResolve = true }
    }

    /// Hides or shows a target and its descendants.
    public func setHidden(_ hidden: Bool, for id: TargetID) throws(RegistryError) {
        try registry.setHidden(hidden, for: id)
        membershipChanged()
    }

    /// The direction of every target that is not told one and inherits none (L3): left to
    /// right by default. A right-to-left app (its interface in Hebrew or Arabic) sets it once;
    /// a container that reads otherwise sets its own ``DragTarget/layoutDirection``.
    public var layoutDirection: LayoutDirection {
        get { registry.defaultLayoutDirection }
        set {
            registry.defaultLayoutDirection = newValue
            membershipChanged()
        }
    }

    /// Tells a registered target which way its horizontal orders read (L3), as when the
    /// person switches the interface's language; nil takes its parent's again.
    public func setLayoutDirection(_ direction: LayoutDirection?, for id: TargetID) throws(RegistryError) {
        try registry.setLayoutDirection(direction, for: id)
        membershipChanged()
    }

    /// Puts a target above its siblings.
    public func bringToFront(_ id: TargetID) throws(RegistryError) {
        try registry.bringToFront(id)
        if session != nil { needsResolve = true }
    }

    /// Declares the app's own types and conformance.
    public func setConformance(_ table: TypeConformance) {
        registry.setConformance(table)
        chooser.conformance = table
        membershipChanged()
    }

    /// The dragged items' identifiers as a set, built on first use (a registration during the
    /// drag, a keyboard drag's drop points) rather than at every lift.
    func sessionItemIDs() -> Set<TargetID> {
        if let ids = session?.itemIDs { return ids }
        let ids = Set(session?.ids ?? [])
        session?.itemIDs = ids
        return ids
    }

    /// The dragged items, built from the registry on first need (a drop, a snapshot, adding
    /// items, an unregistration) rather than at the lift, where building thousands of them would
    /// delay the preview. Empty when no drag is in progress.
    @discardableResult
    func sessionItems() -> [DragItem] {
        guard let s = session else { return [] }
        if let items = s.builtItems { return items }
        let items = registry.dragItems(slots: s.slots, ids: s.ids, name: modelItemName)
        session?.builtItems = items
        session?.slots = []
        return items
    }

    /// The name of an unregistered item of a model-backed container, from the delegate.
    func modelItemName(_ item: TargetID, in container: TargetID) -> String {
        delegate?.dragEngine(self, nameOfItem: item, in: container) ?? item.rawValue
    }

    func membershipChanged() {
        membershipVersion &+= 1
        if session != nil { needsResolve = true }
    }

    // MARK: Pointer input

    /// The pointer was pressed. Nothing is shown yet: a drag starts only once the pointer moves
    /// past the threshold, or after press-and-hold on touch (F1).
    ///
    /// `modifiers` are the keys held at the press; `nil` keeps those last reported with
    /// ``modifiersChanged(_:)`` (a key pressed before the button still counts, S2).
    public func pointerDown(at point: Point, kind: PointerKind = .mouse, modifiers: DragModifiers? = nil) {
        guard session == nil else { return }
        let hit = registry.resolve(at: point)
        pressedSource = hit.source
        pressedControl = hit.source == nil ? hit.springLoaded : nil
        if let modifiers { heldModifiers = modifiers }
        _ = lift.press(at: point, kind: kind, now: clock.now)
    }

    /// The pointer moved (with the button held, or during any drag).
    public func pointerMoved(to point: Point, modifiers: DragModifiers? = nil) {
        if session == nil {
            guard lift.isPressed else { return }
            handleLift(lift.move(to: point, now: clock.now))
            guard session != nil else { return }
        }
        guard session?.awaitingConfirmation == nil, session?.mode != .keyboard else { return }
        if let modifiers {
            heldModifiers = modifiers
            session?.modifiers = modifiers
        }
        update(at: point)
    }

    /// Modifier keys changed during a drag (S2: a modifier forces copy).
    public func modifiersChanged(_ modifiers: DragModifiers) {
        heldModifiers = modifiers
        guard var s = session, s.awaitingConfirmation == nil else { return }
        s.modifiers = modifiers
        session = s
        retarget(to: s.destination, info: s.destinationInfo)
    }

    /// What another app's drag allows changed (S2): its source offers only a move while the
    /// person holds Shift, say. Applies to the drag from another app in progress, or to the next
    /// one that enters (call it before ``beginExternalDrag(items:providers:at:)``); a drag of this
    /// app's own allows both. A destination that would copy where only a move is allowed is
    /// forbidden, with the reason, rather than highlighted (F4).
    public func otherAppAllows(_ operations: DropOperations) {
        guard var s = session else {
            pendingSourceAllows = operations
            return
        }
        guard s.mode == .external, s.awaitingConfirmation == nil, s.sourceAllows != operations else { return }
        s.sourceAllows = operations
        session = s
        retarget(to: s.destination, info: s.destinationInfo)
    }

    /// The pointer was released: drops if a drag is in progress, otherwise reports a click.
    /// Returns how the drag ended when it ended here (also emitted as ``FeedbackEvent/outcome(_:)``):
    /// nil when no drag ended (a click, a drop waiting for its confirmation).
    @discardableResult
    public func pointerUp(at point: Point) -> DropOutcome? {
        returningOutcome { release(at: point) }
    }

    func release(at point: Point) {
        if session == nil {
            let action = lift.release(at: point, now: clock.now)
            pressedSource = nil
            let control = pressedControl
            pressedControl = nil
            if case .click(let at) = action {
                emit(.clicked(registry.resolve(at: at).topHit))
            } else if let control {
                // A slow tap or a wobbly click on a control is still a click on it (SP2).
                let hit = registry.resolve(at: point)
                if hit.springLoaded == control { emit(.clicked(hit.topHit)) }
            }
            return
        }
        guard session?.mode != .keyboard, session?.awaitingConfirmation == nil else { return }
        lift.reset()
        update(at: point)
        drop()
    }

    /// A second touch or click during a drag adds the draggable item under it to the drag (M2).
    /// Returns the added item, if any.
    @discardableResult
    public func tap(at point: Point) -> TargetID? {
        guard session != nil, let item = registry.resolve(at: point).source else { return nil }
        return (try? addItems([item]))?.first
    }

    // MARK: Starting drags

    /// Starts a drag of `items` at once (a platform that detected the drag gesture itself).
    ///
    /// Items that are not registered may belong to `container`, a model-backed container
    /// (``DragTarget/modelItems``): rows of a virtualized list scrolled out of view. Without
    /// `container`, the model-backed container of the first registered item is used.
    public func beginDrag(
        items: [TargetID], at point: Point, modifiers: DragModifiers = [], from container: TargetID? = nil
    ) throws(DragError) {
        guard session == nil else { throw .dragInProgress }
        try start(items: items, at: point, mode: .pointer, modifiers: modifiers, container: container)
    }

    /// Starts a keyboard drag of `items` (C4): the content is picked up, drop points become
    /// reachable with ``DragKey/nextDropPoint`` and ``DragKey/previousDropPoint``. `container`
    /// is as for ``beginDrag(items:at:modifiers:from:)``.
    public func beginKeyboardDrag(items: [TargetID], from container: TargetID? = nil) throws(DragError) {
        guard session == nil else { throw .dragInProgress }
        try start(items: items, at: nil, mode: .keyboard, modifiers: [], container: container)
    }

    /// A drag from another app entered: an external session, which always copies (S2) and
    /// whose data is read only at the drop (P5).
    ///
    /// `providers` (one per item, same order) read the other app's data; they are reachable
    /// only through the drop's ``DropRequest/data``, which refuses every load before the drop.
    public func beginExternalDrag(items: [DragItem], providers: [ItemProvider]? = nil, at point: Point)
        throws(DragError)
    {
        guard session == nil else { throw .dragInProgress }
        guard !items.isEmpty else { throw .noItems }
        externalProviders = providers
        let masks = registry.masks(forOffered: items.map(\.types))
        session = ActiveSession(
            builtItems: items, ids: items.map(\.id), itemIDs: nil, masks: masks,
            masksGeneration: registry.typesGeneration, mode: .external, sourceApps: ActiveSession.distinctApps(items),
            pointer: point, modifiers: heldModifiers, preview: PreviewState(count: items.count, badge: .none),
            sourcesNotLeft: [],
            sourceContainers: ActiveSession.distinctContainers(items))
        sessionsStarted &+= 1
        session?.serial = sessionsStarted
        session?.sourceAllows = pendingSourceAllows
        pendingSourceAllows = .all
        emit(.lifted(items: items.map(\.id), at: point, mode: .external))
        emit(.preview(PreviewState(count: items.count, badge: .none)))
        update(at: point)
    }

    /// A drag from another app left without dropping: clears all feedback, reports no outcome
    /// (the other app animates its own image). When it was over a destination or something
    /// that springs open, it says "Not over a drop point.", so no sentence about a place the
    /// drag left stays on a status line or unsaid to a screen reader (F4): the platform may
    /// report the exit without a last move off that place (Wayland does).
    public func externalDragExited() {
        guard let s = session, s.mode == .external else { return }
        let wasOver = s.destination != nil || s.highlighted != nil || spring.hoveredTarget != nil
        endSession()
        if wasOver { announce(.over(nil, .cancel)) }
    }

    /// This app's drag was dropped on another app, which took the content (S1): ends the
    /// session with ``DropOutcome/handedOff(app:operation:)``. `operation` is what the other app
    /// says it did. A copy (what other apps are offered unless the person holds the move
    /// modifier, S2) leaves the source as it is. A move asks the delegate to take out of their
    /// source the items that really left
    /// (``DragEngineDelegate/dragEngine(_:itemsMovedToOtherApp:app:)``): those are reported by
    /// ``FeedbackEvent/sourceRemoved(_:)`` and announced as moved, any kept as copied (S4), and
    /// the undo history gets a step that says it cannot be undone
    /// (``UndoStack/registerIrreversible(named:)``): the other app owns what it took. `app`
    /// names the other app when the platform can tell.
    ///
    /// Ignored without a drag, for a drag that came from another app, and while a drop waits
    /// for confirmation. A drop the other app refused ends with ``cancelDrag()`` or
    /// ``pointerUp(at:)`` outside every target instead. Returns the outcome (nil when ignored).
    @discardableResult
    public func dropHandedOff(to app: AppID? = nil, operation: DropOperation = .copy) -> DropOutcome? {
        returningOutcome { handOff(to: app, operation: operation) }
    }

    func handOff(to app: AppID?, operation: DropOperation) {
        guard let s = session, s.mode != .external, s.awaitingConfirmation == nil else { return }
        let items = sessionItems()
        endSession()
        let name = app?.rawValue ?? Localization.format(.anotherApp)
        var moved: [DragItem] = []
        if operation == .move {
            let own = items.filter { $0.sourceContainer != nil }
            let left = Set(own.isEmpty ? [] : delegate?.dragEngine(self, itemsMovedToOtherApp: own, app: app) ?? [])
            moved = own.filter { left.contains($0.id) }
        }
        if !moved.isEmpty {
            emit(.sourceRemoved(moved.map(\.id)))
            let history = undoStack(for: moved.first?.sourceContainer)
            if let step = history.registerIrreversible(named: Announcements.actionName(moved, .move, to: name)) {
                handOffs.append(HandOff(step: step, history: history, moved: moved, appName: name))
                if handOffs.count > 8 { handOffs.removeFirst() }
            }
        }
        emit(.outcome(.handedOff(app: app, operation: moved.isEmpty ? .copy : .move)))
        announce(Announcements.handedOff(items, moved: moved, to: name), force: s.mode == .keyboard)
    }

    /// Items a move into another app took out of their source turned out to be still there:
    /// the other app copied them while it finished the drop as a move (Nautilus 43 on X11
    /// does). The undo history's "Can't Undo Move …" step for them is taken out, or renamed for
    /// those that did leave, so it names only what happened; the platform puts the items back
    /// in their source and tells the person. Ignored for items of no recent hand-off.
    public func otherAppKept(_ ids: [TargetID]) {
        let kept = Set(ids)
        guard let index = handOffs.lastIndex(where: { $0.moved.contains { kept.contains($0.id) } }) else { return }
        let handOff = handOffs[index]
        let left = handOff.moved.filter { !kept.contains($0.id) }
        if left.isEmpty {
            handOffs.remove(at: index)
            handOff.history.withdrawIrreversible(handOff.step)
        } else {
            handOffs[index].moved = left
            handOff.history.renameIrreversible(
                handOff.step, to: Announcements.actionName(left, .move, to: handOff.appName))
        }
    }

    /// This app's drag was dropped on another app, which took it at first but then did not
    /// (its transfer failed): the drag fails and says so (F7, A6); nothing changed here.
    /// Ignored in the same cases as ``dropHandedOff(to:operation:)``.
    /// `reason`, a sentence, says why when the platform knows more (the other app quit, or went
    /// silent); by default "'Mail' did not take 'Milk'.". Returns the outcome (nil when ignored).
    @discardableResult
    public func dropRefused(by app: AppID? = nil, reason: String? = nil) -> DropOutcome? {
        returningOutcome { refused(by: app, reason: reason) }
    }

    func refused(by app: AppID?, reason: String?) {
        guard let s = session, s.mode != .external, s.awaitingConfirmation == nil else { return }
        if let reason {
            finishFailed(DropFailure(.failed, reason))
            return
        }
        let items: MessageArgument = .text(Announcements.describe(sessionItems()))
        finishFailed(
            DropFailure(
                .failed,
                formatted: app.map {
                    Localization.format(.appDidNotTake, ["app": .name($0.rawValue), "items": items])
                } ?? Localization.format(.otherAppDidNotTake, ["items": items])))
    }

    func start(
        items ids: [TargetID], at point: Point?, mode: DragMode, modifiers: DragModifiers, container: TargetID? = nil
    ) throws(DragError) {
        guard !ids.isEmpty else { throw .noItems }
        pendingSourceAllows = .all  // said for a drag from another app that never entered
        // Items scrolled out of a virtualized list are not registered: their model-backed
        // container vouches for them.
        let modelContainer = container ?? registry.modelContainer(ofFirstRegistered: ids)
        // One pass over the selection inside the registry; the drag items are built when first
        // needed (F1: a lift of 50,000 items must still show its preview within a frame; see
        // Benchmarks/).
        let begun = try registry.beginDrag(of: ids, modelContainer: modelContainer, name: modelItemName)
        let preview = PreviewState(count: begun.ids.count, badge: .none)
        session = ActiveSession(
            builtItems: nil, ids: begun.ids, slots: begun.slots, itemIDs: nil, masks: begun.masks,
            masksGeneration: registry.typesGeneration, mode: mode, sourceApps: begun.apps, pointer: point,
            modifiers: modifiers, preview: preview,
            sourcesNotLeft: mode == .keyboard ? [] : begun.containers.compactMap { $0 },
            sourceContainers: begun.containers, itemsMovable: begun.movable,
            modelContainer: begun.slots.contains { $0 < 0 } ? modelContainer : nil)
        sessionsStarted &+= 1
        session?.serial = sessionsStarted
        offeredCancellation = nil
        emit(.lifted(items: begun.ids, at: point ?? .zero, mode: mode))
        emit(.preview(preview))
        let pickedUp = Announcement.pickedUp(
            count: begun.ids.count, kind: begun.sharedKind ?? .item, name: begun.firstName)
        if mode == .keyboard {
            let points = keyboardPoints()
            session?.keyboard = KeyboardNavigation(points: points, focus: nil, membershipVersion: membershipVersion)
            var route = keyboardRoute(points)
            let count = route.reachableCount()
            let items =
                begun.ids.count == 1
                ? Announcements.quoted(begun.firstName) : (begun.sharedKind ?? .item).counted(begun.ids.count)
            announce(Localization.format(.pickedUpWithDropPoints, count: count, ["items": .text(items)]), force: true)
        } else {
            announce(pickedUp)
            if let point { update(at: point) }
        }
    }

    func dragItem(_ id: TargetID) throws(DragError) -> DragItem {
        guard let target = registry.target(id), target.isSource else { throw .notDraggable(id) }
        let container = registry.ancestors(of: id).first { registry.target($0)?.isDestination == true }
        return DragItem(
            id: id, name: target.name, kind: target.kind, types: target.offers, sourceContainer: container,
            app: registry.app(of: id) ?? app)
    }

    /// Adds items to the running drag (M2). Items already in it are ignored. Returns the items
    /// actually added.
    @discardableResult
    public func addItems(_ ids: [TargetID]) throws(DragError) -> [TargetID] {
        guard let mode = session?.mode, mode != .external else { throw .noDrag }
        let current = sessionItems()
        guard var s = session else { throw .noDrag }
        var added: [DragItem] = []
        var seen = Set(current.map(\.id))
        for id in ids where seen.insert(id).inserted {
            added.append(try dragItem(id))
        }
        guard !added.isEmpty else { return [] }
        let all = current + added
        s.builtItems = all
        s.ids += added.map(\.id)
        s.itemIDs = seen
        s.sourceContainers = ActiveSession.distinctContainers(all)
        s.sourceApps = ActiveSession.distinctApps(all)
        if added.contains(where: { registry.target($0.id)?.isMovable == false }) { s.itemsMovable = false }
        registry.markInSession(added.map(\.id), true)
        s.masks = registry.sessionMasks(for: s.ids, modelContainer: s.modelContainer)
        s.masksGeneration = registry.typesGeneration
        for item in added {
            if let c = item.sourceContainer, !s.sourcesNotLeft.contains(c), let p = s.pointer,
                registry.target(c)?.frame.contains(p) == true
            {
                s.sourcesNotLeft.append(c)
            }
        }
        session = s
        emit(.itemsAdded(added.map(\.id)))
        announce(Announcements.added(added, total: all))
        if let p = s.pointer, s.mode == .pointer {
            update(at: p, force: true)
        } else if s.mode == .keyboard {
            // The drop points are those that take every item, the new ones too (C4, F4).
            refreshKeyboardPoints(force: true)
        } else {
            retarget(to: s.destination, info: s.destinationInfo, force: true)
        }
        return added.map(\.id)
    }

    // MARK: Time

    /// Handles everything due at the clock's current time: touch hold, spring loading,
    /// autoscroll steps, and re-resolution after frames changed under a still pointer.
    public func tick() {
        let now = clock.now
        while let d = lift.deadline, d <= now {
            let action = lift.tick(now: now)
            handleLift(action)
            if action == .none { break }
        }
        while let d = spring.deadline, d <= now {
            let action = spring.tick(now: now)
            handleSpring(action)
            if action == .none { break }
        }
        if let d = autoscroll.deadline, d <= now { handleAutoscroll(autoscroll.tick(now: now)) }
        if resolveIsDue {
            if session?.mode == .keyboard {
                needsResolve = false
                refreshKeyboardPoints()
            } else if let p = session?.pointer {
                update(at: p)
            }
        }
    }

    // MARK: Ending drags

    /// Cancels the drag in progress (Escape): nothing changes; the content returns (F7).
    /// Returns how it ended (``DropOutcome/returnToSource(_:)`` or, far from the source,
    /// ``DropOutcome/evaporate(_:)``); nil when no drag was in progress.
    @discardableResult
    public func cancelDrag() -> DropOutcome? {
        returningOutcome { cancel() }
    }

    func cancel() {
        guard let s = session else {
            lift.reset()
            pressedControl = nil
            return
        }
        if s.awaitingConfirmation != nil {
            answerConfirmation(false)
            return
        }
        if s.mode == .external {
            externalDragExited()
            return
        }
        clearTransientFeedback()
        finishFailed(DropFailure(.cancelled, formatted: Localization.format(.dragCancelled)))
    }

    /// Answers the confirmation of an irreversible drop (U2): `true` performs it, `false`
    /// leaves everything as it was. Returns how the drag ended (nil when no drop waited for its
    /// confirmation, or when the accepted drop loads later: its outcome comes when it lands).
    @discardableResult
    public func confirmDrop(_ accepted: Bool) -> DropOutcome? {
        returningOutcome { answerConfirmation(accepted) }
    }

    func answerConfirmation(_ accepted: Bool) {
        guard let request = session?.awaitingConfirmation else { return }
        session?.awaitingConfirmation = nil
        if accepted {
            perform(request)
        } else {
            request.data.finish()
            finishFailed(
                DropFailure(
                    .declined,
                    formatted: Localization.format(
                        .notConfirmed, ["destination": .name(destinationName(request.destination))])))
        }
    }

    /// Takes back the last drop through the cancellation its destination offered (U3). Not
    /// during a drag (returns false), like undo.
    public func useCancellation() -> Bool {
        guard session == nil, let offer = offeredCancellation else { return false }
        offeredCancellation = nil
        // The cancellation takes back the destination's side; a move must also put the items
        // back in their source, or taking the drop back would lose them (S4). Reverse order of
        // the drop, as undo does: the source's removal came last, so it is reverted first.
        offer.restoreSource?.undo()
        offer.cancellation.perform()
        emit(.cancellationUsed(offer.target))
        announce(Localization.format(.cancellationDone, ["action": .name(offer.cancellation.title)]))
        return true
    }

    func finishFailed(_ failure: DropFailure) {
        guard let s = session else { return }
        // The source is where the first item sits on screen: its container if it has one, or
        // the item itself when it lies in a list that takes no drops. Another app's items are
        // not registered here, so they evaporate.
        // Only the first item is needed: when the items were never built, build just that one.
        let first =
            s.builtItems?.first
            ?? registry.dragItems(slots: Array(s.slots.prefix(1)), ids: Array(s.ids.prefix(1)), name: modelItemName)
            .first
        let sourceVisible = s.mode != .external && first.map { registry.isShown($0.sourceContainer ?? $0.id) } ?? false
        endSession()
        emit(.outcome(sourceVisible ? .returnToSource(failure) : .evaporate(failure)))
        announce(Announcements.failed(s.builtItems ?? first.map { [$0] } ?? [], failure), force: s.mode == .keyboard)
    }

    func endSession() {
        guard let s = session else { return }
        clearTransientFeedback()
        registry.markInSession(s.ids, false)
        session = nil
        externalProviders = nil
        lift.reset()
        pressedSource = nil
        needsResolve = false
    }

    /// Turns off highlight, insertion indicator, spring loading and autoscroll.
    func clearTransientFeedback() {
        guard session != nil else { return }
        // Changed in place before each event, as in `retarget`: a delegate told may call back.
        if let h = session?.highlighted {
            session?.highlighted = nil
            emit(.highlight(h, on: false))
        }
        hideOutlinePoint()
        if let ins = session?.insertion {
            session?.insertion = nil
            emit(.insertion(ins.container, index: nil))
        }
        if session?.keyboard?.focus != nil {
            session?.keyboard?.focus = nil
            emit(.keyboardFocus(nil, index: nil))
        }
        handleSpring(spring.reset())
        handleAutoscroll(autoscroll.reset())
    }

    // MARK: The move path

    func handleLift(_ action: LiftStateMachine.Action) {
        switch action {
        case .lift(_, let at):
            guard let source = pressedSource else {
                lift.reset()
                return
            }
            let ids = delegate?.dragEngine(self, itemsForDragStartingAt: source) ?? [source]
            do {
                try start(items: ids.isEmpty ? [source] : ids, at: at, mode: .pointer, modifiers: heldModifiers)
            } catch {
                lift.reset()
            }
        case .abandon:
            pressedSource = nil
        case .click(let at):
            emit(.clicked(registry.resolve(at: at).topHit))
        case .none:
            break
        }
    }

    /// Re-resolves everything at `point`. Allocation-free when nothing changes.
    func update(at point: Point, force: Bool = false) {
        guard session != nil else { return }
        needsResolve = false
        // Mutate the stored session in place: a mutated copy would copy its arrays (allocate).
        session!.pointerMoved = session!.pointer != point
        session!.pointer = point
        if session!.masksGeneration != registry.typesGeneration {
            session!.masks =
                session!.mode == .external
                ? registry.masks(forOffered: (session!.builtItems ?? []).map(\.types))
                : registry.sessionMasks(for: session!.ids, modelContainer: session!.modelContainer)
            session!.masksGeneration = registry.typesGeneration
        }
        if session!.sourcesNotLeft.contains(where: { registry.target($0)?.frame.contains(point) != true }) {
            session!.sourcesNotLeft.removeAll { registry.target($0)?.frame.contains(point) != true }
        }
        let s = session!
        let r = registry.resolve(at: point, session: s.masks)
        if force || r.destination != s.destination {
            retarget(to: r.destination, info: r.destination.map(destinationInfo), force: force)
        } else {
            retarget(to: s.destination, info: s.destinationInfo)
        }
        if let spring = r.springLoaded {
            handleSpring(
                self.spring.hover(
                    over: spring, configuration: registry.target(spring)?.springLoading ?? .init(), now: clock.now))
        } else {
            handleSpring(self.spring.hover(over: nil, configuration: .init(), now: clock.now))
        }
        let container = r.scrollContainer.flatMap {
            id -> (target: TargetID, frame: Rect, configuration: AutoscrollConfiguration)? in
            guard let t = registry.target(id), let config = t.autoscroll else { return nil }
            return (id, t.frame, config)
        }
        handleAutoscroll(autoscroll.pointerMoved(to: point, container: container, now: clock.now))
    }

    func destinationInfo(_ id: TargetID) -> DestinationInfo {
        let t = registry.target(id)
        return DestinationInfo(
            name: t?.name ?? id.rawValue, app: registry.app(of: id) ?? app, policy: t?.operationPolicy ?? .automatic,
            takesMovesFromOtherApps: t?.takesMovesFromOtherApps ?? false, insertion: t?.insertion,
            outline: t?.outline, confirmation: t?.confirmation)
    }

    func destinationName(_ id: TargetID) -> String { registry.target(id)?.name ?? id.rawValue }

    /// Where a drop went, as its sentences name it: the row of an outline it went into, else
    /// the destination.
    func destinationName(of request: DropRequest) -> String {
        request.placeName ?? destinationName(request.destination)
    }

    /// Applies a (possibly unchanged) destination: proposal, badge, highlight, insertion index.
    /// `announceAlways`: say where the drag is even when the proposal did not change (the
    /// keyboard moved from one drop point to another that is not a destination either);
    /// `quiet`: say nothing (the keyboard focus scrolled away while the next point comes).
    func retarget(
        to destination: TargetID?, info: DestinationInfo?, force: Bool = false, spokenName: String? = nil,
        announceAlways: Bool = false, quiet: Bool = false
    ) {
        guard let s = session else { return }
        // The session is changed in place, each change before the event that tells of it: a
        // delegate told of an event may call the engine back (end the drag, or change the
        // modifiers, which retargets again), and what it did stands. Once the drag it started
        // on is over, or a later retarget ran, this call stops.
        retargetsStarted &+= 1
        let serial = s.serial
        let retarget = retargetsStarted
        var current: Bool { session?.serial == serial && retargetsStarted == retarget }
        // An outline places the drop between rows or on one, and refuses one inside a dragged
        // item (T1, T3); nil for other destinations (and an outline whose delegate gives no tree).
        let placement = destination.flatMap { d in info?.outline.flatMap { outlinePlacement(in: d, layout: $0) } }
        guard current else { return }
        let operation: DropOperation
        if let refusal = placement?.refusal {
            operation = .forbidden(reason: refusal)
        } else if let destination, let info {
            // S2: an item from any other app than the destination's makes the drop cross apps.
            let sourceApp = s.sourceApps.first { $0 != info.app } ?? info.app
            operation = OperationRules.propose(
                sourceContainers: s.sourceContainers, sourceApp: sourceApp, destination: destination,
                destinationApp: info.app, policy: info.policy, modifiers: s.modifiers,
                itemsMovable: s.itemsMovable, takesMovesFromOtherApps: info.takesMovesFromOtherApps,
                sourceAllows: s.sourceAllows, destinationName: info.name)
        } else {
            operation = .cancel
        }
        let destinationChanged = destination != s.destination
        // Feedback for the old destination goes first (F4, F5: one at a time).
        if destinationChanged, let old = s.insertion {
            session?.insertion = nil
            emit(.insertion(old.container, index: nil))
            guard current else { return }
        }
        if destinationChanged, session?.outline?.container != destination {
            hideOutlinePoint()
            guard current else { return }
        }
        var wanted: TargetID? = nil
        if let destination, operation.isPerformable, !s.sourcesNotLeft.contains(destination) { wanted = destination }
        if let old = session?.highlighted, wanted != old {
            session?.highlighted = nil
            emit(.highlight(old, on: false))
            guard current else { return }
        }
        if let new = wanted, session?.highlighted != new {
            session?.highlighted = new
            emit(.highlight(new, on: true))
            guard current else { return }
        }
        let proposalChanged = destinationChanged || operation != s.operation
        session?.destination = destination
        session?.destinationInfo = info
        session?.operation = operation
        if proposalChanged || force {
            emit(.proposal(destination: destination, operation: operation))
            guard current else { return }
        }
        let preview = PreviewState(count: s.count, badge: operation.badge)
        if preview != session?.preview {
            session?.preview = preview
            emit(.preview(preview))
            guard current else { return }
        }
        // An outline shows where the drop lands: between two rows at a depth, or on a row (T1).
        let shownPoint = session?.outline?.shown
        if let destination, let placement {
            showOutlinePoint(operation.isPerformable ? placement.point : nil, in: destination)
            guard current else { return }
        }
        let pointChanged = placement != nil && session?.outline?.shown != shownPoint
        // Rows make room where the drop would land (F8).
        if let destination, operation.isPerformable, let layout = info?.insertion, placement == nil {
            let point = s.mode == .keyboard ? nil : s.pointer
            func indexAt(_ point: Point?) -> Int? {
                if let delegate {
                    delegate.dragEngine(self, insertionIndexIn: destination, at: point)
                } else {
                    insertionIndex(in: destination, at: point)
                }
            }
            var index = indexAt(point)
            guard current else { return }
            let shown = session?.insertion
            // Hysteresis (F8): the insertion moves to a neighbouring place only once the pointer
            // is `insertionHysteresis` past the boundary; asked only when the place changed and
            // the pointer moved (rows scrolling under a still pointer move it at once).
            let band = configuration.insertionHysteresis
            if let new = index, let point, band > 0, layout != .grid, s.pointerMoved, shown?.container == destination,
                let old = shown?.index, old != new
            {
                let offset = layout == .vertical ? Vector(dx: 0, dy: band) : Vector(dx: band, dy: 0)
                let before = indexAt(Point(x: point.x - offset.dx, y: point.y - offset.dy))
                guard current else { return }
                let after = indexAt(Point(x: point.x + offset.dx, y: point.y + offset.dy))
                guard current else { return }
                if before == old || after == old { index = old }
            }
            if let index, shown?.index != index || shown?.container != destination {
                session?.insertion = (destination, index)
                emit(.insertion(destination, index: index))
            } else if index == nil, let old = shown {
                session?.insertion = nil
                emit(.insertion(old.container, index: nil))
            }
        } else if let old = session?.insertion {
            session?.insertion = nil
            emit(.insertion(old.container, index: nil))
        }
        guard current else { return }
        if (proposalChanged || force || announceAlways || pointChanged) && !quiet {
            // Formatted only if someone reads it: no string is built on the move path.
            if let drag = session?.outline, let point = drag.shown, operation.isPerformable {
                // "After Budget, inside Work. Will move." (T5)
                announce(.place(point, in: drag.tree, operation), force: s.mode == .keyboard)
            } else {
                // A refused row of an outline is named, not the outline ("Over Sent, …").
                let row = placement?.row.flatMap { row in session?.outline.map { $0.tree.name(of: row) } }
                announce(.over(spokenName ?? row ?? info?.name, operation), force: s.mode == .keyboard)
            }
        }
    }

    func handleSpring(_ action: SpringLoadingStateMachine<TargetID>.Action) {
        switch action {
        case .none: break
        case .armed(let t):
            emit(.springArmed(t))
            // Over something that only opens (SP1): say so, rather than "Not over a drop point."
            if let s = session, s.destination == nil, s.mode != .keyboard {
                announce(.springHover(destinationName(t)))
            }
        case .flash(let t): emit(.springFlash(t))
        case .disarmed(let t): emit(.springDisarmed(t))
        case .activate(let t, let explicit):
            emit(.springActivated(t, explicit: explicit))
            delegate?.dragEngine(self, activate: t, explicit: explicit)
            announce(.sprang(destinationName(t)), force: session?.mode == .keyboard)
            if session != nil { needsResolve = true }
        }
    }

    func handleSpring(_ transition: SpringLoadingStateMachine<TargetID>.Transition) {
        handleSpring(transition.ended)
        handleSpring(transition.started)
    }

    func handleAutoscroll(_ action: AutoscrollStateMachine<TargetID>.Action) {
        switch action {
        case .none: break
        case .started(let t): emit(.autoscrollStarted(t))
        case .stopped(let t): emit(.autoscrollStopped(t))
        case .scroll(let t, let delta):
            let applied = delegate?.dragEngine(self, scroll: t, by: delta) ?? .zero
            autoscroll.stepApplied(applied)
            if !applied.isZero {
                emit(.autoscrolled(t, by: applied))
                needsResolve = true
            }
        }
    }

    func emit(_ event: FeedbackEvent) {
        if case .outcome(let outcome) = event {
            outcomesEmitted += 1
            lastEmittedOutcome = outcome
        }
        delegate?.dragEngine(self, emitted: event)
    }

    /// Runs `body` (a call that may end the drag) and returns the outcome it emitted, if any (the
    /// latest, should a host's call back end another drag inside it).
    func returningOutcome(_ body: () -> Void) -> DropOutcome? {
        let mark = outcomesEmitted
        body()
        return outcomesEmitted == mark ? nil : lastEmittedOutcome
    }

    func announce(_ announcement: Announcement, force: Bool = false) {
        guard force || configuration.announcePointerDrags || session?.mode == .keyboard else { return }
        emit(.announcement(announcement))
    }

    func announce(_ sentence: String, force: Bool = false) { announce(Announcement(sentence), force: force) }
}
