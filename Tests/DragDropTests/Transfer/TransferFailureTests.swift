import DragDrop
import Foundation
import Testing

struct PipeBroke: Error, CustomStringConvertible {
    var description: String { "the pipe to the source broke" }
}

/// A6, S4, F7: an interrupted transfer says so, and leaves everything where it was: no partial
/// destination file, nothing in the spool, an existing file untouched.
@Suite("Transfer: interrupted transfers")
struct TransferFailureTests {
    static let chunk = 1024
    static let size: Int64 = 10 * 1024

    static func breakingItem(afterChunks n: Int, stream: GeneratedStream, error: any Error = PipeBroke())
        -> ItemProvider
    {
        ItemProvider(
            app: "Camera",
            representations: [
                Representation("video/mp4", size: size) {
                    .stream(
                        ClosureSource(size: size) { max in
                            try stream.next(max) { read, _ in if read > n { throw error } }
                        })
                }
            ])
    }

    @Test("A6/S4: a source that breaks mid-stream fails the load as .sourceUnavailable with no partial file")
    func breaksMidStream() async throws {
        let dir = try makeTemporaryDirectory()
        defer { removeTree(dir) }
        let stream = GeneratedStream(total: Self.size)
        let path = dir + "/clip.mp4"
        let error = await loadError(
            droppedData([Self.breakingItem(afterChunks: 4, stream: stream)]), accepting: ["video/mp4"],
            options: LoadOptions(target: .file(path: path), chunkSize: Self.chunk))
        #expect(error == .sourceUnavailable("the pipe to the source broke"))
        #expect(stream.produced == 4 * 1024)
        #expect(directoryContents(dir) == [])
        // F7: the failure tells the user why.
        #expect(
            error?.dropFailure
                == DropFailure(.failed, "The source stopped providing the data: the pipe to the source broke."))
    }

    @Test("A6/S4: a failed load leaves a file already at the destination untouched")
    func existingFileUntouched() async throws {
        let dir = try makeTemporaryDirectory()
        defer { removeTree(dir) }
        let path = dir + "/clip.mp4"
        #expect(FileManager.default.createFile(atPath: path, contents: Data("the user's own file".utf8)))
        let error = await loadError(
            droppedData([Self.breakingItem(afterChunks: 2, stream: GeneratedStream(total: Self.size))]),
            accepting: ["video/mp4"], options: LoadOptions(target: .file(path: path), chunkSize: Self.chunk))
        #expect(error == .sourceUnavailable("the pipe to the source broke"))
        #expect(FileManager.default.contents(atPath: path) == Data("the user's own file".utf8))
        #expect(directoryContents(dir) == ["clip.mp4"])
    }

    @Test("A6/S4: a source that breaks while being spooled leaves nothing in the spool or at the destination")
    func breaksWhileSpooling() async throws {
        let root = try makeTemporaryDirectory()
        defer { removeTree(root) }
        let spool = try SpoolDirectory(path: root + "/spool")
        let stream = GeneratedStream(total: Self.size)
        let error = await loadError(
            droppedData([Self.breakingItem(afterChunks: 7, stream: stream)], spool: spool), accepting: ["video/mp4"],
            options: LoadOptions(target: .file(path: root + "/clip.mp4"), chunkSize: Self.chunk, spoolThreshold: 1024))
        #expect(error == .sourceUnavailable("the pipe to the source broke"))
        #expect(stream.produced == 7 * 1024)
        #expect(spool.contents() == [])
        #expect(directoryContents(root) == ["spool"])
    }

    @Test("A6: a source that throws a TransferError keeps its own reason")
    func transferErrorPassesThrough() async throws {
        let error = await loadError(
            droppedData([
                Self.breakingItem(
                    afterChunks: 1, stream: GeneratedStream(total: Self.size),
                    error: TransferError.sourceUnavailable("Camera quit"))
            ]),
            accepting: ["video/mp4"], options: LoadOptions(chunkSize: Self.chunk))
        #expect(error == .sourceUnavailable("Camera quit"))
    }

    @Test("A6: a representation that cannot be produced at the drop fails as .sourceUnavailable")
    func produceFails() async throws {
        let item = ItemProvider(app: "Camera", representations: [Representation("video/mp4") { throw SourceQuit() }])
        #expect(
            await loadError(droppedData([item]), accepting: ["video/mp4"]) == .sourceUnavailable("the source app quit"))
    }

    @Test("A6: a stream that ends before its known size is an interrupted transfer, not a short file")
    func endsEarlyKnownSize() async throws {
        let dir = try makeTemporaryDirectory()
        defer { removeTree(dir) }
        let stream = GeneratedStream(total: 3000)
        let item = ItemProvider(
            app: "Camera",
            representations: [
                Representation("video/mp4") { .stream(ClosureSource(size: 5000) { try stream.next($0) }) }
            ])
        let error = await loadError(
            droppedData([item]), accepting: ["video/mp4"],
            options: LoadOptions(target: .file(path: dir + "/clip.mp4"), chunkSize: Self.chunk))
        #expect(error == .sourceUnavailable("it ended after 3 KB of 5 KB"))
        #expect(directoryContents(dir) == [])
    }

    @Test("A6: a stream that ends before the size its representation declared is an interrupted transfer")
    func endsEarlyDeclaredSize() async throws {
        let dir = try makeTemporaryDirectory()
        defer { removeTree(dir) }
        let stream = GeneratedStream(total: 3000)
        let item = ItemProvider(
            app: "Camera",
            representations: [
                Representation("video/mp4", size: 5000) { .stream(ClosureSource(size: nil) { try stream.next($0) }) }
            ])
        let error = await loadError(
            droppedData([item]), accepting: ["video/mp4"],
            options: LoadOptions(target: .file(path: dir + "/clip.mp4"), chunkSize: Self.chunk))
        #expect(error == .sourceUnavailable("it ended after 3 KB of 5 KB"))
        #expect(directoryContents(dir) == [])
    }

    @Test("A6: a stream that sends more than its declared size is refused")
    func longerThanDeclared() async throws {
        let dir = try makeTemporaryDirectory()
        defer { removeTree(dir) }
        let stream = GeneratedStream(total: 8000)
        let item = ItemProvider(
            app: "Camera",
            representations: [
                Representation("video/mp4", size: 5000) { .stream(ClosureSource(size: nil) { try stream.next($0) }) }
            ])
        let error = await loadError(
            droppedData([item]), accepting: ["video/mp4"],
            options: LoadOptions(target: .file(path: dir + "/clip.mp4"), chunkSize: Self.chunk))
        #expect(malformedReason(error, type: "video/mp4") == "it is longer than the 5 KB it declared")
        // It stopped reading at the first chunk past the declared size.
        #expect(stream.produced == 5120)
        #expect(directoryContents(dir) == [])
    }

    @Test("A6: a representation whose file is gone fails with no partial file at the destination")
    func missingSourceFile() async throws {
        let dir = try makeTemporaryDirectory()
        defer { removeTree(dir) }
        let missing = dir + "/gone.mp4"
        let item = ItemProvider(app: "Files", representations: [Representation("video/mp4") { .file(path: missing) }])
        let target = dir + "/Downloads"
        try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
        let error = await loadError(
            droppedData([item]), accepting: ["video/mp4"],
            options: LoadOptions(target: .file(path: target + "/clip.mp4")))
        #expect(error == .io(path: missing, reason: "it cannot be opened for reading"))
        #expect(directoryContents(target) == [])
    }

    @Test("A6: a file sink with a relative destination writes its temporary file next to it, not at the root")
    func relativeFileSink() throws {
        let sink = try FileSink(destination: "dragdrop-relative-\(UUID().uuidString).bin")
        defer { sink.abandon() }
        #expect(!sink.temporaryPath.hasPrefix("/"))
        #expect(sink.temporaryPath.hasPrefix("./."))
    }
}
