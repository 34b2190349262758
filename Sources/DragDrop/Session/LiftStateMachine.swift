// Deciding when a press becomes a drag (F1), as a pure state machine: no timers, no clock reads.
// Every event carries the current instant; the owner wakes the machine at `deadline` by calling
// `tick(now:)`.

/// Turns a press into a drag start, a click, or nothing (F1).
///
/// * Mouse and pen: the drag lifts as soon as the pointer is at least
///   ``LiftConfiguration/pointerThreshold`` away from the press point with the button held.
/// * Touch: the content lifts once the finger has stayed down for
///   ``LiftConfiguration/touchHoldDuration`` without moving further than
///   ``LiftConfiguration/touchSlop``; moving further first abandons the press (it is a scroll).
/// * Releasing before any lift is a click (or tap).
///
/// The machine never reads a clock and never starts a timer. While a touch hold is running it
/// publishes ``deadline``; the owner must call ``tick(now:)`` once `now >= deadline`.
///
/// Deadlines are only acted on by ``tick(now:)``: an event delivered at or after ``deadline``
/// without a preceding tick is handled as if the deadline had not passed yet. Owners therefore
/// drain due deadlines before delivering each event:
///
/// ```swift
/// if let d = lift.deadline, d <= now { handle(lift.tick(now: now)) }
/// handle(lift.move(to: point, now: now))
/// ```
///
/// All operations are O(1) and allocation-free.
struct LiftStateMachine: Sendable {
    /// What the owner must do after an event.
    enum Action: Equatable, Sendable {
        /// Nothing.
        case none
        /// Start the drag: `origin` is the press point, `at` the pointer's current position.
        case lift(origin: Point, at: Point)
        /// A touch moved beyond the slop before the hold ended: this press is not a drag (let the
        /// container scroll).
        case abandon
        /// Released before any lift: a plain click or tap at `at`.
        case click(at: Point)
    }

    /// The machine's state.
    private enum State: Sendable {
        /// No pointer is down.
        case idle
        /// A pointer is down and has not lifted yet.
        /// - `origin`: where it was pressed.
        /// - `current`: its latest known position (used as `at:` when a touch hold lifts).
        /// - `kind`: the device; decides between the movement threshold and press-and-hold.
        /// - `holdEnd`: for touch, the instant the hold completes; `nil` for mouse and pen.
        case pressed(origin: Point, current: Point, kind: PointerKind, holdEnd: MonotonicInstant?)
        /// The press turned into a drag; the drag session owns the pointer until release/reset.
        case lifted
        /// A touch moved beyond the slop before the hold: it is a scroll, ignored until release.
        case abandoned
    }

    /// The tuning this machine was created with.
    let configuration: LiftConfiguration

    private var state: State = .idle

    /// Creates an idle machine.
    init(configuration: LiftConfiguration = .init()) {
        self.configuration = configuration
    }

    /// A pointer went down at `at`. Always returns ``Action/none``.
    ///
    /// A press while a pointer is already down (a missed release) starts over from this press.
    mutating func press(at point: Point, kind: PointerKind, now: MonotonicInstant) -> Action {
        let holdEnd: MonotonicInstant? =
            kind == .touch ? now + max(.zero, configuration.touchHoldDuration) : nil
        state = .pressed(origin: point, current: point, kind: kind, holdEnd: holdEnd)
        return .none
    }

    /// The pressed pointer moved to `to`.
    ///
    /// * Mouse/pen not yet lifted: ``Action/lift(origin:at:)`` once the distance from the press
    ///   point is at least ``LiftConfiguration/pointerThreshold`` (exactly 3 lifts, 2.99 does not).
    /// * Touch before the hold ends: ``Action/abandon`` if the finger is strictly further than
    ///   ``LiftConfiguration/touchSlop`` from the press point, else ``Action/none``.
    /// * After a lift or an abandon, or with no pointer down: ``Action/none`` (the drag session,
    ///   or the scroll view, owns the pointer now).
    mutating func move(to point: Point, now: MonotonicInstant) -> Action {
        guard case .pressed(let origin, _, let kind, let holdEnd) = state else { return .none }
        let dx = point.x - origin.x
        let dy = point.y - origin.y
        let squaredDistance = dx * dx + dy * dy
        switch kind {
        case .mouse, .pen:
            let threshold = max(0, configuration.pointerThreshold)
            if squaredDistance >= threshold * threshold {
                state = .lifted
                return .lift(origin: origin, at: point)
            }
        case .touch:
            let slop = max(0, configuration.touchSlop)
            if squaredDistance > slop * slop {
                state = .abandoned
                return .abandon
            }
        }
        state = .pressed(origin: origin, current: point, kind: kind, holdEnd: holdEnd)
        return .none
    }

    /// The pointer went up at `at`; the machine returns to idle.
    ///
    /// Returns ``Action/click(at:)`` if the press had not lifted (nor been abandoned as a
    /// scroll), else ``Action/none``: ending a lifted drag is the drag session's business.
    mutating func release(at point: Point, now: MonotonicInstant) -> Action {
        let wasPressed: Bool
        if case .pressed = state { wasPressed = true } else { wasPressed = false }
        state = .idle
        return wasPressed ? .click(at: point) : .none
    }

    /// Time passed. For a touch that has been held until ``deadline`` without exceeding the
    /// slop, returns ``Action/lift(origin:at:)`` with the finger's latest position; otherwise
    /// ``Action/none``.
    mutating func tick(now: MonotonicInstant) -> Action {
        guard case .pressed(let origin, let current, .touch, let holdEnd?) = state, now >= holdEnd
        else { return .none }
        state = .lifted
        return .lift(origin: origin, at: current)
    }

    /// Forgets any press (for example when the platform cancels the gesture). No action follows.
    mutating func reset() {
        state = .idle
    }

    /// When the owner must call ``tick(now:)``: the end of the touch hold while a finger is down
    /// and has neither lifted nor moved beyond the slop; `nil` otherwise.
    var deadline: MonotonicInstant? {
        if case .pressed(_, _, _, let holdEnd) = state { return holdEnd }
        return nil
    }

    /// Whether a pointer is down: from ``press(at:kind:now:)`` until ``release(at:now:)`` or
    /// ``reset()``, including after a lift or an abandon.
    var isPressed: Bool {
        if case .idle = state { return false }
        return true
    }

    /// Whether this press has lifted into a drag (until release or reset).
    var isLifted: Bool {
        if case .lifted = state { return true }
        return false
    }
}
