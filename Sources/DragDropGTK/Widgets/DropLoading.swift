import CGtk4
import DragDrop
import Foundation

/// Reading a drop's data in the widgets and panes: bounded in time as well as in size, and a
/// failure told in words a person understands ("The text was not added: nothing arrived from
/// Notes for 15 seconds."). Data from other apps is untrusted: a source may never answer,
/// trickle bytes forever, die half-way, or send something else than it says.
@MainActor
public enum DropLoading {
    /// The longest a whole load may take, in seconds (default 60), however steadily bytes
    /// arrive: a source that trickles forever is given up. (A source that sends nothing at all
    /// is given up sooner, by ``GtkDragHost/otherAppReadTimeout``.) Tests shorten it.
    public static var deadline: Double = 60

    /// Loads item `index` of `data` in the richest form among `accepted` (A2), as
    /// ``DropDataAccess/load(item:accepting:options:progress:)`` does, but fails with
    /// ``TransferError/sourceUnavailable(_:)`` once ``deadline`` has passed.
    public static func load(
        _ data: DropDataAccess, item index: Int, accepting accepted: [ContentType], options: LoadOptions = LoadOptions()
    ) async throws(TransferError) -> LoadedContent {
        let progress = Progress(totalUnitCount: -1)
        let expired = Flag()
        let seconds = deadline
        let timer = GLibSource.once(afterMilliseconds: UInt32(max(1, seconds * 1000))) {
            expired.value = true
            progress.cancel()
        }
        defer { GLibSource.cancel(timer) }
        do {
            return try await data.load(item: index, accepting: accepted, options: options, progress: progress)
        } catch {
            if expired.value { throw .sourceUnavailable("it was still arriving after \(Self.seconds(seconds))") }
            throw error
        }
    }

    /// The failure of a drop whose data could not be used, in plain words with exactly one
    /// full stop (`what`: "The text", "The picture"): "The text is not valid text (…).",
    /// "The text was not added: nothing arrived from the other app for 15 seconds.".
    public static func failure(_ error: TransferError, adding what: String) -> DropFailure {
        if error == .cancelled { return DropFailure(.cancelled, "\(what) was not added: the transfer was cancelled.") }
        return refusal(what, reason(error))
    }

    /// One sentence saying why `what` was not added: "The text is longer than …." for a
    /// reason about it ("it is longer than …"), else "The text was not added: `reason`.".
    public static func refusal(_ what: String, _ reason: String) -> DropFailure {
        let body = sentenceBody(reason)
        if body.hasPrefix("it ") { return DropFailure(.failed, "\(what) \(body.dropFirst(3)).") }
        return DropFailure(.failed, "\(what) was not added: \(body).")
    }

    /// Why a load failed, as the end of a sentence (no final full stop).
    public static func reason(_ error: TransferError) -> String {
        switch error {
        case .tooLarge(_, let limit, _):
            return "it is larger than the \(ByteCount.format(limit)) that can be taken here"
        case .malformed(let type, let reason):
            let kind = type.hasPrefix("text/") ? "text" : type
            return "it is not valid \(kind) (\(sentenceBody(reason)))"
        case .sourceUnavailable(let reason):
            return sentenceBody(reason)
        case .noAcceptableRepresentation:
            return "nothing offered can be used here"
        default:
            return lowercasedFirst(sentenceBody(error.description))
        }
    }

    /// `text` without its final full stop and surrounding spaces.
    nonisolated static func sentenceBody(_ text: String) -> String {
        var body = text.trimmingCharacters(in: .whitespacesAndNewlines)
        while body.hasSuffix(".") { body.removeLast() }
        return body
    }

    private nonisolated static func lowercasedFirst(_ text: String) -> String {
        guard let first = text.first, first.isUppercase, text.dropFirst().first?.isUppercase != true else {
            return text
        }
        return first.lowercased() + text.dropFirst()
    }

    /// "100,000": digits grouped by three, whatever the locale (messages and tests agree).
    public nonisolated static func count(_ value: Int) -> String {
        var digits = String(value.magnitude)
        var groups: [Substring] = []
        while digits.count > 3 {
            groups.insert(digits.suffix(3)[...], at: 0)
            digits.removeLast(3)
        }
        groups.insert(digits[...], at: 0)
        return (value < 0 ? "-" : "") + groups.joined(separator: ",")
    }

    /// "15 seconds", "1 second", "0.5 seconds".
    nonisolated static func seconds(_ value: Double) -> String {
        let text = value == value.rounded() ? String(Int(value)) : String(format: "%.1f", value)
        return value == 1 ? "1 second" : "\(text) seconds"
    }

    private final class Flag: @unchecked Sendable {
        var value = false
    }
}
