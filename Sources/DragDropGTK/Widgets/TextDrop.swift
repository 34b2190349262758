import CGtk4
import DragDrop
import Foundation

/// Dropped text, loaded through the drop's data access (P5) in the richest form the destination
/// takes (A2): HTML becomes styled runs, plain text one run that takes the destination's style
/// (A7). Several items are joined with line breaks.
///
/// Text from other apps is untrusted: it must be valid UTF-8 (the transfer checks it), holds no
/// NUL character (a GTK text stops at the first one, so part of it would vanish unseen), and is
/// refused when longer than the destination holds, reading no more than a few times that many
/// bytes.
struct DroppedText: Sendable {
    var runs: [StyledRun]
    /// Whether the runs carry their own styles (HTML was delivered).
    var styled: Bool

    /// Why dropped text cannot be used, as the end of a sentence.
    enum Problem: Error {
        case tooLong(limit: Int)
        case nul
        case transfer(TransferError)
    }

    /// The bytes read at most for `maximumLength` characters: UTF-8 takes up to 4 bytes a
    /// character, and HTML adds its tags.
    static func byteLimit(forCharacters maximumLength: Int?) -> Int64? {
        maximumLength.map { Int64(max(64 * 1024, $0 * 8)) }
    }

    /// Loads every item of `drop` accepting `accepted`, at most `maximumLength` characters in
    /// all.
    static func load(_ drop: DropRequest, accepting accepted: [ContentType], maximumLength: Int?) async throws(Problem)
        -> DroppedText
    {
        var runs: [StyledRun] = []
        var styled = false
        var length = 0
        let options = LoadOptions(limit: byteLimit(forCharacters: maximumLength))
        for index in 0..<drop.data.itemCount {
            if index > 0 { StyledHTML.append(StyledRun("\n"), to: &runs) }
            // Styled text first when it is offered at all: other apps order their types as they
            // like (Chromium offers text/plain before text/html), and A2 wants the richest.
            let offered = drop.data.offeredTypes(item: index)
            let html = accepted.contains(.html) && offered.contains(.html) && !offered.contains(ImageIntake.mozURL)
            let content: LoadedContent
            do {
                content = try await DropLoading.load(
                    drop.data, item: index, accepting: html ? [.html] : accepted, options: options)
            } catch {
                if case .tooLarge = error, let maximumLength { throw .tooLong(limit: maximumLength) }
                throw .transfer(error)
            }
            guard case .data(let type, let data) = content else { continue }
            if data.contains(0) { throw .nul }
            let text = String(decoding: data, as: UTF8.self)
            var added: [StyledRun]
            if let links = linkRuns(type, data) {
                // Addresses (a link from a browser, files from a file manager) become links.
                styled = true
                added = links
            } else if type.essence == ContentType.html.essence {
                styled = true
                added = StyledHTML.runs(fromHTML: text)
            } else {
                added = [StyledRun(text)]
            }
            length += added.reduce(0) { $0 + $1.length }
            if let maximumLength, length > maximumLength { throw .tooLong(limit: maximumLength) }
            for run in added { StyledHTML.append(run, to: &runs) }
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
    /// load leaves everything as it was and says why in plain words (A6): "The text was not
    /// added: it is longer than the 99,500 characters Notes has room for."
    @MainActor
    static func complete(
        _ drop: DropRequest, accepting accepted: [ContentType], host: GtkDragHost, name: String,
        maximumLength: Int? = nil, apply: @escaping @MainActor (DroppedText) -> DropResult
    ) -> DropResult {
        guard (0..<drop.data.itemCount).allSatisfy({ drop.data.choice(item: $0, accepting: accepted) != nil }) else {
            return .failed(DropFailure(.forbidden, "\(name) takes only text."))
        }
        let token = drop.token
        Task { @MainActor [weak host] in
            let result: DropResult
            do throws(Problem) {
                result = apply(try await load(drop, accepting: accepted, maximumLength: maximumLength))
            } catch {
                result = .failed(failure(error, name: name))
            }
            host?.engine.completeDeferredDrop(token, with: result)
        }
        return .deferred(placeholders: 1)
    }

    @MainActor
    static func failure(_ problem: Problem, name: String) -> DropFailure {
        switch problem {
        case .tooLong(let limit):
            DropLoading.refusal(
                "The text", "it is longer than the \(DropLoading.count(limit)) characters \(name) has room for")
        case .nul:
            DropLoading.refusal("The text", "it contains a NUL character, which text never holds")
        case .transfer(let error):
            DropLoading.failure(error, adding: "The text")
        }
    }
}
