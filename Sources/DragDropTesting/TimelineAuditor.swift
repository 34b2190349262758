import DragDrop

/// A rule broken in a timeline.
public struct Violation: Sendable, Hashable, CustomStringConvertible {
    /// The rule ID from HIG-REQUIREMENTS.md ("F5").
    public var rule: String
    /// When it was broken (virtual time).
    public var time: MonotonicInstant
    /// What was wrong, for a person.
    public var message: String

    /// Creates a violation.
    public init(rule: String, time: MonotonicInstant, message: String) {
        self.rule = rule
        self.time = time
        self.message = message
    }

    /// One line: "F5 at 1.25s: …".
    public var description: String { "\(rule) at \(time.seconds)s: \(message)" }
}

/// Checks a timeline, as it is recorded, against every rule a timeline can show.
///
/// Attach it to a ``DragHarness`` (`harness.observers.append(auditor)`): it sees every input and
/// every piece of feedback as it happens, together with the live ``Scene``, and reports each
/// broken rule as a ``Violation`` naming the rule, the virtual time and the targets and values
/// involved. Call ``finish(scene:engine:)`` at the end of the run.
///
/// The auditor is an *independent* checker: it never asks the engine what should happen. It
/// keeps its own record of the session (the dragged items and their types, source containers
/// and apps, the pointer, the current proposal and preview, highlights, spring-loading and
/// autoscroll state, scene snapshots for undo) and recomputes every expectation from the scene
/// model with brute-force scans: the topmost node under the pointer in paint order, the
/// innermost destination accepting every item through ``TypeConformance``, the default
/// operation from policies, apps and modifiers. Reading `engine.app` and `engine.clock` is all
/// it takes from the engine.
///
/// ```swift
/// let harness = try DragHarness(scene: scene)
/// let auditor = TimelineAuditor()
/// harness.observers.append(auditor)
/// harness.press(at: p); harness.move(to: q, steps: 5); harness.release()
/// auditor.finish(scene: harness.scene, engine: harness.engine)
/// #expect(auditor.violations.isEmpty)
/// ```
///
/// Cost: every entry that needs geometry rebuilds a view of the scene, O(nodes × depth), and hit
/// tests scan every node: meant for tests and timeline audits, not for production.
public final class TimelineAuditor: TimelineObserver {
    /// The rules this auditor checks.
    public static let rules = ["F1", "F4", "F5", "F6", "F7", "S2", "S3", "S4", "SP1", "A1", "A4", "A6", "U1", "T3"]
    /// What was found so far.
    public internal(set) var violations: [Violation] = []

    /// The lift threshold, hold duration and slop a lift must respect (F1).
    let liftConfiguration: LiftConfiguration
    /// Which types are kinds of which, to decide what a destination accepts (F4, F5).
    let conformance: TypeConformance

    // MARK: The auditor's own record

    /// Where the pointer is, from the inputs.
    var pointer: Point?
    /// Modifier keys held, from the inputs.
    var heldModifiers: DragModifiers = []
    /// What the next drag from another app allows, said before it entered (S2).
    var pendingOtherAppAllows: DropOperations = .all
    /// The press not yet released (F1).
    var press: AuditPress?
    /// The drag in progress.
    var drag: AuditDrag?
    /// The spring-loaded control hovered in this drag (SP1).
    var spring: AuditSpring?
    /// Spring-loaded controls disarmed and not armed again since (SP1).
    var disarmedSprings: Set<TargetID> = []
    /// Containers autoscrolling, and those already reported for not stopping (A1).
    var scrolling: [TargetID: AuditScroll] = [:]
    var scrollLeftReported: Set<TargetID> = []
    /// Completed drops that undo would revert, oldest first, and undone ones redo would apply (U1).
    var undoRecords: [AuditDropRecord] = []
    /// Drops waiting for their data (A4, A6).
    var deferred = AuditDeferred()
    var redoRecords: [AuditDropRecord] = []
    /// The input being handled (nil while the engine handles timers between inputs).
    var currentInput: InputEvent?
    /// The items of the last drag that entered from another app.
    var externalItems: [DragItem] = []
    /// How the last drag ended, for messages about late events.
    var lastEnding: String?
    /// Whether a missed lift was reported for the current press (reported once).
    var missedLiftReported = false

    // MARK: The entry being handled

    /// The virtual time of the entry being handled.
    var now: MonotonicInstant = .origin
    /// The engine's own app: nodes with no app up to their root belong to it.
    var engineApp: AppID = "App"
    private var currentScene: Scene?
    private var cachedView: SceneView?

    /// Creates an auditor using the same lift threshold and type conformance as the engine.
    public init(liftConfiguration: LiftConfiguration = .init(), conformance: TypeConformance = TypeConformance()) {
        self.liftConfiguration = liftConfiguration
        self.conformance = conformance
    }

    /// Checks one timeline entry, as it is recorded, against the live scene.
    public func observe(_ entry: TimelineEntry, scene: Scene, engine: DragEngine) {
        begin(scene: scene, engine: engine, at: entry.time)
        switch entry.event {
        case .input(let input):
            finishResolution()
            sceneMovedUnderPointer(entry.event)
            inputStarted(input)
        case .feedback(let feedback):
            if !isPartOfResolution(feedback) { finishResolution() }
            sceneMovedUnderPointer(entry.event)
            observeFeedback(feedback)
        }
    }

    /// Checks the state after an input and everything it caused (highlights still under the
    /// pointer, the innermost destination highlighted, badges matching proposals, spring loading
    /// and autoscroll following the pointer).
    public func inputHandled(_ input: InputEvent, at time: MonotonicInstant, scene: Scene, engine: DragEngine) {
        begin(scene: scene, engine: engine, at: time)
        inputFinished(input)
    }

    /// End-of-run checks (nothing left highlighted, every drag ended).
    public func finish(scene: Scene, engine: DragEngine) {
        begin(scene: scene, engine: engine, at: engine.clock.now)
        finishResolution()
        reportUnfinishedPlaceholders()
        guard let d = drag else { return }
        let what = d.dropped != nil ? "is waiting for confirmation of its drop" : "is still in progress"
        report(
            "F4",
            "the run ended while the \(d.mode.rawValue) drag of \(quoted(d.items.map(\.id))) \(what): it never ended with an outcome"
        )
        for h in d.highlighted { report("F4", "the highlight on '\(h)' is still on at the end of the run") }
        if let ins = d.insertion {
            report("F4", "the insertion indicator in '\(ins)' is still shown at the end of the run")
        }
        if let o = d.outline { report("F4", "the outline drop point in '\(o)' is still shown at the end of the run") }
    }

    /// F6: when the scene moved under a still pointer (autoscroll, a load arriving), the source
    /// containers the pointer is no longer over have been left. Checked once the drag in
    /// progress is back (after a load's commit), not in the middle of a commit, where a moved
    /// item is briefly in its source and its destination at once.
    private func sceneMovedUnderPointer(_ event: TimelineEntry.Event) {
        guard let scene = currentScene, scene.revision != sceneRevisionSeen, !isInsideCommit(event),
            deferred.resolving == nil
        else { return }
        sceneRevisionSeen = scene.revision
        if let p = pointer { pointerReached(p) }
    }

    /// Whether `event` comes between a destination's commit and the removal of moved items.
    private func isInsideCommit(_ event: TimelineEntry.Event) -> Bool {
        switch event {
        case .feedback(.placeholderResolved), .feedback(.committed), .feedback(.sourceRemoved): true
        default: false
        }
    }

    /// The violations of one rule.
    public func violations(of rule: String) -> [Violation] { violations.filter { $0.rule == rule } }

    // MARK: Plumbing

    private func begin(scene: Scene, engine: DragEngine, at time: MonotonicInstant) {
        if currentScene !== scene || engineApp != engine.app || scene.revision != cachedRevision {
            cachedView = nil
            cachedSnapshot = nil
        }
        currentScene = scene
        engineApp = engine.app
        now = time
    }

    /// The scene revision the source containers were last checked at (F6).
    private var sceneRevisionSeen = -1
    /// The revision of the scene the cached view and snapshot show.
    private var cachedRevision = -1
    private var cachedSnapshot: [TargetID: [TargetID]]?

    /// The scene as it is now, built on first use after the scene changed (its revision).
    var view: SceneView {
        guard let scene = currentScene else { preconditionFailure("TimelineAuditor: no scene before the first entry") }
        if let v = cachedView, cachedRevision == scene.revision { return v }
        let v = SceneView(scene: scene, defaultApp: engineApp)
        cachedView = v
        cachedSnapshot = nil
        cachedRevision = scene.revision
        return v
    }

    /// The scene's data (items of each container), as it is now, without the placeholders of
    /// loads: they show drops in progress, they are not data a drop, undo or failure changes.
    var snapshot: [TargetID: [TargetID]] {
        guard let scene = currentScene else { return [:] }
        if let s = cachedSnapshot, cachedRevision == scene.revision { return s }
        let s = scene.snapshot().mapValues { $0.filter { !scene.isPlaceholder($0) } }
        if cachedRevision != scene.revision { cachedView = nil }
        cachedSnapshot = s
        cachedRevision = scene.revision
        return s
    }

    /// The live scene, for checks that count its nodes.
    var sceneForChecks: Scene? { currentScene }

    /// The scene's items for a drag starting on `item` (its selection, M1).
    func itemsForDrag(startingAt item: TargetID) -> [TargetID] {
        currentScene?.itemsForDrag(startingAt: item) ?? [item]
    }

    /// Records a violation of `rule` at the current time.
    func report(_ rule: String, _ message: String) {
        violations.append(Violation(rule: rule, time: now, message: message))
    }
}
