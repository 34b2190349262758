import DragDrop
import Foundation
import Synchronization
import Testing

/// A sink wrapper that counts what passes through and how much the copier has handed it that
/// the source produced but the file does not hold yet.
final class CountingSink: ByteSink {
    let inner: any ByteSink
    let stream: GeneratedStream
    private(set) var writes = 0
    private(set) var written: Int64 = 0
    private(set) var largestWrite = 0
    /// The most bytes ever produced by the source and not yet written through, seen at a write.
    private(set) var mostHeld: Int64 = 0
    private(set) var finished = false

    init(_ inner: any ByteSink, stream: GeneratedStream) {
        self.inner = inner
        self.stream = stream
    }

    func write(_ chunk: Data) throws {
        writes += 1
        largestWrite = max(largestWrite, chunk.count)
        mostHeld = max(mostHeld, stream.produced - written)
        try inner.write(chunk)
        written += Int64(chunk.count)
    }

    func finish() throws {
        try inner.finish()
        finished = true
    }

    func abandon() { inner.abandon() }
}

/// Large transfers are copied in bounded chunks: memory use does not grow with the size.
@Suite("Transfer: bounded memory")
struct TransferMemoryTests {
    static let size: Int64 = 200_000_000
    static let chunk = 1 << 20
    /// 190 full chunks, one partial chunk of 770,560 bytes, and the read that finds the end.
    static let expectedReads = 192

    /// Checks the size and, at a few offsets, the content of the generated file.
    static func checkGeneratedFile(_ path: String) throws {
        #expect(fileSize(path) == size)
        let handle = try #require(FileHandle(forReadingAtPath: path))
        defer { try? handle.close() }
        for index in [0, 1, 95, 189, 190] {
            try handle.seek(toOffset: UInt64(index * chunk))
            let first = try #require(try handle.read(upToCount: 1))
            #expect(first == Data([UInt8(index % 251)]))
        }
    }

    @Test("P4/memory: a 200 MB stream loaded to a file in 1 MiB chunks never holds more than the chunk in flight")
    func twoHundredMegabytesToFile() async throws {
        let dir = try makeTemporaryDirectory()
        defer { removeTree(dir) }
        let path = dir + "/recording.mp4"
        let stream = GeneratedStream(total: Self.size)
        let violations = Shared<[String]>([])
        let item = ItemProvider(
            app: "Camera",
            representations: [
                Representation("video/mp4", size: Self.size) {
                    .stream(
                        ClosureSource(size: Self.size) { max in
                            try stream.next(max) { read, produced in
                                // Before each read, everything produced so far is already on disk.
                                let partial = directoryContents(dir).filter { $0.hasSuffix(".partial") }
                                let onDisk = partial.first.flatMap { fileSize(dir + "/" + $0) } ?? 0
                                if partial.count != 1 || onDisk != produced {
                                    violations.update {
                                        $0.append("read \(read): \(partial) holds \(onDisk) of \(produced)")
                                    }
                                }
                            }
                        })
                }
            ])
        let progress = Progress(totalUnitCount: -1)
        let loaded = try await droppedData([item]).load(
            item: 0, accepting: ["video/*"],
            options: LoadOptions(target: .file(path: path), chunkSize: Self.chunk), progress: progress)
        #expect(loaded == .file("video/mp4", path: path))
        #expect(stream.largestRequest <= Self.chunk)
        #expect(stream.reads == Self.expectedReads)
        #expect(violations.value == [])
        #expect(progress.completedUnitCount == Self.size)
        try Self.checkGeneratedFile(path)
        #expect(directoryContents(dir) == ["recording.mp4"])
    }

    @Test("P4/memory: the copier hands a counting sink one chunk at a time, at most 1 MiB, over 200 MB")
    func countingSinkHoldsOneChunk() async throws {
        let dir = try makeTemporaryDirectory()
        defer { removeTree(dir) }
        let path = dir + "/copy.bin"
        let stream = GeneratedStream(total: Self.size)
        let sink = CountingSink(try FileSink(destination: path), stream: stream)
        let copied = try await ChunkedCopier(chunkSize: Self.chunk).copy(
            from: ClosureSource(size: Self.size) { try stream.next($0) }, to: sink, type: .octetStream)
        #expect(copied == Self.size)
        #expect(stream.largestRequest <= Self.chunk)
        #expect(stream.reads == Self.expectedReads)
        #expect(sink.writes == Self.expectedReads - 1)
        #expect(sink.largestWrite == Self.chunk)
        #expect(sink.mostHeld <= Int64(Self.chunk))
        #expect(sink.written == Self.size)
        #expect(sink.finished)
        try Self.checkGeneratedFile(path)
    }
}
