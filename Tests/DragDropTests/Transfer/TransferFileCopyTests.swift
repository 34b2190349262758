import DragDrop
import Foundation
import Testing

/// A file representation loaded to a file: after the first chunk (which validation sees), the
/// kernel copies the rest; the result, progress, limits and cancellation must be the same as
/// for a copy through memory.
@Suite("Transfer: file to file")
struct TransferFileCopyTests {
    static let chunk = 64 << 10

    /// `size` pseudo-random bytes (a PNG signature first, so the type's validation passes).
    static func payload(_ size: Int) -> Data {
        var data = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        data.reserveCapacity(size)
        while data.count < size {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            data.append(UInt8(truncatingIfNeeded: state >> 56))
        }
        return data
    }

    static func provider(_ path: String, size: Int) -> ItemProvider {
        ItemProvider(app: "Preview", representations: [Representation(.png, size: Int64(size)) { .file(path: path) }])
    }

    @Test("P4: a 3 MiB file arrives byte for byte, with progress at its size")
    func exactCopy() async throws {
        let dir = try makeTemporaryDirectory()
        defer { removeTree(dir) }
        let size = 3 << 20 + 12_345
        let bytes = Self.payload(size)
        try bytes.write(to: URL(fileURLWithPath: dir + "/source.png"))
        let progress = Progress(totalUnitCount: -1)
        let access = droppedData([Self.provider(dir + "/source.png", size: size)])
        let loaded = try await access.load(
            item: 0, accepting: [.png],
            options: LoadOptions(target: .file(path: dir + "/dropped.png"), chunkSize: Self.chunk),
            progress: progress)
        #expect(loaded == .file(.png, path: dir + "/dropped.png"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir + "/dropped.png")) == bytes)
        #expect(progress.completedUnitCount == Int64(size))
        #expect(progress.totalUnitCount == Int64(size))
        #expect(directoryContents(dir) == ["dropped.png", "source.png"])
    }

    @Test("P4: a file larger than the limit fails as .tooLarge and leaves no file")
    func limit() async throws {
        let dir = try makeTemporaryDirectory()
        defer { removeTree(dir) }
        let size = 1 << 20
        try Self.payload(size).write(to: URL(fileURLWithPath: dir + "/source.png"))
        // The representation does not declare its size, so only the copy can find it too large.
        let provider = ItemProvider(
            app: "Preview", representations: [Representation(.png) { .file(path: dir + "/source.png") }])
        let access = droppedData([provider])
        await #expect(throws: TransferError.self) {
            try await access.load(
                item: 0, accepting: [.png],
                options: LoadOptions(target: .file(path: dir + "/dropped.png"), limit: 200_000, chunkSize: Self.chunk))
        }
        #expect(directoryContents(dir) == ["source.png"])
    }

    /// A progress that cancels itself once `threshold` units are done: a cancel arriving
    /// mid-copy, at a known point, without racing a second task.
    final class CancellingProgress: Progress, @unchecked Sendable {
        let threshold: Int64
        init(after threshold: Int64) {
            self.threshold = threshold
            super.init(parent: nil, userInfo: nil)
        }
        override var completedUnitCount: Int64 {
            didSet { if completedUnitCount >= threshold { cancel() } }
        }
    }

    @Test("P4: cancelling the progress mid-copy stops it before the next chunk and leaves no file")
    func cancel() async throws {
        let dir = try makeTemporaryDirectory()
        defer { removeTree(dir) }
        let size = 2 << 20
        try Self.payload(size).write(to: URL(fileURLWithPath: dir + "/source.png"))
        let progress = CancellingProgress(after: Int64(3 * Self.chunk))
        let access = droppedData([Self.provider(dir + "/source.png", size: size)])
        await #expect(throws: TransferError.cancelled) {
            try await access.load(
                item: 0, accepting: [.png],
                options: LoadOptions(target: .file(path: dir + "/dropped.png"), chunkSize: Self.chunk),
                progress: progress)
        }
        #expect(progress.completedUnitCount == Int64(3 * Self.chunk))
        #expect(directoryContents(dir) == ["source.png"])
    }
}
