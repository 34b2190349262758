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

    public var description: String { "\(rule) at \(time.seconds)s: \(message)" }
}

/// Checks a timeline, as it is recorded, against every rule a timeline can show.
/// (Implementation in progress: see the audit issue work.)
public final class TimelineAuditor: TimelineObserver {
    /// The rules this auditor checks.
    public static let rules = ["F1", "F4", "F5", "F6", "F7", "S2", "S3", "S4", "SP1", "A1", "U1"]
    /// What was found so far.
    public private(set) var violations: [Violation] = []

    /// Creates an auditor using the same lift threshold and type conformance as the engine.
    public init(liftConfiguration: LiftConfiguration = .init(), conformance: TypeConformance = TypeConformance()) {}

    public func observe(_ entry: TimelineEntry, scene: Scene, engine: DragEngine) {}
    public func inputHandled(_ input: InputEvent, at time: MonotonicInstant, scene: Scene, engine: DragEngine) {}

    /// End-of-run checks (nothing left highlighted, every drag ended).
    public func finish(scene: Scene, engine: DragEngine) {}
}
