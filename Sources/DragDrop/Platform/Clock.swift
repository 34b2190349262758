/// A point in monotonic time, as an offset from the clock's own origin.
///
/// The engine never reads the system time itself: it asks the injected ``DragClock``, and
/// publishes the next instant it needs to be woken at (``DragEngine/nextDeadline``) instead of
/// starting timers.
public struct MonotonicInstant: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// Time since the clock's origin.
    public var sinceOrigin: Duration

    /// Creates an instant at `sinceOrigin` after the clock's origin.
    public init(_ sinceOrigin: Duration) { self.sinceOrigin = sinceOrigin }

    /// The clock's origin.
    public static let origin = MonotonicInstant(.zero)

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.sinceOrigin < rhs.sinceOrigin }
    public static func + (lhs: Self, rhs: Duration) -> Self { Self(lhs.sinceOrigin + rhs) }
    public static func - (lhs: Self, rhs: Self) -> Duration { lhs.sinceOrigin - rhs.sinceOrigin }

    /// Seconds since the origin, as a `Double`.
    public var seconds: Double { sinceOrigin.seconds }

    public var description: String { "\(seconds)s" }
}

extension Duration {
    /// The duration in seconds, as a `Double`.
    public var seconds: Double {
        let (s, atto) = components
        return Double(s) + Double(atto) / 1e18
    }

    /// A duration of `seconds` seconds, rounded to the nanosecond.
    public static func seconds(_ value: Double) -> Duration {
        .nanoseconds(Int64((value * 1e9).rounded()))
    }
}

/// The source of time the engine reads. Inject ``SystemClock`` in apps and a virtual clock in
/// tests (`DragDropTesting.VirtualClock`).
public protocol DragClock: AnyObject {
    /// The current instant. Must never go backwards.
    var now: MonotonicInstant { get }
}

/// The process's monotonic clock (`ContinuousClock`), for real apps.
public final class SystemClock: DragClock {
    private let origin = ContinuousClock.now

    /// Creates a clock whose origin is now.
    public init() {}

    public var now: MonotonicInstant { MonotonicInstant(ContinuousClock.now - origin) }
}
