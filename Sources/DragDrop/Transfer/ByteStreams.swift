import Foundation
import Synchronization

/// A source of bytes read in chunks, so large representations never sit whole in memory.
public protocol ByteSource: Sendable {
    /// The total size, when known up front (P4).
    var knownSize: Int64? { get }
    /// The next chunk of at most `maxLength` bytes; an empty chunk means the end.
    func read(upTo maxLength: Int) async throws -> Data
}

/// Where loaded bytes go.
public protocol ByteSink: AnyObject {
    /// Appends a chunk.
    func write(_ chunk: Data) throws
    /// All bytes were written.
    func finish() throws
    /// The copy failed or was cancelled: discard what was written.
    func abandon()
}

/// Bytes already in memory, handed out in chunks.
public final class DataSource: ByteSource {
    private let data: Data
    private let offset = Mutex(0)

    /// Creates a source over `data`.
    public init(_ data: Data) { self.data = data }

    public var knownSize: Int64? { Int64(data.count) }

    public func read(upTo maxLength: Int) async throws -> Data {
        offset.withLock { offset in
            let end = min(data.count, offset + maxLength)
            defer { offset = end }
            return data.subdata(in: data.startIndex + offset..<data.startIndex + end)
        }
    }
}

/// A file read in chunks.
public final class FileSource: ByteSource {
    private let handle: Mutex<FileHandle?>
    /// The file's path.
    public let path: String
    public let knownSize: Int64?

    /// Opens `path` for reading.
    public init(path: String) throws(TransferError) {
        guard let h = FileHandle(forReadingAtPath: path) else {
            throw .io(path: path, reason: Localization.format(.cannotOpen))
        }
        self.path = path
        self.handle = Mutex(h)
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value
        self.knownSize = size
    }

    public func read(upTo maxLength: Int) async throws -> Data {
        try handle.withLock { handle in
            guard let h = handle else { return Data() }
            let chunk = try h.read(upToCount: maxLength) ?? Data()
            if chunk.isEmpty {
                try? h.close()
                handle = nil
            }
            return chunk
        }
    }

    /// Copies up to `maxLength` bytes from the file's current position to the file open as
    /// `descriptor`, inside the kernel (no copy through this process's memory), advancing both.
    /// Returns the bytes copied; 0 at the end of the file, which closes it as `read` does.
    /// Nil where the kernel cannot do it (other systems, or a file system that refuses): the
    /// caller then reads and writes as usual, from where this left off.
    func send(to descriptor: Int32, upTo maxLength: Int) throws -> Int? {
        #if os(Linux)
            try handle.withLock { handle -> Int? in
                guard let h = handle else { return 0 }
                let sent = sendfile(descriptor, h.fileDescriptor, nil, maxLength)
                if sent < 0 {
                    if errno == EINVAL || errno == ENOSYS || errno == EOPNOTSUPP { return nil }
                    throw TransferError.io(path: path, reason: String(cString: strerror(errno)))
                }
                if sent == 0 {
                    try? h.close()
                    handle = nil
                }
                return sent
            }
        #else
            return nil
        #endif
    }
}

/// A sink that can take bytes copied by the kernel straight into its file (see
/// ``FileSource/send(to:upTo:)``), bypassing ``ByteSink/write(_:)``.
protocol KernelCopySink: ByteSink {
    /// The descriptor to copy into now, or nil while the sink must see the bytes itself.
    var kernelCopyDescriptor: Int32? { get }
}

/// A source whose chunks come from a closure (a generator, a socket, another app's pipe).
public final class ClosureSource: ByteSource {
    private let next: @Sendable (Int) async throws -> Data
    public let knownSize: Int64?

    /// Creates a source calling `next(maxLength)` for each chunk; an empty chunk ends it.
    public init(size: Int64?, next: @escaping @Sendable (Int) async throws -> Data) {
        self.knownSize = size
        self.next = next
    }

    public func read(upTo maxLength: Int) async throws -> Data { try await next(maxLength) }
}

/// Collects bytes in memory, up to a limit.
public final class MemorySink: ByteSink {
    /// The bytes written so far.
    public private(set) var data = Data()

    /// Creates an empty sink.
    public init() {}
    public func write(_ chunk: Data) throws { data.append(chunk) }
    public func finish() throws {}
    public func abandon() { data = Data() }
}

/// Writes to a temporary file next to `destination` and renames it into place on `finish()`,
/// so no partial file is ever visible under the final name.
public final class FileSink: KernelCopySink {
    /// The final path.
    public let destination: String
    /// The temporary path written to until `finish()`.
    public let temporaryPath: String
    private var handle: FileHandle?

    /// Creates the temporary file (mode 0600) next to `destination`.
    public init(destination: String) throws(TransferError) {
        self.destination = destination
        // A bare file name has no directory part: its temporary file goes in the current
        // directory, next to it (not at "/", which "" + "/" would give).
        let parent = (destination as NSString).deletingLastPathComponent
        let dir = parent.isEmpty ? "." : parent
        let name = (destination as NSString).lastPathComponent
        self.temporaryPath = dir + "/.\(name).\(UUID().uuidString).partial"
        guard
            FileManager.default.createFile(
                atPath: temporaryPath, contents: nil, attributes: [.posixPermissions: 0o600]),
            let h = FileHandle(forWritingAtPath: temporaryPath)
        else { throw .io(path: temporaryPath, reason: Localization.format(.cannotCreate)) }
        handle = h
    }

    public func write(_ chunk: Data) throws {
        guard let handle else {
            throw TransferError.io(path: temporaryPath, reason: Localization.format(.alreadyClosed))
        }
        try handle.write(contentsOf: chunk)
    }

    public func finish() throws {
        try handle?.close()
        handle = nil
        if rename(temporaryPath, destination) != 0 {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(atPath: temporaryPath)
            throw TransferError.io(path: destination, reason: reason)
        }
    }

    /// Removes the temporary file. Its name goes at once; the space it holds is freed when its
    /// descriptor closes, which for hundreds of megabytes can take tens of milliseconds (the
    /// file system releases, and may discard, every block), so the close happens on a
    /// background queue: a cancelled load returns at once, with nothing left to see.
    public func abandon() {
        let handle = self.handle
        self.handle = nil
        try? FileManager.default.removeItem(atPath: temporaryPath)
        if let handle { DispatchQueue.global(qos: .utility).async { try? handle.close() } }
    }

    var kernelCopyDescriptor: Int32? { handle?.fileDescriptor }
}

/// Copies a ``ByteSource`` into a ``ByteSink`` in bounded chunks, reporting progress and
/// stopping at once on cancellation. Memory held at any time is one chunk, whatever the size.
public struct ChunkedCopier: Sendable {
    /// The largest chunk read at once.
    public var chunkSize: Int
    /// The most bytes accepted; more fails with ``TransferError/tooLarge(type:limit:size:)``.
    public var limit: Int64?

    /// Creates a copier (default chunks of 1 MiB, no limit).
    public init(chunkSize: Int = 1 << 20, limit: Int64? = nil) {
        precondition(chunkSize > 0, "chunkSize must be positive")
        self.chunkSize = chunkSize
        self.limit = limit
    }

    /// Copies everything, updating `progress` (its total is set from the source's known size,
    /// else from `expectedSize`) after each chunk. Throws ``TransferError/cancelled`` when the
    /// task or `progress` is cancelled, checked before every chunk; the sink is abandoned on any
    /// failure. A source that ends before its size is ``TransferError/sourceUnavailable(_:)``
    /// (an interrupted transfer); one that sends more is ``TransferError/malformed(type:reason:)``,
    /// stopped at the first chunk past the size.
    /// Returns the number of bytes copied.
    @discardableResult
    public func copy(
        from source: any ByteSource, to sink: any ByteSink, type: ContentType, progress: Progress? = nil,
        expectedSize: Int64? = nil
    ) async throws(TransferError) -> Int64 {
        try await copy(
            from: source, to: sink, type: type, progress: progress, expectedSize: expectedSize, reportsProgress: true)
    }

    /// The copy; with `reportsProgress` false, `progress` is only watched for cancellation (a
    /// second copy of bytes whose transfer it already counted).
    @discardableResult
    func copy(
        from source: any ByteSource, to sink: any ByteSink, type: ContentType, progress watched: Progress?,
        expectedSize: Int64?, reportsProgress: Bool
    ) async throws(TransferError) -> Int64 {
        let progress = reportsProgress ? watched : nil
        let expected = source.knownSize ?? expectedSize
        if let size = expected {
            progress?.totalUnitCount = size
            if let limit, size > limit {
                sink.abandon()
                throw .tooLarge(type: type.mimeType, limit: limit, size: size)
            }
        }
        var total: Int64 = 0
        // File to file, once the sink no longer needs to see the bytes (a binary type whose
        // signature it has checked), the kernel copies them: the data never passes through this
        // process, as with cp. Same chunks, same checks between them.
        let fileSource = source as? FileSource
        let kernelSink = sink as? any KernelCopySink
        do {
            while true {
                if Task.isCancelled || watched?.isCancelled == true { throw TransferError.cancelled }
                if let fileSource, let descriptor = kernelSink?.kernelCopyDescriptor {
                    // Never more than one byte past the limit or the declared size, so an
                    // oversized source is caught having written at most that byte (and the sink
                    // is then abandoned, as below).
                    var length = chunkSize
                    if let limit { length = Int(min(Int64(length), max(0, limit - total) + 1)) }
                    if let expected { length = Int(min(Int64(length), max(0, expected - total) + 1)) }
                    if let sent = try fileSource.send(to: descriptor, upTo: length) {
                        if sent == 0 { break }
                        total += Int64(sent)
                        if let limit, total > limit {
                            throw TransferError.tooLarge(type: type.mimeType, limit: limit, size: total)
                        }
                        if let expected, total > expected {
                            let declared = ByteCount.format(expected)
                            throw TransferError.malformed(
                                type: type.mimeType,
                                reason: Localization.format(.longerThanDeclared, ["size": .text(declared)]))
                        }
                        progress?.completedUnitCount = total
                        continue
                    }
                }
                let chunk = try await source.read(upTo: chunkSize)
                if chunk.isEmpty { break }
                total += Int64(chunk.count)
                if let limit, total > limit {
                    throw TransferError.tooLarge(type: type.mimeType, limit: limit, size: total)
                }
                if let expected, total > expected {
                    throw TransferError.malformed(
                        type: type.mimeType,
                        reason: Localization.format(
                            .longerThanDeclared, ["size": .text(ByteCount.format(expected))]))
                }
                try sink.write(chunk)
                progress?.completedUnitCount = total
            }
            if let size = expected, size != total {
                throw TransferError.sourceUnavailable(
                    Localization.format(
                        .endedAfter,
                        ["received": .text(ByteCount.format(total)), "size": .text(ByteCount.format(size))]))
            }
            if Task.isCancelled || watched?.isCancelled == true { throw TransferError.cancelled }
            try sink.finish()
        } catch let error as TransferError {
            sink.abandon()
            throw error
        } catch is CancellationError {
            sink.abandon()
            throw .cancelled
        } catch {
            sink.abandon()
            throw .sourceUnavailable(String(describing: error))
        }
        if progress?.totalUnitCount ?? 0 <= 0 { progress?.totalUnitCount = total }
        progress?.completedUnitCount = total
        return total
    }
}
