// Spring loading (SP1, SP3) as a pure state machine: no timers, no clock reads. Every event
// carries the current instant; the owner wakes the machine at `deadline` by calling `tick(now:)`.

/// Activates a spring-loaded control (button, tab, folder…) that dragged content hovers over
/// (SP1), or at once on an explicit gesture such as Space (SP3).
///
/// Life of one hover: ``hover(over:configuration:now:)`` arms the target; ``tick(now:)`` emits
/// ``Action/flash(_:)`` at `armedAt + delay - flashLead` and then
/// ``Action/activate(_:explicit:)`` at `armedAt + delay`, each exactly once. Leaving first
/// disarms. Once activated, the same target stays quiet until the pointer leaves it and comes
/// back, which arms it again.
///
/// The machine never reads a clock and never starts a timer; it publishes ``deadline`` and the
/// owner calls ``tick(now:)`` once `now >= deadline`. One tick emits at most one action, and a
/// late tick still emits the flash before the activation: after the flash, ``deadline`` is the
/// activation instant, which may already have passed. Owners therefore drain with
///
/// ```swift
/// while let d = spring.deadline, d <= now { handle(spring.tick(now: now)) }
/// ```
///
/// Deadlines are only acted on by ``tick(now:)``: an event delivered at or after ``deadline``
/// without a preceding drain is handled as if the deadline had not passed yet, so drain before
/// delivering each event.
///
/// SP2 (spring loading is never the only way) is the control's business: this machine only adds
/// the drag-time shortcut.
///
/// All operations are O(1) and allocation-free.
struct SpringLoadingStateMachine<Target: Hashable & Sendable>: Sendable {
    /// What the owner must do after an event.
    enum Action: Equatable, Sendable {
        /// Nothing.
        case none
        /// Hover began on a spring-loaded target: its activation timer started.
        case armed(Target)
        /// Activation is imminent: flash the target (SP1).
        case flash(Target)
        /// Activate the target (open the folder, switch the tab…) without dropping.
        /// `explicit` is `true` when Space was pressed (SP3), `false` when the delay elapsed.
        case activate(Target, explicit: Bool)
        /// The pointer left the target before it activated: the timer is cancelled (stop any
        /// flash).
        case disarmed(Target)
    }

    /// The result of ``SpringLoadingStateMachine/hover(over:configuration:now:)``, which can end
    /// one hover and start another in the same call. A fixed pair, so reporting both needs no
    /// allocation. Handle ``ended`` first, then ``started``.
    struct Transition: Equatable, Sendable {
        /// ``Action/disarmed(_:)`` for the previously hovered target if it was left before
        /// activating; otherwise ``Action/none``.
        var ended: Action
        /// ``Action/armed(_:)`` for the newly hovered target if a new hover began; otherwise
        /// ``Action/none``.
        var started: Action

        /// Creates a transition.
        init(ended: Action, started: Action) {
            self.ended = ended
            self.started = started
        }

        /// Nothing changed: both halves are ``Action/none``.
        static var unchanged: Transition { Transition(ended: .none, started: .none) }
    }

    /// The machine's state.
    private enum State: Sendable {
        /// Nothing spring-loaded is hovered.
        case idle
        /// `target` is hovered and its timer runs.
        /// - `flashAt`: when the flash is due (`activateAt - flashLead`, never before arming).
        /// - `activateAt`: when the delay ends.
        /// - `flashed`: whether ``Action/flash(_:)`` has been emitted.
        case armed(target: Target, flashAt: MonotonicInstant, activateAt: MonotonicInstant, flashed: Bool)
        /// `target` is still hovered but has already activated; it stays quiet until left.
        case activated(target: Target)
    }

    private var state: State = .idle

    /// Creates an idle machine.
    init() {}

    /// The pointer is now over `target` (`nil`: over nothing spring-loaded), whose timing is
    /// `configuration`.
    ///
    /// * Same target as before: ``Transition/unchanged``. The hover continues; small moves do not
    ///   restart the timer, and a changed configuration is ignored until the next hover.
    /// * Different target, or `nil`: the old hover ends, with ``Transition/ended`` =
    ///   ``Action/disarmed(_:)`` if the old target had not activated yet. A non-`nil` new target
    ///   is armed, with ``Transition/started`` = ``Action/armed(_:)``.
    mutating func hover(
        over target: Target?,
        configuration: SpringLoadingConfiguration,
        now: MonotonicInstant
    ) -> Transition {
        if let target, target == hoveredTarget { return .unchanged }

        var ended = Action.none
        if case .armed(let old, _, _, _) = state { ended = .disarmed(old) }

        guard let target else {
            state = .idle
            return Transition(ended: ended, started: .none)
        }
        let delay = max(.zero, configuration.delay)
        let lead = min(max(.zero, configuration.flashLead), delay)
        let activateAt = now + delay
        state = .armed(target: target, flashAt: now + (delay - lead), activateAt: activateAt, flashed: false)
        return Transition(ended: ended, started: .armed(target))
    }

    /// Time passed. Emits at most one action: ``Action/flash(_:)`` once the flash is due, then,
    /// on a later call, ``Action/activate(_:explicit:)`` (with `explicit: false`) once the delay
    /// has elapsed; ``Action/none`` otherwise. See the type's documentation for late ticks.
    mutating func tick(now: MonotonicInstant) -> Action {
        guard case .armed(let target, let flashAt, let activateAt, let flashed) = state else { return .none }
        if !flashed {
            guard now >= flashAt else { return .none }
            state = .armed(target: target, flashAt: flashAt, activateAt: activateAt, flashed: true)
            return .flash(target)
        }
        guard now >= activateAt else { return .none }
        state = .activated(target: target)
        return .activate(target, explicit: false)
    }

    /// Space was pressed (SP3): activates the armed, hovered target at once with
    /// `explicit: true`, whether or not it has flashed. Returns ``Action/none`` when nothing is
    /// hovered or the hovered target has already activated.
    mutating func activateNow(now: MonotonicInstant) -> Action {
        guard case .armed(let target, _, _, _) = state else { return .none }
        state = .activated(target: target)
        return .activate(target, explicit: true)
    }

    /// The drag ended (drop or cancel): returns ``Action/disarmed(_:)`` if a target was armed and
    /// had not activated yet, else ``Action/none``; the machine returns to idle.
    mutating func reset() -> Action {
        let action: Action
        if case .armed(let target, _, _, _) = state { action = .disarmed(target) } else { action = .none }
        state = .idle
        return action
    }

    /// When the owner must call ``tick(now:)``: the flash instant until the flash was emitted,
    /// then the activation instant; `nil` when nothing is armed.
    var deadline: MonotonicInstant? {
        guard case .armed(_, let flashAt, let activateAt, let flashed) = state else { return nil }
        return flashed ? activateAt : flashAt
    }

    /// The spring-loaded target under the pointer, armed or already activated; `nil` if none.
    var hoveredTarget: Target? {
        switch state {
        case .idle: nil
        case .armed(let target, _, _, _): target
        case .activated(let target): target
        }
    }

    /// Whether the hovered target has activated during this hover.
    var hasActivated: Bool {
        if case .activated = state { return true }
        return false
    }
}
