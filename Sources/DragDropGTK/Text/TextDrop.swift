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
        try await load(drop.data, accepting: accepted, maximumLength: maximumLength)
    }

    /// Loads every item of `data` (a drop's, or the clipboard's when pasting: both are read
    /// here, so they never disagree) accepting `accepted`, at most `maximumLength` characters in
    /// all.
    static func load(_ data: DropDataAccess, accepting accepted: [ContentType], maximumLength: Int?)
        async throws(Problem) -> DroppedText
    {
        var runs: [StyledRun] = []
        var styled = false
        var length = 0
        for index in 0..<data.itemCount {
            if index > 0 { StyledHTML.append(StyledRun("\n"), to: &runs) }
            let item = try await loadItem(data, index, accepting: accepted, maximumLength: maximumLength)
            styled = styled || item.styled
            length += item.runs.reduce(0) { $0 + $1.length }
            if let maximumLength, length > maximumLength { throw .tooLong(limit: maximumLength) }
            for run in item.runs { StyledHTML.append(run, to: &runs) }
        }
        return DroppedText(runs: runs, styled: styled)
    }

    /// Item `index` of `data` in the richest form that is usable: the representations offered
    /// are tried in turn, and one that fails its checks (a NUL inside the text, invalid UTF-8,
    /// a conversion that fails) gives way to the next. A C string's terminating NUL bytes at the
    /// end are not text and are left out (LibreOffice ends its HTML and RTF with one). Only when
    /// none is usable does the item fail, with the first representation's reason.
    private static func loadItem(
        _ data: DropDataAccess, _ index: Int, accepting accepted: [ContentType], maximumLength: Int?
    )
        async throws(Problem) -> DroppedText
    {
        let options = LoadOptions(limit: byteLimit(forCharacters: maximumLength))
        var tried: [ContentType] = []
        var firstProblem: Problem?
        while true {
            // Styled text first when it is offered at all: other apps order their types as they
            // like (Chromium offers text/plain before text/html), and A2 wants the richest.
            let offered = data.offeredTypes(item: index).filter { !tried.contains($0) }
            let html = accepted.contains(.html) && offered.contains(.html) && !offered.contains(ImageIntake.mozURL)
            let wanted = html ? [.html] : accepted
            guard let choice = data.choice(item: index, accepting: wanted, excluding: tried) else {
                if let firstProblem { throw firstProblem }
                throw .transfer(
                    .noAcceptableRepresentation(
                        offered: data.offeredTypes(item: index).map(\.mimeType), accepted: accepted.map(\.mimeType)))
            }
            tried.append(choice.offered)
            var only = options
            only.offered = choice.offered
            let content: LoadedContent
            do {
                content = try await DropLoading.load(data, item: index, accepting: wanted, options: only)
            } catch {
                switch error {
                case .tooLarge:
                    if let maximumLength { throw .tooLong(limit: maximumLength) }
                    throw .transfer(error)
                case .malformed:
                    firstProblem = firstProblem ?? .transfer(error)
                    continue
                default:
                    // The other app is gone, silent or refused: no other form will come.
                    throw .transfer(error)
                }
            }
            guard case .data(let type, var bytes) = content else { return DroppedText(runs: [], styled: false) }
            while bytes.last == 0 { bytes.removeLast() }
            if bytes.contains(0) {
                firstProblem = firstProblem ?? .nul
                continue
            }
            let text = String(decoding: bytes, as: UTF8.self)
            if let links = linkRuns(type, bytes) {
                // Addresses (a link from a browser, files from a file manager) become links.
                return DroppedText(runs: links, styled: true)
            } else if type.essence == ContentType.html.essence {
                return DroppedText(runs: StyledHTML.runs(fromHTML: text, collapsingWhiteSpace: true), styled: true)
            }
            return DroppedText(runs: [StyledRun(text)], styled: false)
        }
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
            return .failed(DropFailure(.forbidden, Localization.format(.takesOnlyText, ["name": .name(name)])))
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
                .text,
                Localization.format(
                    .reasonLonger, count: limit, ["number": .text(DropLoading.count(limit)), "name": .name(name)]))
        case .nul:
            DropLoading.refusal(.text, Localization.format(.reasonNul))
        case .transfer(let error):
            DropLoading.failure(error, adding: .text)
        }
    }
}
