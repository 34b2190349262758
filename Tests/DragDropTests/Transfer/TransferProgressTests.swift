import DragDrop
import Foundation
import Synchronization
import Testing

/// A `Progress` that records every value its completed count takes.
final class RecordingProgress: Progress, @unchecked Sendable {
    private let history = Mutex<[Int64]>([])
    init() { super.init(parent: nil, userInfo: nil) }
    override var completedUnitCount: Int64 {
        didSet { let value = completedUnitCount; history.withLock { $0.append(value) } }
    }
    var completedHistory: [Int64] { history.withLock { $0 } }
}

/// P4: a transfer reports its total size up front and its progress as it goes; it can be
/// cancelled at once, leaving nothing behind.
@Suite("Transfer: progress and cancellation")
struct TransferProgressTests {
    static let chunk = 4096
    static let declared: Int64 = 10 * 4096 + 123

    @Test("P4: the total is the declared size before the first byte arrives; completed equals it at the end")
    func totalKnownUpFront() async throws {
        let progress = Progress(totalUnitCount: -1)
        let stream = GeneratedStream(total: Self.declared)
        let totalsSeen = Shared<[Int64]>([])
        let item = ItemProvider(
            app: "Video",
            representations: [
                Representation("video/mp4", size: Self.declared) {
                    // The stream itself does not know its size: the representation's declaration is used.
                    .stream(
                        ClosureSource(size: nil) { max in
                            try stream.next(max) { _, _ in totalsSeen.update { $0.append(progress.totalUnitCount) } }
                        })
                }
            ])
        let access = droppedData([item])
        let loaded = try await access.load(
            item: 0, accepting: ["video/*"], options: LoadOptions(chunkSize: Self.chunk), progress: progress)
        guard case .data(_, let data) = loaded else { Issue.record("expected data"); return }
        #expect(Int64(data.count) == Self.declared)
        let totals = totalsSeen.value
        #expect(totals.count == 12)  // 11 chunks and the end
        #expect(totals.allSatisfy { $0 == Self.declared })
        #expect(progress.totalUnitCount == Self.declared)
        #expect(progress.completedUnitCount == Self.declared)
        #expect(progress.fractionCompleted == 1)
    }

    @Test("P4: a stream that knows its size sets the total even when the representation does not declare one")
    func totalFromStream() async throws {
        let progress = Progress(totalUnitCount: -1)
        let stream = GeneratedStream(total: Self.declared)
        let firstTotal = Shared<Int64?>(nil)
        let item = ItemProvider(
            app: "Video",
            representations: [
                Representation("video/mp4") {
                    .stream(
                        ClosureSource(size: Self.declared) { max in
                            try stream.next(max) { read, _ in
                                if read == 1 { firstTotal.update { $0 = progress.totalUnitCount } }
                            }
                        })
                }
            ])
        _ = try await droppedData([item]).load(
            item: 0, accepting: ["video/mp4"], options: LoadOptions(chunkSize: Self.chunk), progress: progress)
        #expect(firstTotal.value == Self.declared)
        #expect(progress.completedUnitCount == Self.declared)
    }

    @Test("P4: completed bytes grow chunk by chunk and never go backwards")
    func completedIsMonotonic() async throws {
        let progress = RecordingProgress()
        let stream = GeneratedStream(total: Self.declared)
        let item = ItemProvider(
            app: "Video",
            representations: [
                Representation("video/mp4", size: Self.declared) {
                    .stream(ClosureSource(size: Self.declared) { try stream.next($0) })
                }
            ])
        _ = try await droppedData([item]).load(
            item: 0, accepting: ["video/mp4"], options: LoadOptions(chunkSize: Self.chunk), progress: progress)
        let history = progress.completedHistory
        #expect(history.first == Int64(Self.chunk))
        #expect(history.last == Self.declared)
        #expect(zip(history, history.dropFirst()).allSatisfy { $0 <= $1 })
    }

    @Test("P4: cancelling the progress from inside the source stops the copy: .cancelled, no file, no partial file")
    func cancelThroughProgress() async throws {
        let dir = try makeTemporaryDirectory()
        defer { removeTree(dir) }
        let progress = Progress(totalUnitCount: -1)
        let stream = GeneratedStream(total: Self.declared)
        let item = ItemProvider(
            app: "Video",
            representations: [
                Representation("video/mp4", size: Self.declared) {
                    .stream(
                        ClosureSource(size: Self.declared) { max in
                            try stream.next(max) { read, _ in if read == 3 { progress.cancel() } }
                        })
                }
            ])
        let path = dir + "/movie.mp4"
        let error = await loadError(
            droppedData([item]), accepting: ["video/mp4"],
            options: LoadOptions(target: .file(path: path), chunkSize: Self.chunk), progress: progress)
        #expect(error == .cancelled)
        #expect(error?.dropFailure.code == .cancelled)
        // The copy stopped at the next chunk: the third chunk was the last one read.
        #expect(stream.reads == 3)
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(directoryContents(dir) == [])
    }

    @Test("P4: cancelling the loading task stops the copy the same way")
    func cancelThroughTask() async throws {
        let dir = try makeTemporaryDirectory()
        defer { removeTree(dir) }
        let stream = GeneratedStream(total: Self.declared)
        let item = ItemProvider(
            app: "Video",
            representations: [
                Representation("video/mp4", size: Self.declared) {
                    .stream(
                        ClosureSource(size: Self.declared) { max in
                            try stream.next(max) { read, _ in
                                if read == 2 { withUnsafeCurrentTask { $0?.cancel() } }
                            }
                        })
                }
            ])
        let path = dir + "/movie.mp4"
        let access = droppedData([item])
        let task = Task {
            await loadError(
                access, accepting: ["video/mp4"], options: LoadOptions(target: .file(path: path), chunkSize: Self.chunk)
            )
        }
        #expect(await task.value == .cancelled)
        #expect(stream.reads == 2)
        #expect(directoryContents(dir) == [])
    }
}
