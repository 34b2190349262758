/// The drops whose data is still loading (A4), by token: each one's request, and the progress
/// last told of it, so that only changes of at least one percent are told (A5).
struct DeferredDrops {
    private struct Pending {
        var request: DropRequest
        var lastFraction: Double?
        var reportedUnknown = false
    }

    /// What to tell of a progress report.
    enum Report: Equatable {
        /// Nothing: not loading, or too small a change.
        case nothing
        /// This fraction, clamped to 0...1 (nil: the total is unknown).
        case progress(Double?)
    }

    private var pending: [DropToken: Pending] = [:]

    /// The tokens of the drops loading, in token order.
    var tokens: [DropToken] { pending.keys.sorted { $0.rawValue < $1.rawValue } }

    /// A drop starts loading.
    mutating func add(_ request: DropRequest) { pending[request.token] = Pending(request: request) }

    /// What to tell of `fraction` reported for `token`.
    mutating func progress(_ token: DropToken, _ fraction: Double?) -> Report {
        guard var drop = pending[token] else { return .nothing }
        let clamped = fraction.map { min(1, max(0, $0)) }
        if let c = clamped, let last = drop.lastFraction, abs(c - last) < 0.01, c < 1 { return .nothing }
        if clamped == nil, drop.lastFraction == nil, drop.reportedUnknown { return .nothing }
        drop.lastFraction = clamped
        drop.reportedUnknown = clamped == nil
        pending[token] = drop
        return .progress(clamped)
    }

    /// Ends the drop `token`: its request, or nil when it is not loading.
    mutating func take(_ token: DropToken) -> DropRequest? { pending.removeValue(forKey: token)?.request }
}
