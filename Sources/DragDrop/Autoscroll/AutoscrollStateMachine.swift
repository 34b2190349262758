// Edge autoscroll during a drag (A1) as a pure state machine: no timers, no clock reads. Every
// event carries the current instant; the owner wakes the machine at `deadline` by calling
// `tick(now:)`.

/// Scrolls a container while a drag hovers near its edges (A1): faster nearer the edge, ramping
/// up the longer the drag stays, and stopping as soon as the drag leaves the zone or the
/// container.
///
/// The owner reports every pointer move with the scroll container under the pointer, and calls
/// ``tick(now:)`` at ``deadline``; each tick while scrolling yields one
/// ``Action/scroll(_:by:)`` step covering the time elapsed since the previous step, so a late
/// tick scrolls by the right distance in one step rather than several. Applying a step (and
/// clamping it to the content) is the owner's business. Negative components scroll towards the
/// start (top or left edge), positive ones towards the end (bottom or right edge).
///
/// The machine never reads a clock and never starts a timer. Deadlines are only acted on by
/// ``tick(now:)``; owners drain due deadlines before delivering each event:
///
/// ```swift
/// while let d = autoscroll.deadline, d <= now { handle(autoscroll.tick(now: now)) }
/// ```
///
/// All operations are O(1) and allocation-free.
struct AutoscrollStateMachine<Target: Hashable & Sendable>: Sendable {
    /// What the owner must do after an event.
    enum Action: Equatable, Sendable {
        /// Nothing.
        case none
        /// The drag entered an edge zone of `Target`: autoscroll began.
        case started(Target)
        /// Scroll `Target`'s content by the vector (in points).
        case scroll(Target, by: Vector)
        /// Autoscroll of `Target` ended (the drag left the zone or the container, or ended).
        case stopped(Target)
    }

    /// How deep the pointer is in the zone of one axis.
    private struct AxisDepth: Sendable {
        /// -1 near the start edge (top or left), +1 near the end edge, 0 outside both zones.
        var direction: Double
        /// 0 at the zone's inner boundary, 1 at the edge.
        var fraction: Double

        static var outside: AxisDepth { AxisDepth(direction: 0, fraction: 0) }
    }

    /// One container's autoscroll in progress.
    private struct Scroll: Sendable {
        /// The container.
        var target: Target
        /// Its tuning, as of the latest pointer move.
        var configuration: AutoscrollConfiguration
        /// When the pointer entered the zone: the ramp starts here.
        var enteredAt: MonotonicInstant
        /// When the previous step was emitted (initially `enteredAt`).
        var lastStepAt: MonotonicInstant
        /// Steps in a row that scrolled nothing (the content at its end in that direction):
        /// each one doubles the wait for the next step, up to ``idleBackoffLimit``.
        var idleSteps = 0
        /// Depth along the horizontal axis, as of the latest pointer move.
        var horizontal: AxisDepth
        /// Depth along the vertical axis, as of the latest pointer move.
        var vertical: AxisDepth
    }

    /// The machine's state.
    private enum State: Sendable {
        /// Not in any edge zone.
        case idle
        /// The pointer moved straight from one container's zone into another's: the old one was
        /// stopped by that move, and ``Action/started(_:)`` for this one is due at the next tick
        /// (its deadline is the instant of that move). Not yet scrolling.
        case pending(Scroll)
        /// Scrolling: ``Action/started(_:)`` was emitted and steps are due every step interval.
        case scrolling(Scroll)
    }

    private var state: State = .idle

    /// The last autoscroll that ended after steps that scrolled nothing: a drag wavering across
    /// the inner boundary of that edge's zone picks the slow pace up where it left it.
    private var exhausted: Scroll?

    /// Creates an idle machine.
    init() {}

    /// Scroll speed in points per second; see
    /// ``AutoscrollConfiguration/speed(depthFraction:timeInZone:)``.
    static func speed(
        depthFraction: Double,
        timeInZone: Duration,
        configuration: AutoscrollConfiguration
    ) -> Double {
        configuration.speed(depthFraction: depthFraction, timeInZone: timeInZone)
    }

    /// The pointer moved to `point`. `container` is the innermost scroll container under the
    /// pointer (`nil` if none), with its visible frame and tuning.
    ///
    /// * In an edge zone of the container already scrolling: ``Action/none``; the new depth and
    ///   configuration apply from the next step, and the ramp continues.
    /// * In an edge zone while not scrolling: ``Action/started(_:)``; the ramp starts now and
    ///   the first step is due one step interval later.
    /// * In an edge zone of a different container than the one scrolling:
    ///   ``Action/stopped(_:)`` for the old one at once (A1), and ``Action/started(_:)`` for the
    ///   new one from the next ``tick(now:)`` (its ``deadline`` is `now`).
    /// * Outside every edge zone (inside the container's middle, outside its frame, or `container`
    ///   is `nil`): ``Action/stopped(_:)`` if scrolling, else ``Action/none``.
    mutating func pointerMoved(
        to point: Point,
        container: (target: Target, frame: Rect, configuration: AutoscrollConfiguration)?,
        now: MonotonicInstant
    ) -> Action {
        guard let container,
            let depths = Self.depths(of: point, in: container.frame, configuration: container.configuration)
        else {
            let previous = state
            state = .idle
            if case .scrolling(let old) = previous { return stopped(old) }
            return .none
        }

        let (horizontal, vertical) = depths
        switch state {
        case .scrolling(var scroll) where scroll.target == container.target:
            scroll.configuration = container.configuration
            if horizontal.direction != scroll.horizontal.direction || vertical.direction != scroll.vertical.direction {
                // Towards another edge: there may be room that way, step at the normal pace.
                scroll.idleSteps = 0
            }
            scroll.horizontal = horizontal
            scroll.vertical = vertical
            state = .scrolling(scroll)
            return .none
        case .pending(var scroll) where scroll.target == container.target:
            scroll.configuration = container.configuration
            scroll.horizontal = horizontal
            scroll.vertical = vertical
            state = .pending(scroll)
            return .none
        case .scrolling(let old):
            state = .pending(
                Scroll(
                    target: container.target, configuration: container.configuration,
                    enteredAt: now, lastStepAt: now, horizontal: horizontal, vertical: vertical))
            return stopped(old)
        case .idle, .pending:
            var scroll = Scroll(
                target: container.target, configuration: container.configuration,
                enteredAt: now, lastStepAt: now, horizontal: horizontal, vertical: vertical)
            if let exhausted, exhausted.target == container.target,
                exhausted.horizontal.direction == horizontal.direction,
                exhausted.vertical.direction == vertical.direction
            {
                scroll.idleSteps = exhausted.idleSteps
            }
            state = .scrolling(scroll)
            return .started(container.target)
        }
    }

    /// Time passed. While scrolling, once a step is due, returns one ``Action/scroll(_:by:)``:
    /// per axis, `direction * speed(depth, time in zone) * seconds since the previous step`.
    /// After a move straight into another container's zone, returns its
    /// ``Action/started(_:)``. Otherwise ``Action/none``.
    mutating func tick(now: MonotonicInstant) -> Action {
        switch state {
        case .idle:
            return .none
        case .pending(let scroll):
            guard now >= scroll.enteredAt else { return .none }
            state = .scrolling(scroll)
            return .started(scroll.target)
        case .scrolling(var scroll):
            guard now >= scroll.lastStepAt + Self.interval(of: scroll) else { return .none }
            // After steps that scrolled nothing, the next covers one normal interval: content
            // that grew meanwhile starts scrolling smoothly, not with a jump.
            let elapsed =
                scroll.idleSteps > 0
                ? min(now - scroll.lastStepAt, scroll.configuration.effectiveStepInterval).seconds
                : (now - scroll.lastStepAt).seconds
            let timeInZone = now - scroll.enteredAt
            let configuration = scroll.configuration
            func component(_ depth: AxisDepth) -> Double {
                guard depth.direction != 0 else { return 0 }
                return depth.direction
                    * configuration.speed(depthFraction: depth.fraction, timeInZone: timeInZone) * elapsed
            }
            let step = Vector(dx: component(scroll.horizontal), dy: component(scroll.vertical))
            scroll.lastStepAt = now
            state = .scrolling(scroll)
            return .scroll(scroll.target, by: step)
        }
    }

    /// The owner applied the last ``Action/scroll(_:by:)`` step and it moved the content by
    /// `applied`. Steps that move nothing (the content already at its end that way) come
    /// less and less often, up to 16 steps' time apart, so a drag resting at
    /// the edge of a list that cannot scroll further does not wake the app 60 times a second;
    /// a step that moves, or a move towards another edge, restores the normal pace. Leaving the
    /// zone and coming back to the same edge of the same container keeps the slow pace.
    mutating func stepApplied(_ applied: Vector) {
        guard case .scrolling(var scroll) = state else { return }
        scroll.idleSteps = applied.isZero ? scroll.idleSteps + 1 : 0
        state = .scrolling(scroll)
    }

    /// `scroll` ended: remembered when its last steps scrolled nothing.
    private mutating func stopped(_ scroll: Scroll) -> Action {
        exhausted = scroll.idleSteps > 0 ? scroll : nil
        return .stopped(scroll.target)
    }

    /// The wait before the step after `scroll`'s last one: one interval, doubled for each step
    /// in a row that scrolled nothing, up to 16 intervals.
    private static func interval(of scroll: Scroll) -> Duration {
        scroll.configuration.effectiveStepInterval * (1 << min(scroll.idleSteps, 4))
    }

    /// The drag ended (drop or cancel): ``Action/stopped(_:)`` if scrolling, else
    /// ``Action/none``; the machine returns to idle.
    mutating func reset() -> Action {
        let previous = state
        state = .idle
        exhausted = nil
        if case .scrolling(let scroll) = previous { return .stopped(scroll.target) }
        return .none
    }

    /// When the owner must call ``tick(now:)``: the next step while scrolling, the instant of the
    /// switching move while another container's start is pending, `nil` when idle.
    var deadline: MonotonicInstant? {
        switch state {
        case .idle: nil
        case .pending(let scroll): scroll.enteredAt
        case .scrolling(let scroll): scroll.lastStepAt + Self.interval(of: scroll)
        }
    }

    /// Whether a container is autoscrolling (``Action/started(_:)`` was emitted and no
    /// ``Action/stopped(_:)`` yet).
    var isScrolling: Bool {
        if case .scrolling = state { return true }
        return false
    }

    /// The container autoscrolling, if any.
    var scrollingTarget: Target? {
        if case .scrolling(let scroll) = state { return scroll.target }
        return nil
    }

    /// The pointer's depth in the edge zones of `frame` along each configured axis, or `nil` if it
    /// is in none (including outside the frame).
    private static func depths(
        of point: Point, in frame: Rect, configuration: AutoscrollConfiguration
    ) -> (horizontal: AxisDepth, vertical: AxisDepth)? {
        guard frame.contains(point) else { return nil }
        let horizontal =
            configuration.axes.contains(.horizontal)
            ? depth(point.x, from: frame.minX, to: frame.maxX, zone: configuration.edgeZone) : .outside
        let vertical =
            configuration.axes.contains(.vertical)
            ? depth(point.y, from: frame.minY, to: frame.maxY, zone: configuration.edgeZone) : .outside
        if horizontal.direction == 0 && vertical.direction == 0 { return nil }
        return (horizontal, vertical)
    }

    /// The depth of `position` in the zones at either end of `lower..<upper`.
    private static func depth(_ position: Double, from lower: Double, to upper: Double, zone: Double) -> AxisDepth {
        let zone = min(zone, (upper - lower) / 3)
        guard zone > 0 else { return .outside }
        let fromStart = position - lower
        let fromEnd = upper - position
        if fromStart < zone { return AxisDepth(direction: -1, fraction: 1 - fromStart / zone) }
        if fromEnd < zone { return AxisDepth(direction: 1, fraction: 1 - fromEnd / zone) }
        return .outside
    }
}
