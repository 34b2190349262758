import DragDrop

/// Something left unfinished when a test ended.
public struct PendingWorkError: Error, CustomStringConvertible, Equatable {
    /// One line per leftover: an open drag, a highlight still on, a timer still armed...
    public var leftovers: [String]
    public var description: String { "Left pending at the end of the test:\n- " + leftovers.joined(separator: "\n- ") }
}

/// Receives every timeline entry as it happens, with the live scene (the auditor uses this).
public protocol TimelineObserver: AnyObject {
    /// An entry was recorded.
    func observe(_ entry: TimelineEntry, scene: Scene, engine: DragEngine)
    /// An input and everything it caused have been handled.
    func inputHandled(_ input: InputEvent, at time: MonotonicInstant, scene: Scene, engine: DragEngine)
}

/// The fake platform: drives a ``DragEngine`` with scripted pointer and key input on a
/// ``VirtualClock``, keeps a ``Scene`` registered in it, and records a timeline of everything a
/// person would see. Like NIO's `EmbeddedEventLoop`, time moves only when the test says so, and
/// ``finish()`` reports anything left pending.
///
/// ```swift
/// let harness = try DragHarness(scene: Scene([...]))
/// harness.press(at: Point(x: 10, y: 10))
/// harness.move(to: Point(x: 14, y: 10))      // lifts (F1)
/// harness.advance(by: .milliseconds(700))    // spring loading fires on the virtual clock
/// harness.release()
/// try harness.finish()
/// ```
public final class DragHarness: DragEngineDelegate {
    /// The virtual clock the engine reads.
    public let clock: VirtualClock
    /// The engine under test.
    public let engine: DragEngine
    /// The app model the drops change.
    public let scene: Scene
    /// Everything that happened, in order.
    public private(set) var timeline: [TimelineEntry] = []
    /// Observers told of every entry (an auditor).
    public var observers: [any TimelineObserver] = []
    /// Called with every feedback event, inside the engine's call, after the harness recorded
    /// it: what a host does when told (it may call the engine back, as a GTK host does).
    public var onFeedback: ((FeedbackEvent) -> Void)?
    /// Where the pointer is.
    public private(set) var pointer = Point.zero
    private var highlighted: Set<TargetID> = []
    private var syncError: SceneError?

    /// Creates a harness for `scene`, registered in a new engine for `app`.
    public init(
        scene: Scene, app: AppID = "App", configuration: DragEngine.Configuration = .init(),
        conformance: TypeConformance = TypeConformance()
    ) throws(SceneError) {
        clock = VirtualClock()
        engine = DragEngine(app: app, clock: clock, configuration: configuration, conformance: conformance)
        self.scene = scene
        engine.delegate = self
        try scene.sync(into: engine)
    }

    // MARK: Input

    /// Presses the pointer at `point`.
    public func press(at point: Point, kind: PointerKind = .mouse) {
        pointer = point
        input(.pointerDown(point, kind: kind)) { engine.pointerDown(at: point, kind: kind) }
    }

    /// Moves the pointer to `point` in one step.
    public func move(to point: Point) {
        pointer = point
        input(.pointerMove(point)) { engine.pointerMoved(to: point) }
    }

    /// Moves the pointer to `point` in `steps` even steps spread over `duration` of virtual time.
    public func move(to point: Point, steps: Int, over duration: Duration = .zero) {
        let start = pointer
        let n = max(1, steps)
        for i in 1...n {
            let f = Double(i) / Double(n)
            if duration > .zero { advance(by: duration / n) }
            move(to: Point(x: start.x + (point.x - start.x) * f, y: start.y + (point.y - start.y) * f))
        }
    }

    /// Releases the pointer where it is, or at `point`; returns how the drag ended there, as
    /// ``DragEngine/pointerUp(at:)`` does (nil: no drag ended).
    @discardableResult
    public func release(at point: Point? = nil) -> DropOutcome? {
        let p = point ?? pointer
        pointer = p
        var outcome: DropOutcome?
        input(.pointerUp(p)) { outcome = engine.pointerUp(at: p) }
        return outcome
    }

    /// Changes the held modifier keys.
    public func setModifiers(_ modifiers: DragModifiers) {
        input(.modifiers(modifiers)) { engine.modifiersChanged(modifiers) }
    }

    /// Presses a key; returns what it did.
    @discardableResult
    public func key(_ key: DragKey) -> KeyResult {
        var result = KeyResult.ignored
        input(.key(key)) { result = engine.keyDown(key) }
        return result
    }

    /// A second touch or click at `point` (M2).
    public func tap(at point: Point) {
        input(.tap(point)) { engine.tap(at: point) }
    }

    /// Selects items for dragging together (M1).
    public func select(_ items: [TargetID]) {
        input(.select(items)) { scene.selection = items }
    }

    /// Picks up items with the keyboard (C4).
    public func pickUp(_ items: [TargetID]) throws(DragError) {
        var thrown: DragError?
        input(.pickUp(items)) {
            do throws(DragError) { try engine.beginKeyboardDrag(items: items) } catch { thrown = error }
        }
        if let thrown { throw thrown }
    }

    /// Answers a confirmation (U2); returns how the drag ended, as
    /// ``DragEngine/confirmDrop(_:)`` does.
    @discardableResult
    public func confirm(_ accepted: Bool) -> DropOutcome? {
        var outcome: DropOutcome?
        input(.confirm(accepted)) { outcome = engine.confirmDrop(accepted) }
        return outcome
    }

    /// Undo (U1).
    public func undo() { input(.undo) { engine.undo() } }

    /// Redo (U1).
    public func redo() { input(.redo) { engine.redo() } }

    /// Uses the cancellation offered after a drop (U3).
    public func cancelAfterDrop() { input(.cancelAfterDrop) { _ = engine.useCancellation() } }

    /// Cancels a drop still loading (A4, A6): its placeholders go, nothing else changes.
    public func cancelLoad(_ token: DropToken) { input(.cancelLoad(token)) { engine.cancelDeferredDrop(token) } }

    /// A drag from another app enters at `point`.
    public func externalDragEnter(_ items: [DragItem], at point: Point) throws(DragError) {
        pointer = point
        var thrown: DragError?
        input(.externalDragEnter(items, at: point)) {
            do throws(DragError) { try engine.beginExternalDrag(items: items, at: point) } catch { thrown = error }
        }
        if let thrown { throw thrown }
    }

    /// The drag from another app leaves without dropping.
    public func externalDragExit() { input(.externalDragExit) { engine.externalDragExited() } }

    /// Says what the drag from another app allows (before it enters, or during it).
    public func otherAppAllows(_ operations: DropOperations) {
        input(.otherAppAllows(operations)) { engine.otherAppAllows(operations) }
    }

    // MARK: Time

    /// Moves virtual time forward by `duration`, waking the engine at every deadline on the way.
    public func advance(by duration: Duration) { advance(to: clock.now + duration) }

    /// Moves virtual time forward to `instant`, waking the engine at every deadline on the way
    /// and stepping simulated transfers.
    public func advance(to instant: MonotonicInstant) {
        var guardCount = 0
        while true {
            let engineDeadline = engine.nextDeadline
            let transferDeadline = nextTransferStep
            guard let deadline = [engineDeadline, transferDeadline.map(\.at)].compactMap({ $0 }).min(),
                deadline <= instant
            else { break }
            clock.set(max(deadline, clock.now))
            if let step = transferDeadline, step.at == deadline {
                stepTransfer(step.token)
            } else {
                engine.tick()
            }
            resync()
            guardCount += 1
            precondition(guardCount < 1_000_000, "the engine keeps asking to be woken at \(deadline)")
        }
        if instant > clock.now { clock.set(instant) }
    }

    // MARK: Simulated transfers

    private struct RunningTransfer {
        var plan: SimulatedTransfer
        var start: MonotonicInstant
        var step = 0
    }

    private var transfers: [DropToken: RunningTransfer] = [:]

    private var nextTransferStep: (token: DropToken, at: MonotonicInstant)? {
        transfers.map { token, t in (token, t.start + t.plan.duration * (Double(t.step + 1) / Double(t.plan.steps))) }
            .min { $0.1 < $1.1 || ($0.1 == $1.1 && $0.0.rawValue < $1.0.rawValue) }
    }

    private func stepTransfer(_ token: DropToken) {
        guard var t = transfers[token] else { return }
        t.step += 1
        let fraction = Double(t.step) / Double(t.plan.steps)
        if let failAt = t.plan.failAt, fraction >= failAt {
            transfers[token] = nil
            if let result = scene.finishDeferred(token, succeeded: false) {
                engine.completeDeferredDrop(token, with: result)
            }
            needsSync = true
            return
        }
        engine.updateDeferredDrop(token, progress: fraction)
        if t.step >= t.plan.steps {
            transfers[token] = nil
            if let result = scene.finishDeferred(token, succeeded: true) {
                engine.completeDeferredDrop(token, with: result)
            }
            needsSync = true
        } else {
            transfers[token] = t
        }
    }

    private func input(_ event: InputEvent, _ body: () -> Void) {
        // Deadlines that fell due are handled before the input, as a real event loop would.
        advance(to: clock.now)
        record(.input(event))
        body()
        resync()
        // So are deadlines the input itself made due (a re-resolution after the scene changed
        // under a still pointer): a real event loop wakes the engine before the next event.
        advance(to: clock.now)
        for observer in observers { observer.inputHandled(event, at: clock.now, scene: scene, engine: engine) }
    }

    private var needsSync = false

    private func resync() {
        guard needsSync else { return }
        needsSync = false
        do { try scene.sync(into: engine) } catch { syncError = error }
    }

    private func record(_ event: TimelineEntry.Event) {
        let entry = TimelineEntry(time: clock.now, event: event)
        timeline.append(entry)
        for observer in observers { observer.observe(entry, scene: scene, engine: engine) }
    }

    // MARK: Finishing

    /// Throws if anything is left pending: an open drag, a confirmation not answered, a highlight
    /// still on, an armed timer, or a scene that failed to re-register.
    public func finish() throws(PendingWorkError) {
        var leftovers: [String] = []
        if let s = engine.currentSession {
            leftovers.append(
                s.awaitingConfirmation
                    ? "a drop is waiting for confirmation" : "a drag of \(s.items.count) item(s) is still in progress")
        }
        for h in highlighted.sorted() { leftovers.append("the highlight on '\(h)' is still on") }
        if let d = engine.nextDeadline { leftovers.append("the engine still wants to be woken at \(d)") }
        for token in engine.pendingDeferredDrops { leftovers.append("\(token) is still loading") }
        if let e = syncError { leftovers.append("the scene failed to re-register: \(e)") }
        if !leftovers.isEmpty { throw PendingWorkError(leftovers: leftovers) }
    }

    /// The feedback events recorded so far, without inputs.
    public var feedback: [FeedbackEvent] {
        timeline.compactMap { if case .feedback(let f) = $0.event { return f } else { return nil } }
    }

    /// The timeline as JSON lines.
    public var jsonLines: [String] { timeline.map(\.json.serialized) }

    // MARK: DragEngineDelegate

    public func dragEngine(_ engine: DragEngine, itemsForDragStartingAt item: TargetID) -> [TargetID] {
        scene.itemsForDrag(startingAt: item)
    }

    public func dragEngine(_ engine: DragEngine, perform drop: DropRequest) -> DropResult {
        let result = scene.perform(drop)
        switch result {
        case .committed: needsSync = true
        case .deferred:
            needsSync = true
            if let plan = scene.node(drop.destination)?.transfer {
                transfers[drop.token] = RunningTransfer(plan: plan, start: clock.now)
            }
        case .failed: break
        }
        return result
    }

    public func dragEngine(_ engine: DragEngine, removeMovedItems items: [DragItem], after drop: DropRequest)
        -> UndoableAction?
    {
        needsSync = true
        let action = scene.removeMoved(items)
        return action.map { a in
            UndoableAction(
                undo: { [weak self] in
                    a.undo()
                    self?.needsSync = true
                },
                redo: { [weak self] in
                    a.redo()
                    self?.needsSync = true
                })
        }
    }

    public func dragEngine(_ engine: DragEngine, itemsMovedToOtherApp items: [DragItem], app: AppID?) -> [TargetID] {
        let removed = scene.removeLeaving(items)
        if !removed.isEmpty { needsSync = true }
        return removed
    }

    public func dragEngine(_ engine: DragEngine, cancelDeferredDrop drop: DropRequest) {
        transfers[drop.token] = nil
        scene.cancelDeferred(drop.token)
        needsSync = true
    }

    public func dragEngine(_ engine: DragEngine, activate target: TargetID, explicit: Bool) {
        scene.activate(target)
        needsSync = true
    }

    public func dragEngine(_ engine: DragEngine, scroll container: TargetID, by delta: Vector) -> Vector {
        let applied = scene.scroll(container, by: delta)
        if !applied.isZero {
            try? engine.offsetDescendants(of: container, by: Vector(dx: -applied.dx, dy: -applied.dy))
            // Then the frames as laid out, like a platform that reports allocations: offsets added
            // step after step drift by rounding, and a row edge under the pointer would differ.
            needsSync = true
        }
        return applied
    }

    public func dragEngine(_ engine: DragEngine, emitted event: FeedbackEvent) {
        switch event {
        case .highlight(let t, let on):
            if on { highlighted.insert(t) } else { highlighted.remove(t) }
        case .clicked(let t):
            if let t, let node = scene.node(t), node.role == .control {
                scene.activate(t)
                needsSync = true
            }
        case .undid, .redid, .cancellationUsed:
            needsSync = true
        default: break
        }
        record(.feedback(event))
        onFeedback?(event)
    }
}
