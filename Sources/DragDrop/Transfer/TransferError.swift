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

    public var description: String {
        switch self {
        case .notDroppedYet:
            "The data is not available before the drop; only its types are."
        case .accessFinished:
            "This drop's data can no longer be read."
        case .noAcceptableRepresentation(let offered, let accepted):
            "None of the offered types (\(offered.joined(separator: ", "))) can be used here (accepts \(accepted.joined(separator: ", ")))."
        case .ownAppOnly(let type):
            "The \(type) data can only be dropped inside the app it comes from."
        case .tooLarge(let type, let limit, let size):
            "The \(type) data is \(ByteCount.format(size)), more than the \(ByteCount.format(limit)) this destination takes."
        case .malformed(let type, let reason):
            Sentence.explaining("The dropped data is not valid \(type)", reason)
        case .cancelled:
            "The transfer was cancelled."
        case .sourceUnavailable(let reason):
            Sentence.explaining("The source stopped providing the data", reason)
        case .io(let path, let reason):
            Sentence.explaining("Could not read or write \(path)", reason)
        case .noSuchItem(let index):
            "The drop has no item number \(index + 1)."
        }
    }

    /// The failure to report when a drop ends because of this error (A6, F7).
    public var dropFailure: DropFailure {
        DropFailure(self == .cancelled ? .cancelled : .failed, description)
    }
}

/// Human-readable byte counts.
public enum ByteCount {
    /// "512 bytes", "1.5 KB", "200 MB", "2 GB" (decimal units, as file managers show).
    public static func format(_ bytes: Int64) -> String {
        let units = ["bytes", "KB", "MB", "GB", "TB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1000, unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        if unit == 0 { return "\(bytes) bytes" }
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? "\(Int(rounded)) \(units[unit])" : "\(rounded) \(units[unit])"
    }
}
