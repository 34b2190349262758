/// The kind of device that pressed.
public enum PointerKind: String, Sendable, Codable {
    /// A mouse or trackpad pointer: lifts after a short movement with the button held.
    case mouse
    /// A finger: lifts after press-and-hold without moving.
    case touch
    /// A stylus: treated like a pointer, lifting after a short movement.
    case pen
}

/// Tuning for lifting: when a press becomes a drag (F1).
public struct LiftConfiguration: Sendable, Equatable {
    /// How far (in points) a mouse or pen must move from the press, with the button held, before
    /// the drag starts (F1: about 3 points). A move of exactly this distance lifts.
    public var pointerThreshold: Double
    /// How long a finger must stay down, within ``touchSlop``, before the content lifts (F1:
    /// press-and-hold on touch).
    public var touchHoldDuration: Duration
    /// How far (in points) a finger may wander during the hold. Moving strictly further than this
    /// before the hold ends is a scroll, not a drag.
    public var touchSlop: Double

    /// Creates a configuration; the defaults follow F1.
    public init(
        pointerThreshold: Double = 3,
        touchHoldDuration: Duration = .milliseconds(500),
        touchSlop: Double = 10
    ) {
        self.pointerThreshold = pointerThreshold
        self.touchHoldDuration = touchHoldDuration
        self.touchSlop = touchSlop
    }
}
