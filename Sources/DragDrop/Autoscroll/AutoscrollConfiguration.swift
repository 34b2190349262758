/// Tuning of edge autoscroll for one scroll container.
public struct AutoscrollConfiguration: Sendable, Equatable, Codable {
    /// The axes a container scrolls along.
    public struct Axes: OptionSet, Sendable, Hashable, Codable {
        /// The bit set.
        public let rawValue: UInt8

        /// Creates a set from its bits.
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        /// Up and down: the top and bottom edges scroll.
        public static let vertical = Axes(rawValue: 1 << 0)
        /// Left and right: the left and right edges scroll.
        public static let horizontal = Axes(rawValue: 1 << 1)
        /// Both axes; in a corner the container scrolls diagonally.
        public static let both: Axes = [.vertical, .horizontal]
    }

    /// Depth of the zone (in points) along each scrolling edge, inside the container's visible
    /// frame, in which a drag scrolls. In a container shorter than three zones along an axis the
    /// zone shrinks to a third of that extent, so the middle third never scrolls.
    public var edgeZone: Double
    /// Speed in points per second with the pointer at the very edge, once fully ramped up.
    public var maximumSpeed: Double
    /// How long the speed takes to ramp up from ``initialRampFactor`` to full after the pointer
    /// enters a zone.
    public var rampDuration: Duration
    /// The fraction of the speed applied on entering a zone (0...1), so a drag passing through
    /// the zone does not jump the content.
    public var initialRampFactor: Double
    /// Time between two scroll steps while in a zone. Values below 1 ms count as 1 ms.
    public var stepInterval: Duration
    /// The axes along which the container scrolls.
    public var axes: Axes
    /// Speed in points per second at the inner boundary of a zone, once fully ramped up, so that
    /// entering a zone always visibly scrolls. Values above ``maximumSpeed`` count as it.
    public var minimumSpeed: Double

    /// Creates a configuration. Defaults: a 48-point zone, 1500 pt/s at the edge, ramping up from
    /// 20 % over 0.6 s, a step every 1/60 s, vertical scrolling, 20 pt/s at the zone's inner
    /// boundary.
    public init(
        edgeZone: Double = 48,
        maximumSpeed: Double = 1500,
        rampDuration: Duration = .milliseconds(600),
        initialRampFactor: Double = 0.2,
        stepInterval: Duration = .milliseconds(1000) / 60,
        axes: Axes = .vertical,
        minimumSpeed: Double = 20
    ) {
        self.edgeZone = edgeZone
        self.maximumSpeed = maximumSpeed
        self.rampDuration = rampDuration
        self.initialRampFactor = initialRampFactor
        self.stepInterval = stepInterval
        self.axes = axes
        self.minimumSpeed = minimumSpeed
    }

    /// Scroll speed in points per second, with the pointer `depthFraction` of the way through a
    /// zone (0 at its inner boundary, 1 at the container's edge; clamped to 0...1) and
    /// `timeInZone` after entering it.
    ///
    /// `(minimumSpeed + (maximumSpeed - minimumSpeed) * depthFraction²) * ramp`, where `ramp`
    /// grows linearly from ``initialRampFactor`` to 1 over ``rampDuration`` and then stays at 1.
    /// Non-decreasing in both arguments (A1: faster nearer the edge). O(1).
    public func speed(depthFraction: Double, timeInZone: Duration) -> Double {
        let depth = depthFraction.isNaN ? 0 : min(1, max(0, depthFraction))
        let low = max(0, minimumSpeed)
        let high = max(low, maximumSpeed)
        let base = low + (high - low) * depth * depth

        let initial = min(1, max(0, initialRampFactor))
        let ramp: Double
        if rampDuration <= .zero {
            ramp = 1
        } else {
            let progress = min(1, max(0, timeInZone.seconds / rampDuration.seconds))
            ramp = initial + (1 - initial) * progress
        }
        return base * ramp
    }

    /// ``stepInterval``, at least 1 ms so that draining deadlines always terminates.
    var effectiveStepInterval: Duration { max(.milliseconds(1), stepInterval) }
}
