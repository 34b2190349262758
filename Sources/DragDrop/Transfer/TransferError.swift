/// Why loading dropped data failed. Every case says what was wrong in words a person can act on
/// (``description``), and a failed load changes nothing in the source or the destination.
public enum TransferError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Data was requested before the drop (P5): before the drop a destination sees only types.
    case notDroppedYet
    /// The drop's data access was already finished; start a new drop.
    case accessFinished
    /// The item offers no representation the destination can use (A2).
    case noAcceptableRepresentation(offered: [String], accepted: [String])
    /// The representation is limited to its own app and the requester is another app (P5).
    case ownAppOnly(type: String)
    /// The representation is larger than the destination's limit.
    case tooLarge(type: String, limit: Int64, size: Int64)
    /// The data does not match its declared type.
    case malformed(type: String, reason: String)
    /// The load was cancelled.
    case cancelled
    /// The source stopped providing data (it quit, or its stream broke) before the end.
    case sourceUnavailable(String)
    /// Reading or writing a file failed.
    case io(path: String, reason: String)
    /// There is no item at that index in the drop.
    case noSuchItem(Int)

    /// The sentence, in the current language (``Localization``). What came from elsewhere
    /// (types, paths, reasons) is put in with its bidirectional controls removed.
    public var description: String {
        func clean(_ text: String) -> MessageArgument { .text(BidiControls.neutralized(text)) }
        func explaining(
            _ bare: EngineMessage, _ because: EngineMessage, _ reason: String, _ arguments: [String: MessageArgument]
        ) -> String {
            let reason = Sentence.clause(BidiControls.neutralized(reason))
            if reason.isEmpty { return Localization.format(bare, arguments) }
            return Localization.format(because, arguments.merging(["reason": .text(reason)]) { a, _ in a })
        }
        switch self {
        case .notDroppedYet:
            return Localization.format(.notDroppedYet)
        case .accessFinished:
            return Localization.format(.accessFinished)
        case .noAcceptableRepresentation(let offered, let accepted):
            return Localization.format(
                .noAcceptableType,
                [
                    "offered": clean(offered.joined(separator: ", ")),
                    "accepted": clean(accepted.joined(separator: ", ")),
                ])
        case .ownAppOnly(let type):
            return Localization.format(.ownAppOnly, ["type": clean(type)])
        case .tooLarge(let type, let limit, let size):
            return Localization.format(
                .tooLarge,
                ["type": clean(type), "size": .text(ByteCount.format(size)), "limit": .text(ByteCount.format(limit))])
        case .malformed(let type, let reason):
            return explaining(.malformed, .malformedBecause, reason, ["type": clean(type)])
        case .cancelled:
            return Localization.format(.transferCancelled)
        case .sourceUnavailable(let reason):
            return explaining(.sourceStopped, .sourceStoppedBecause, reason, [:])
        case .io(let path, let reason):
            return explaining(.fileFailed, .fileFailedBecause, reason, ["path": .name(path)])
        case .noSuchItem(let index):
            return Localization.format(.noSuchItem, ["number": .text(String(index + 1))])
        }
    }

    /// The failure to report when a drop ends because of this error (A6, F7).
    public var dropFailure: DropFailure {
        DropFailure(self == .cancelled ? .cancelled : .failed, formatted: description)
    }
}

/// Human-readable byte counts.
public enum ByteCount {
    /// "512 bytes", "1.5 KB", "200 MB", "2 GB" (decimal units, as file managers show), in the
    /// current language (``Localization``).
    public static func format(_ bytes: Int64) -> String {
        let units: [EngineMessage] = [.bytes, .kilobytes, .megabytes, .gigabytes, .terabytes]
        var value = Double(bytes)
        var unit = 0
        while value >= 1000, unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        if unit == 0 { return Localization.format(.bytes, count: Int(clamping: bytes)) }
        let rounded = (value * 10).rounded() / 10
        let size = rounded == rounded.rounded() ? "\(Int(rounded))" : "\(rounded)"
        return Localization.format(units[unit], ["size": .text(size)])
    }
}
