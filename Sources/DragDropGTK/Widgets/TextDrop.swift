import CGtk4
import DragDrop
import Foundation

/// Dropped text, loaded through the drop's data access (P5) in the richest form the destination
/// takes (A2): HTML becomes styled runs, plain text one run that takes the destination's style
/// (A7). Several items are joined with line breaks.
struct DroppedText: Sendable {
    var runs: [StyledRun]
    /// Whether the runs carry their own styles (HTML was delivered).
    var styled: Bool

    /// Loads every item of `drop` accepting `accepted`.
    static func load(_ drop: DropRequest, accepting accepted: [ContentType]) async throws(TransferError) -> DroppedText
    {
        var runs: [StyledRun] = []
        var styled = false
        for index in 0..<drop.data.itemCount {
            if index > 0 { StyledHTML.append(StyledRun("\n"), to: &runs) }
            // Styled text first when it is offered at all: other apps order their types as they
            // like (Chromium offers text/plain before text/html), and A2 wants the richest.
            let offered = drop.data.offeredTypes(item: index)
            let html = accepted.contains(.html) && offered.contains(.html) && !offered.contains(ImageIntake.mozURL)
            let content = try await drop.data.load(item: index, accepting: html ? [.html] : accepted)
            guard case .data(let type, let data) = content else { continue }
            if let links = linkRuns(type, data) {
                // Addresses (a link from a browser, files from a file manager) become links.
                styled = true
                for run in links { StyledHTML.append(run, to: &runs) }
                continue
            }
            let text = String(decoding: data, as: UTF8.self)
            if type.essence == ContentType.html.essence {
                styled = true
                for run in StyledHTML.runs(fromHTML: text) { StyledHTML.append(run, to: &runs) }
            } else {
                StyledHTML.append(StyledRun(text), to: &runs)
            }
        }
        return DroppedText(runs: runs, styled: styled)
    }

    /// The runs of a dropped `text/uri-list` (each address a link, one a line) or
    /// `text/x-moz-url` (its title linking to its address); nil for other types. An address that
    /// is not safe to follow (``StyledHTML/safeLink(_:)``) stays plain text.
    static func linkRuns(_ type: ContentType, _ data: Data) -> [StyledRun]? {
        switch type.essence {
        case ContentType.uriList.essence:
            let addresses = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline)
                .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !$0.hasPrefix("#") }
            var runs: [StyledRun] = []
            for (index, address) in addresses.enumerated() {
                if index > 0 { StyledHTML.append(StyledRun("\n"), to: &runs) }
                StyledHTML.append(StyledRun(address, link: StyledHTML.safeLink(address)), to: &runs)
            }
            return runs
        case ImageIntake.mozURL.essence:
            guard let (address, title) = ImageIntake.mozURL(data) else { return [] }
            return [StyledRun(title ?? address, link: StyledHTML.safeLink(address))]
        default:
            return nil
        }
    }

    /// Loads `drop` in the background and completes it on the main actor with what `apply`
    /// returns: a deferred drop (A4), so the app never blocks while the data arrives. A failed
    /// load leaves everything as it was and says why (A6).
    @MainActor
    static func complete(
        _ drop: DropRequest, accepting accepted: [ContentType], host: GtkDragHost,
        apply: @escaping @MainActor (DroppedText) -> DropResult
    ) -> DropResult {
        guard (0..<drop.data.itemCount).allSatisfy({ drop.data.choice(item: $0, accepting: accepted) != nil }) else {
            return .failed(DropFailure(.forbidden, "This text field takes only text."))
        }
        let token = drop.token
        Task { @MainActor [weak host] in
            let result: DropResult
            do throws(TransferError) {
                result = apply(try await load(drop, accepting: accepted))
            } catch {
                result = .failed(failure(error))
            }
            host?.engine.completeDeferredDrop(token, with: result)
        }
        return .deferred(placeholders: 1)
    }

    /// Why a text drop failed, for the person who dropped it (A6).
    static func failure(_ error: TransferError) -> DropFailure {
        error == .cancelled
            ? error.dropFailure : DropFailure(.failed, Sentence.explaining("The text could not be read", error))
    }
}
