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
        let result = await withCheckedContinuation {
            (continuation: CheckedContinuation<Result<LoadedContent, TransferError>, Never>) in
            let once = FirstResult(continuation)
            let loading = Task.detached {
                do throws(TransferError) {
                    once.resume(
                        .success(
                            try await data.load(item: index, accepting: accepted, options: options, progress: progress))
                    )
                } catch {
                    once.resume(.failure(error))
                }
            }
            timer.task = Task.detached {
                do { try await Task.sleep(for: .milliseconds(Int(max(1, seconds * 1000)))) } catch { return }
                guard
                    once.resume(
                        .failure(
                            .sourceUnavailable(
                                Localization.format(.reasonStillArriving, ["duration": .text(Self.seconds(seconds))]))))
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

    /// What a drop that failed was bringing, the subject of its sentence ("The text was not
    /// added: …"). Each is a whole sentence of the catalogs, so it reads right in every
    /// language; ``named(_:)`` is an app's own word, already in the person's language.
    public enum Subject: Sendable, Hashable {
        case text, contact, picture, photo, fileList, document, content
        /// An app's own name for what was dropped ("The chart"), in the current language.
        case named(String)
    }

    /// The failure of a drop whose data could not be used, one sentence in the current
    /// language: "The text was not added: it is not valid text (invalid UTF-8 near byte 3).",
    /// "The text was not added: nothing arrived from the other app for 15 seconds.".
    public nonisolated static func failure(_ error: TransferError, adding what: Subject) -> DropFailure {
        if error == .cancelled {
            return DropFailure(.cancelled, sentence(what, Localization.format(.reasonCancelled)))
        }
        return refusal(what, reason(error))
    }

    /// One sentence saying why `what` was not added: "The text was not added: `reason`.";
    /// `reason` is a clause in the current language (``reason(_:)``, ``clause(_:)``).
    public nonisolated static func refusal(_ what: Subject, _ reason: String) -> DropFailure {
        DropFailure(.failed, sentence(what, sentenceBody(reason)))
    }

    private nonisolated static func sentence(_ what: Subject, _ reason: String) -> String {
        let because: [String: MessageArgument] = ["reason": .text(reason)]
        switch what {
        case .text: return Localization.format(.notAddedText, because)
        case .contact: return Localization.format(.notAddedContact, because)
        case .picture: return Localization.format(.notAddedPicture, because)
        case .photo: return Localization.format(.notAddedPhoto, because)
        case .fileList: return Localization.format(.notAddedFileList, because)
        case .document: return Localization.format(.notAddedDocument, because)
        case .content: return Localization.format(.notAddedContent, because)
        case .named(let name):
            return Localization.format(.notAddedNamed, because.merging(["name": .name(name)]) { a, _ in a })
        }
    }

    /// Why a load failed, as a clause to follow a colon (no final full stop), in the current
    /// language.
    public nonisolated static func reason(_ error: TransferError) -> String {
        switch error {
        case .tooLarge(_, let limit, _):
            return Localization.format(.reasonLarger, ["limit": .text(ByteCount.format(limit))])
        case .malformed(let type, let reason):
            return notValid(type, because: sentenceBody(reason))
        case .sourceUnavailable(let reason):
            return sentenceBody(reason)
        case .noAcceptableRepresentation:
            return Localization.format(.reasonNothingUsable)
        case .cancelled:
            return Localization.format(.reasonCancelled)
        default:
            return lowercasedFirst(sentenceBody(error.description))
        }
    }

    /// "it is not valid text (…)", "it is not a valid URI list (…)", "it is not a valid PNG
    /// picture (…)"…
    nonisolated static func notValid(_ type: String, because reason: String) -> String {
        let essence = type.split(separator: ";").first.map { String($0).lowercased() } ?? type
        let because: [String: MessageArgument] = ["reason": .text(reason)]
        switch essence {
        case "text/uri-list": return Localization.format(.reasonNotURIList, because)
        case "image/png": return Localization.format(.reasonNotPNG, because)
        case "image/jpeg": return Localization.format(.reasonNotJPEG, because)
        case "application/pdf": return Localization.format(.reasonNotPDF, because)
        default:
            if essence.hasPrefix("text/") { return Localization.format(.reasonNotText, because) }
            return Localization.format(.reasonNotType, because.merging(["type": .text(essence)]) { a, _ in a })
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
    nonisolated static func seconds(_ value: Double) -> String { Localization.duration(seconds: value) }

}
