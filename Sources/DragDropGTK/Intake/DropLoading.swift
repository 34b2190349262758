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
    /// `DropDataAccess/load(item:accepting:options:progress:)` does, but fails with
    /// `TransferError/sourceUnavailable(_:)` once ``deadline`` has passed, even while a read
    /// is still waiting (the load is cancelled and left to end by itself).
    public static func load(
        _ data: DropDataAccess, item index: Int, accepting accepted: [ContentType], options: LoadOptions = LoadOptions()
    ) async throws(TransferError) -> LoadedContent {
        let seconds = deadline
        let progress = Progress(totalUnitCount: -1)
        let timer = TimerBox()
        defer { timer.task?.cancel() }
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<LoadedContent, TransferError>, Never>) in
            let once = FirstResult(continuation)
            let loading = Task.detached {
                do throws(TransferError) {
                    once.resume(.success(try await data.load(item: index, accepting: accepted, options: options, progress: progress)))
                } catch {
                    once.resume(.failure(error))
                }
            }
            timer.task = Task.detached {
                do { try await Task.sleep(for: .milliseconds(Int(max(1, seconds * 1000)))) } catch { return }
                guard once.resume(.failure(.sourceUnavailable("it was still arriving after \(Self.seconds(seconds))")))
                else { return }
                progress.cancel()
                loading.cancel()
            }
        }
        return try result.get()
    }

    private final class TimerBox: @unchecked Sendable {
        var task: Task<Void, Never>?
    }

    /// Resumes a continuation with the first result only.
    private final class FirstResult: @unchecked Sendable {
        private let lock = NSLock()
        private var continuation: CheckedContinuation<Result<LoadedContent, TransferError>, Never>?

        init(_ continuation: CheckedContinuation<Result<LoadedContent, TransferError>, Never>) {
            self.continuation = continuation
        }

        /// Resumes with `result` if nothing did before; returns whether it did.
        @discardableResult
        func resume(_ result: Result<LoadedContent, TransferError>) -> Bool {
            lock.lock()
            let waiting = continuation
            continuation = nil
            lock.unlock()
            waiting?.resume(returning: result)
            return waiting != nil
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
            return "it is not \(kind(of: type)) (\(sentenceBody(reason)))"
        case .sourceUnavailable(let reason):
            return sentenceBody(reason)
        case .noAcceptableRepresentation:
            return "nothing offered can be used here"
        default:
            return lowercasedFirst(sentenceBody(error.description))
        }
    }

    /// "valid text", "a valid URI list", "a valid PNG picture"…
    nonisolated static func kind(of type: String) -> String {
        let essence = type.split(separator: ";").first.map { String($0).lowercased() } ?? type
        switch essence {
        case "text/uri-list": return "a valid URI list"
        case "image/png": return "a valid PNG picture"
        case "image/jpeg": return "a valid JPEG picture"
        case "application/pdf": return "a valid PDF document"
        default: return essence.hasPrefix("text/") ? "valid text" : "valid \(essence)"
        }
    }

    /// A sentence turned into a clause to follow a colon: no final full stop, and a lowercase
    /// first letter unless it starts a name ("The list is invalid." → "the list is invalid").
    public nonisolated static func clause(_ text: String) -> String { lowercasedFirst(sentenceBody(text)) }

    /// `text` without what closes it (full stops, spaces…): ``Sentence/clause(_:)``.
    nonisolated static func sentenceBody(_ text: String) -> String { Sentence.clause(text) }

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

}
