import Foundation
import Synchronization

/// How a destination wants a representation loaded.
public struct LoadOptions: Sendable {
    /// Where the bytes go.
    public enum Target: Sendable, Hashable {
        /// Into memory (small data: text, a contact, a thumbnail).
        case memory
        /// Into a file at this path (written under a temporary name, renamed when complete).
        case file(path: String)
    }

    /// Where the bytes go.
    public var target: Target
    /// The most bytes accepted (default 64 MiB in memory, unlimited to a file; a file load
    /// that needs a conversion reads its input into memory, and then defaults to 64 MiB too).
    public var limit: Int64?
    /// Chunk size for copies.
    public var chunkSize: Int
    /// Representations larger than this (or of unknown size) are spooled first, so the
    /// transfer survives the source quitting (P3). Nil never spools.
    public var spoolThreshold: Int64?
    /// Takes only the relevant part of the loaded data (A3), for in-memory loads.
    public var extract: (@Sendable (ContentType, Data) throws -> Data)?
    /// Only this offered representation is considered (nil: the richest the destination
    /// accepts): a destination that found one representation unusable tries the next one
    /// offered (``DropDataAccess/choice(item:accepting:excluding:)``).
    public var offered: ContentType?

    /// The limit of memory loads when none is given: 64 MiB.
    public static let defaultMemoryLimit: Int64 = 64 << 20

    /// Creates options.
    public init(
        target: Target = .memory, limit: Int64? = nil, chunkSize: Int = 1 << 20, spoolThreshold: Int64? = 8 << 20,
        extract: (@Sendable (ContentType, Data) throws -> Data)? = nil
    ) {
        self.target = target
        self.limit = limit ?? (target == .memory ? Self.defaultMemoryLimit : nil)
        self.chunkSize = chunkSize
        self.spoolThreshold = spoolThreshold
        self.extract = extract
    }
}

/// What a load produced.
public enum LoadedContent: Sendable, Equatable {
    /// Data in memory, of the delivered type.
    case data(ContentType, Data)
    /// A complete file of the delivered type.
    case file(ContentType, path: String)

    /// The delivered type.
    public var type: ContentType {
        switch self {
        case .data(let t, _), .file(let t, _): t
        }
    }
}

/// The only way to read a drop's data. The engine creates it at the drop and hands it to the
/// destination in ``DropRequest/data``; before that a destination sees types, never data (P5).
/// A session from another app is refused at run time until the drop, too.
///
/// Loads are lazy (nothing is produced until asked), chunked (bounded memory), validated
/// against the declared type (untrusted data), cancellable through their `Progress`, and
/// reported with a total size when known (P4).
public final class DropDataAccess: Sendable {
    /// The app receiving the data.
    public let requester: AppID
    /// Picks representations and converts.
    public let chooser: RepresentationChooser
    /// Where large representations are spooled (P3); nil disables spooling.
    public let spool: SpoolDirectory?
    private let providers: [ItemProvider]
    private let state: Mutex<State>

    private struct State {
        var phase: Phase = .beforeDrop
        var spooled: [SpooledFile] = []
    }

    enum Phase { case beforeDrop, open, finished }

    /// Creates access to `providers` for `requester`, closed until ``open()``.
    public init(
        providers: [ItemProvider], requester: AppID, chooser: RepresentationChooser = RepresentationChooser(),
        spool: SpoolDirectory? = nil
    ) {
        self.providers = providers
        self.requester = requester
        self.chooser = chooser
        self.spool = spool
        self.state = Mutex(State())
    }

    /// Opens the data at the drop. Only the engine (or a platform relaying another app's drop)
    /// calls this.
    public func open() { state.withLock { if $0.phase == .beforeDrop { $0.phase = .open } } }

    /// Whether data can be read now.
    public var isOpen: Bool { state.withLock { $0.phase == .open } }

    /// The number of items.
    public var itemCount: Int { providers.count }

    /// The types item `index` offers to the requester, richest first. Always allowed.
    public func offeredTypes(item index: Int) -> [ContentType] {
        guard providers.indices.contains(index) else { return [] }
        return providers[index].offeredTypes(to: requester)
    }

    /// The representation the destination would receive, without loading anything.
    public func choice(item index: Int, accepting accepted: [ContentType]) -> RepresentationChoice? {
        chooser.choose(offered: offeredTypes(item: index), accepted: accepted)
    }

    /// The representation the destination would receive if the offered types in `excluded`
    /// were not there (they were tried and found unusable); `offered` of the choice is the type
    /// to load with ``LoadOptions/offered``.
    public func choice(item index: Int, accepting accepted: [ContentType], excluding excluded: [ContentType])
        -> RepresentationChoice?
    {
        chooser.choose(offered: offeredTypes(item: index).filter { !excluded.contains($0) }, accepted: accepted)
    }

    /// Loads item `index` in the richest form the destination accepts (A2), converting where
    /// needed (A7) and extracting the relevant part (A3).
    public func load(
        item index: Int, accepting accepted: [ContentType], options: LoadOptions = LoadOptions(),
        progress: Progress = Progress(totalUnitCount: -1)
    ) async throws(TransferError) -> LoadedContent {
        switch state.withLock({ $0.phase }) {
        case .beforeDrop: throw .notDroppedYet
        case .finished: throw .accessFinished
        case .open: break
        }
        guard providers.indices.contains(index) else { throw .noSuchItem(index) }
        let provider = providers[index]
        let visible = provider.visibleRepresentations(to: requester).filter {
            options.offered == nil || $0.type == options.offered
        }
        guard let choice = chooser.choose(offered: visible.map(\.type), accepted: accepted) else {
            // Say why when the destination could have used a representation limited to the
            // item's own app: the one it would have received, directly or through a conversion.
            if let hidden = chooser.choose(offered: provider.representations.map(\.type), accepted: accepted) {
                throw .ownAppOnly(type: provider.representations[hidden.index].type.mimeType)
            }
            throw .noAcceptableRepresentation(
                offered: visible.map(\.type.mimeType), accepted: accepted.map(\.mimeType))
        }
        let representation = visible[choice.index]
        if let size = representation.size { progress.totalUnitCount = size }
        if let limit = options.limit, let size = representation.size, size > limit {
            throw .tooLarge(type: representation.type.mimeType, limit: limit, size: size)
        }
        var content: RepresentationContent
        do { content = try await representation.produce() } catch let error as TransferError { throw error } catch {
            throw .sourceUnavailable(String(describing: error))
        }
        let copier = ChunkedCopier(chunkSize: options.chunkSize, limit: options.limit)
        // Durable transfers: large or unsized streams go to the spool first (P3). The spool copy
        // is the transfer from the source and is what `progress` counts; the local copy from the
        // spool that follows only watches it for cancellation, so progress never goes backwards.
        var spooledFile: SpooledFile?
        if let spool, let threshold = options.spoolThreshold, Self.isStream(content),
            (representation.size ?? .max) > threshold
        {
            let file = try await spool.spool(
                content, type: representation.type, copier: copier, progress: progress,
                expectedSize: representation.size)
            state.withLock { $0.spooled.append(file) }
            spooledFile = file
            content = .file(path: file.path)
        }
        defer { if let spooledFile { release(spooledFile) } }

        switch options.target {
        case .memory:
            let sink = MemorySink()
            try await copier.copy(
                from: try content.source(), to: sink, type: representation.type, progress: progress,
                expectedSize: representation.size, reportsProgress: spooledFile == nil)
            var data = try convert(sink.data, representation: representation, choice: choice)
            if let extract = options.extract {
                do { data = try extract(choice.delivered, data) } catch let error as TransferError { throw error } catch
                {
                    throw .malformed(type: choice.delivered.mimeType, reason: String(describing: error))
                }
            }
            return .data(choice.delivered, data)
        case .file(let path) where choice.converts:
            // A conversion needs the whole input: read it into memory (bounded like a memory
            // load), convert, then write the converted bytes under the final name.
            var bounded = copier
            bounded.limit = copier.limit ?? LoadOptions.defaultMemoryLimit
            let memory = MemorySink()
            try await bounded.copy(
                from: try content.source(), to: memory, type: representation.type, progress: progress,
                expectedSize: representation.size, reportsProgress: spooledFile == nil)
            let data = try convert(memory.data, representation: representation, choice: choice)
            let sink = try FileSink(destination: path)
            do {
                try sink.write(data)
                try sink.finish()
            } catch {
                sink.abandon()
                throw error as? TransferError ?? .io(path: path, reason: String(describing: error))
            }
            return .file(choice.delivered, path: path)
        case .file(let path):
            // Open the source before creating the temporary file, so a source that cannot be
            // read leaves nothing behind at the destination.
            let source = try content.source()
            let sink = ValidatingSink(
                try FileSink(destination: path), type: representation.type, conformance: chooser.conformance)
            try await copier.copy(
                from: source, to: sink, type: representation.type, progress: progress,
                expectedSize: representation.size, reportsProgress: spooledFile == nil)
            return .file(representation.type, path: path)
        }
    }

    /// Validates loaded bytes as their offered type, then converts them when the choice says so
    /// and validates the result as the delivered type: a conversion is code too, and the
    /// destination must get what it asked for.
    private func convert(_ input: Data, representation: Representation, choice: RepresentationChoice)
        throws(TransferError) -> Data
    {
        try ContentValidation.validate(input, as: representation.type, conformance: chooser.conformance)
        guard let conversion = chooser.conversion(for: choice) else { return input }
        let output: Data
        do { output = try conversion.convert(input) } catch let error as TransferError { throw error } catch {
            throw .malformed(
                type: representation.type.mimeType,
                reason: Localization.format(.notConverted, ["reason": .text(Sentence.clause("\(error)"))]))
        }
        try ContentValidation.validate(output, as: choice.delivered, conformance: chooser.conformance)
        return output
    }

    /// The destination is done: every spool file still held is deleted and further loads are
    /// refused.
    public func finish() {
        let files = state.withLock { state -> [SpooledFile] in
            state.phase = .finished
            defer { state.spooled = [] }
            return state.spooled
        }
        for file in files { spool?.remove(file) }
    }

    private func release(_ file: SpooledFile) {
        state.withLock { $0.spooled.removeAll { $0 == file } }
        spool?.remove(file)
    }

    private static func isStream(_ content: RepresentationContent) -> Bool {
        if case .stream = content { return true }
        return false
    }
}

/// Checks streamed data against its type as it passes: image signatures on the first bytes,
/// UTF-8 across chunk boundaries for text (naming the offset of the first bad byte, as the
/// in-memory check does), and URI lists line by line. Holds at most one chunk, an incomplete
/// character, and for a URI list one incomplete line (up to ``maxURILineLength``).
final class ValidatingSink: KernelCopySink {
    /// The longest URI-list line accepted while streaming.
    static let maxURILineLength = 1 << 20

    private let inner: any ByteSink
    private let type: ContentType
    private let conformance: TypeConformance
    private var head = Data()
    private var carry = Data()
    private var checkedHead = false
    private let isText: Bool
    private let isURIList: Bool
    /// Bytes checked so far, not counting `carry`.
    private var validated = 0
    /// The URI-list line being received, and its number.
    private var line = Data()
    private var lineNumber = 1

    init(_ inner: any ByteSink, type: ContentType, conformance: TypeConformance) {
        self.inner = inner
        self.type = type
        self.conformance = conformance
        self.isText = type.mediaType == "text" || conformance.conforms(type, to: .plainText)
        self.isURIList = conformance.canonical(type.essence) == ContentType.uriList.essence
    }

    func write(_ chunk: Data) throws {
        if !checkedHead {
            head.append(chunk.prefix(16 - min(16, head.count)))
            if head.count >= 16 { try checkHead() }
        }
        if isText { try checkText(chunk) }
        try inner.write(chunk)
    }

    func finish() throws {
        if !checkedHead { try checkHead() }
        if isText, !carry.isEmpty {
            throw TransferError.malformed(type: type.mimeType, reason: Localization.format(.endsMidUTF8))
        }
        if isURIList, !line.isEmpty {
            _ = try ContentValidation.uriList(String(decoding: line, as: UTF8.self), type: type, firstLine: lineNumber)
        }
        try inner.finish()
    }

    func abandon() { inner.abandon() }

    /// Once the head is checked, a type that is not text needs to see no more bytes: the kernel
    /// may copy the rest straight into the inner file sink.
    var kernelCopyDescriptor: Int32? {
        guard checkedHead, !isText, let inner = inner as? any KernelCopySink else { return nil }
        return inner.kernelCopyDescriptor
    }

    private func checkHead() throws {
        checkedHead = true
        if isText { return }
        try ContentValidation.validate(head, as: type, conformance: conformance)
    }

    private func checkText(_ chunk: Data) throws {
        let bytes = carry + chunk
        // An incomplete multi-byte sequence at the end waits for the next chunk: walk back over
        // continuation bytes (at most 3) to the lead byte and compare with the length it needs.
        var i = bytes.count
        var continuations = 0
        while continuations < 3, i > 0, bytes[bytes.startIndex + i - 1] & 0xC0 == 0x80 {
            i -= 1
            continuations += 1
        }
        var cut = bytes.count
        if i > 0 {
            let lead = bytes[bytes.startIndex + i - 1]
            if lead & 0xC0 == 0xC0 {
                let needed = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
                if continuations + 1 < needed { cut = i - 1 }
            }
        }
        carry = Data(bytes.suffix(from: bytes.startIndex + cut))
        let complete = Data(bytes.prefix(cut))
        if let bad = ContentValidation.firstInvalidUTF8Offset(complete) {
            throw TransferError.malformed(
                type: type.mimeType,
                reason: Localization.format(.invalidUTF8, ["offset": .text(String(validated + bad))]))
        }
        validated += complete.count
        if isURIList { try checkLines(complete) }
    }

    /// Checks every line completed by `complete` (whole UTF-8 characters); keeps the rest.
    /// Only the new bytes are searched for a line break, so a long line arriving in many small
    /// chunks costs time in proportion to its length, not to its length squared.
    private func checkLines(_ complete: Data) throws {
        let kept = line.count
        line.append(complete)
        if let lastBreak = complete.lastIndex(of: UInt8(ascii: "\n")) {
            let through = line.startIndex + kept + (lastBreak - complete.startIndex) + 1
            let text = String(decoding: line[..<through], as: UTF8.self)
            let checked = try ContentValidation.uriList(text, type: type, firstLine: lineNumber)
            lineNumber += checked.lines - 1
            line = Data(line[through...])
        }
        if line.count > Self.maxURILineLength {
            throw TransferError.malformed(
                type: type.mimeType,
                reason: Localization.format(
                    .lineTooLong,
                    ["line": .text(String(lineNumber)), "size": .text(ByteCount.format(Int64(Self.maxURILineLength)))]))
        }
    }
}
