import DragDrop
import Foundation
import Synchronization
import Testing

// Shared fixtures for the transfer-layer tests.

enum Fixture {
    static let chart: ContentType = "application/x-dragdrop-chart"
    static let vcard: ContentType = "text/vcard"

    /// Small but well-formed-looking payloads: only their signatures matter to validation.
    static let pdf = Data("%PDF-1.7\n% a line drawing\n%%EOF\n".utf8)
    static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + Data("IHDR drawing".utf8)
    static let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0]) + Data("JFIF drawing".utf8)
    static let chartJSON = Data(#"{"kind":"bar","series":[3,1,4,1,5]}"#.utf8)
    /// What the test chart renderer produces.
    static let renderedChartPNG = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + Data("rendered chart".utf8)

    /// A chart -> PNG conversion, as an app that knows how to render its charts registers it.
    static let chartToPNG = Conversion(from: chart, to: .png) { json in
        guard json == chartJSON else { throw TransferError.malformed(type: chart.mimeType, reason: "unexpected chart") }
        return renderedChartPNG
    }
}

/// A value shared with `@Sendable` closures (sources run inside the copier's task).
final class Shared<Value: Sendable>: Sendable {
    private let storage: Mutex<Value>
    init(_ value: Value) { storage = Mutex(value) }
    var value: Value { storage.withLock { $0 } }
    @discardableResult
    func update<R: Sendable>(_ body: (inout Value) throws -> R) rethrows -> R { try storage.withLock { try body(&$0) } }
}

/// A fresh directory under the system temporary directory; remove it with `removeTree`.
func makeTemporaryDirectory(_ label: String = #function) throws -> String {
    let safe = label.filter { $0.isLetter || $0.isNumber }
    let path = NSTemporaryDirectory() + "/dragdrop-transfer-\(safe.prefix(40))-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

func removeTree(_ path: String) {
    try? FileManager.default.removeItem(atPath: path)
}

func directoryContents(_ path: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
}

func fileSize(_ path: String) -> Int64? {
    (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value
}

/// Opened drop data for `providers`, as the engine hands it to a destination at the drop.
func droppedData(
    _ providers: [ItemProvider], requester: AppID = "Mail", chooser: RepresentationChooser = RepresentationChooser(),
    spool: SpoolDirectory? = nil
) -> DropDataAccess {
    let access = DropDataAccess(providers: providers, requester: requester, chooser: chooser, spool: spool)
    access.open()
    return access
}

/// The error a load throws, or nil when it succeeds.
func loadError(
    _ access: DropDataAccess, item: Int = 0, accepting accepted: [ContentType], options: LoadOptions = LoadOptions(),
    progress: Progress = Progress(totalUnitCount: -1)
) async -> TransferError? {
    do {
        _ = try await access.load(item: item, accepting: accepted, options: options, progress: progress)
        return nil
    } catch {
        return error
    }
}

/// The reason of a `.malformed` error, recording an issue for anything else.
func malformedReason(
    _ error: TransferError?, type: ContentType? = nil, sourceLocation: SourceLocation = #_sourceLocation
)
    -> String
{
    guard case .malformed(let t, let reason)? = error else {
        Issue.record("expected .malformed, got \(String(describing: error))", sourceLocation: sourceLocation)
        return ""
    }
    if let type { #expect(ContentType(t) == type, sourceLocation: sourceLocation) }
    return reason
}

/// A source of `total` bytes made on the fly, one chunk at a time, recording every request.
/// Chunk `k` is filled with the byte `k % 251`, so offsets can be checked without keeping the data.
final class GeneratedStream: Sendable {
    let total: Int64
    private let state = Mutex(State())
    struct State {
        var produced: Int64 = 0
        var reads = 0
        var largestRequest = 0
        var chunkIndex = 0
    }

    init(total: Int64) { self.total = total }

    var produced: Int64 { state.withLock { $0.produced } }
    var reads: Int { state.withLock { $0.reads } }
    var largestRequest: Int { state.withLock { $0.largestRequest } }

    /// The next chunk; `beforeChunk` runs first with the read number (1-based) and bytes so far.
    func next(_ maxLength: Int, beforeChunk: (Int, Int64) throws -> Void = { _, _ in }) throws -> Data {
        let (read, produced) = state.withLock { s in
            s.reads += 1
            s.largestRequest = max(s.largestRequest, maxLength)
            return (s.reads, s.produced)
        }
        try beforeChunk(read, produced)
        return state.withLock { s in
            let n = Int(min(Int64(maxLength), total - s.produced))
            if n <= 0 { return Data() }
            let chunk = Data(repeating: UInt8(s.chunkIndex % 251), count: n)
            s.chunkIndex += 1
            s.produced += Int64(n)
            return chunk
        }
    }
}

/// A readable summary of a choice: "1 image/png", or "0 application/x-dragdrop-chart -> image/png"
/// when it converts.
func summary(_ choice: RepresentationChoice?) -> String? {
    guard let choice else { return nil }
    let base = "\(choice.index) \(choice.offered.mimeType)"
    return choice.converts ? base + " -> \(choice.delivered.mimeType)" : base
}
