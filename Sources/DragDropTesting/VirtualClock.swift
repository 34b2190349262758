import DragDrop

/// A clock that only moves when a test says so, like NIO's embedded event loop.
public final class VirtualClock: DragClock {
    /// The current virtual instant.
    public private(set) var now: MonotonicInstant

    /// Creates a clock standing at `start`.
    public init(start: MonotonicInstant = .origin) { now = start }

    /// Moves time forward to `instant`; moving backwards is a programming error.
    public func set(_ instant: MonotonicInstant) {
        precondition(instant >= now, "virtual time cannot go backwards (\(instant) < \(now))")
        now = instant
    }

    /// Moves time forward by `duration`.
    public func advance(by duration: Duration) { set(now + duration) }
}
