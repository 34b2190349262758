/// Timing of spring loading for one target.
public struct SpringLoadingConfiguration: Sendable, Equatable, Codable {
    /// How long dragged content must hover over the target before it activates (SP1).
    /// Negative values count as zero.
    public var delay: Duration
    /// How long before activation the target starts flashing (SP1: people see it coming).
    /// Clamped to `0...delay`, so with a lead longer than the delay the flash is due as soon as
    /// the target is armed.
    public var flashLead: Duration

    /// Creates a configuration; the defaults are a 0.7 s delay with the flash starting 0.2 s
    /// before activation.
    public init(delay: Duration = .milliseconds(700), flashLead: Duration = .milliseconds(200)) {
        self.delay = delay
        self.flashLead = flashLead
    }
}
