import DragDrop
import Foundation
import Testing

struct SourceQuit: Error, CustomStringConvertible {
    var description: String { "the source app quit" }
}

/// P3: a long transfer starts at the drop and completes even if the source app stops running:
/// large streams are first copied to a spool the destination then reads at its own pace.
@Suite("Transfer: spool and durable transfers")
struct TransferSpoolTests {
    static let chunk = 64 << 10
    static let threshold: Int64 = 256 << 10
    static let size: Int64 = (1 << 20) + 10

    /// What the directories held at the moment the source delivered its last byte.
    struct AtQuit: Sendable, Equatable {
        var spool: [String] = []
        var spooledBytes: Int64 = 0
        var destination: [String] = []
        var destinationBytes: Int64 = 0
    }

    /// A stream that quits (every later read throws) as soon as it has delivered its end, and
    /// records what the spool and the destination held at that moment.
    static func quittingItem(
        size: Int64 = size, declaresSize: Bool = true, spoolDir: String?, destinationDir: String,
        stream: GeneratedStream, atQuit: Shared<AtQuit?>
    ) -> ItemProvider {
        let quit = Shared(false)
        @Sendable func bytes(in dir: String, suffix: String) -> ([String], Int64) {
            let names = directoryContents(dir)
            let matching = names.filter { $0.hasSuffix(suffix) }
            return (names, matching.compactMap { fileSize(dir + "/" + $0) }.reduce(0, +))
        }
        return ItemProvider(
            app: "Camera",
            representations: [
                Representation("video/mp4", size: declaresSize ? size : nil) {
                    .stream(
                        ClosureSource(size: declaresSize ? size : nil) { max in
                            if quit.value { throw SourceQuit() }
                            let chunk = try stream.next(max)
                            if chunk.isEmpty {
                                var snapshot = AtQuit()
                                if let spoolDir {
                                    (snapshot.spool, snapshot.spooledBytes) = bytes(in: spoolDir, suffix: ".partial")
                                }
                                (snapshot.destination, snapshot.destinationBytes) = bytes(
                                    in: destinationDir, suffix: ".partial")
                                atQuit.update { $0 = snapshot }
                                quit.update { $0 = true }
                            }
                            return chunk
                        })
                }
            ])
    }

    @Test(
        "P3: a large stream is spooled at the drop and the destination completes from the spool after the source quit")
    func completesFromSpoolAfterSourceQuits() async throws {
        let root = try makeTemporaryDirectory()
        defer { removeTree(root) }
        let spool = try SpoolDirectory(path: root + "/spool")
        let destinationDir = root + "/Downloads"
        try FileManager.default.createDirectory(atPath: destinationDir, withIntermediateDirectories: true)
        let stream = GeneratedStream(total: Self.size)
        let atQuit = Shared<AtQuit?>(nil)
        let item = Self.quittingItem(
            spoolDir: spool.path, destinationDir: destinationDir, stream: stream, atQuit: atQuit)
        let access = droppedData([item], spool: spool)
        let path = destinationDir + "/clip.mp4"

        let loaded = try await access.load(
            item: 0, accepting: ["video/mp4"],
            options: LoadOptions(target: .file(path: path), chunkSize: Self.chunk, spoolThreshold: Self.threshold))

        // When the source quit, all its bytes were in the spool and the destination had not
        // started writing: everything it has now came from the spool.
        let snapshot = try #require(atQuit.value)
        #expect(snapshot.spool.count == 1)
        #expect(snapshot.spooledBytes == Self.size)
        #expect(snapshot.destination == [])
        #expect(loaded == .file("video/mp4", path: path))
        #expect(fileSize(path) == Self.size)
        let data = try #require(FileManager.default.contents(atPath: path))
        #expect(data.first == 0 && data.last == UInt8(16 % 251))  // 16 full chunks, then a 10-byte one
        // The spool file is gone once the destination has its copy.
        #expect(spool.contents() == [])
        access.finish()
        #expect(spool.contents() == [])
    }

    @Test("P3: control: without a spool the destination is written while the source is still sending")
    func withoutSpoolDestinationReadsSource() async throws {
        let root = try makeTemporaryDirectory()
        defer { removeTree(root) }
        let stream = GeneratedStream(total: Self.size)
        let atQuit = Shared<AtQuit?>(nil)
        let item = Self.quittingItem(spoolDir: nil, destinationDir: root, stream: stream, atQuit: atQuit)
        let path = root + "/clip.mp4"
        _ = try await droppedData([item]).load(
            item: 0, accepting: ["video/mp4"],
            options: LoadOptions(target: .file(path: path), chunkSize: Self.chunk, spoolThreshold: Self.threshold))
        let snapshot = try #require(atQuit.value)
        #expect(snapshot.destination.count == 1)
        #expect(snapshot.destinationBytes == Self.size)
        #expect(fileSize(path) == Self.size)
    }

    @Test("P3: a stream of unknown size is spooled too; memory loads read the spool and release it")
    func unknownSizeIsSpooled() async throws {
        let root = try makeTemporaryDirectory()
        defer { removeTree(root) }
        let spool = try SpoolDirectory(path: root + "/spool")
        let stream = GeneratedStream(total: Self.size)
        let atQuit = Shared<AtQuit?>(nil)
        let item = Self.quittingItem(
            declaresSize: false, spoolDir: spool.path, destinationDir: root, stream: stream, atQuit: atQuit)
        let heldDuringLoad = Shared<[String]>([])
        let loaded = try await droppedData([item], spool: spool).load(
            item: 0, accepting: ["video/mp4"],
            options: LoadOptions(chunkSize: Self.chunk, spoolThreshold: Self.threshold) { _, data in
                heldDuringLoad.update { $0 = spool.contents() }
                return data
            })
        #expect(try #require(atQuit.value).spooledBytes == Self.size)
        #expect(heldDuringLoad.value.count == 1 && heldDuringLoad.value[0].hasSuffix(".spool"))
        guard case .data(_, let data) = loaded else { Issue.record("expected data"); return }
        #expect(Int64(data.count) == Self.size)
        #expect(spool.contents() == [])
    }

    @Test("P3: small streams and in-memory data are not spooled")
    func smallNotSpooled() async throws {
        let root = try makeTemporaryDirectory()
        defer { removeTree(root) }
        let spool = try SpoolDirectory(path: root + "/spool")
        let stream = GeneratedStream(total: Self.threshold)
        let atQuit = Shared<AtQuit?>(nil)
        let small = Self.quittingItem(
            size: Self.threshold, spoolDir: spool.path, destinationDir: root, stream: stream, atQuit: atQuit)
        _ = try await droppedData([small], spool: spool).load(
            item: 0, accepting: ["video/mp4"],
            options: LoadOptions(chunkSize: Self.chunk, spoolThreshold: Self.threshold))
        #expect(try #require(atQuit.value).spool == [])

        let big = Data(count: Int(Self.size))
        let inMemory = ItemProvider(app: "Camera", representations: [.data("video/mp4", big)])
        let heldDuringLoad = Shared<[String]?>(nil)
        _ = try await droppedData([inMemory], spool: spool).load(
            item: 0, accepting: ["video/mp4"],
            options: LoadOptions(chunkSize: Self.chunk, spoolThreshold: Self.threshold) { _, data in
                heldDuringLoad.update { $0 = spool.contents() }
                return data
            })
        #expect(heldDuringLoad.value == [])
    }

    @Test("P3: finish() deletes the spool files a load still holds")
    func finishRemovesHeldSpoolFiles() async throws {
        let root = try makeTemporaryDirectory()
        defer { removeTree(root) }
        let spool = try SpoolDirectory(path: root + "/spool")
        let stream = GeneratedStream(total: Self.size)
        let item = ItemProvider(
            app: "Camera",
            representations: [
                Representation("video/mp4", size: Self.size) {
                    .stream(ClosureSource(size: Self.size) { try stream.next($0) })
                }
            ])
        let access = droppedData([item], spool: spool)
        let observed = Shared<(before: Int, after: Int)?>(nil)
        _ = try await access.load(
            item: 0, accepting: ["video/mp4"],
            options: LoadOptions(chunkSize: Self.chunk, spoolThreshold: Self.threshold) { _, data in
                // The destination finishes with the drop while the spooled load is still running.
                let before = spool.contents().count
                access.finish()
                observed.update { $0 = (before, spool.contents().count) }
                return data
            })
        #expect(observed.value?.before == 1)
        #expect(observed.value?.after == 0)
        #expect(spool.contents() == [])
        #expect(await loadError(access, accepting: ["video/mp4"]) == .accessFinished)
    }

    @Test("P3: a spooled load that fails validation leaves nothing in the spool")
    func failedSpooledLoadCleansUp() async throws {
        let root = try makeTemporaryDirectory()
        defer { removeTree(root) }
        let spool = try SpoolDirectory(path: root + "/spool")
        var text = Data(repeating: UInt8(ascii: "a"), count: Int(Self.size))
        text.append(0xFF)
        let bytes = text
        let item = ItemProvider(
            app: "Editor",
            representations: [
                Representation(.plainText, size: Int64(bytes.count)) { .stream(DataSource(bytes)) }
            ])
        let error = await loadError(
            droppedData([item], spool: spool), accepting: [.plainText],
            options: LoadOptions(chunkSize: Self.chunk, spoolThreshold: Self.threshold))
        #expect(malformedReason(error, type: .plainText) == "invalid UTF-8 near byte \(Self.size)")
        #expect(spool.contents() == [])
    }

    @Test("P3/P4: with a spool, progress counts each byte once and never goes backwards")
    func spooledProgressIsMonotonic() async throws {
        let root = try makeTemporaryDirectory()
        defer { removeTree(root) }
        let spool = try SpoolDirectory(path: root + "/spool")
        let stream = GeneratedStream(total: Self.size)
        let item = ItemProvider(
            app: "Camera",
            representations: [
                Representation("video/mp4", size: Self.size) {
                    .stream(ClosureSource(size: Self.size) { try stream.next($0) })
                }
            ])
        let progress = RecordingProgress()
        _ = try await droppedData([item], spool: spool).load(
            item: 0, accepting: ["video/mp4"],
            options: LoadOptions(chunkSize: Self.chunk, spoolThreshold: Self.threshold),
            progress: progress)
        let history = progress.completedHistory
        #expect(progress.totalUnitCount == Self.size)
        #expect(progress.completedUnitCount == Self.size)
        #expect(zip(history, history.dropFirst()).allSatisfy { $0 <= $1 }, "completed went back: \(history)")
    }

    @Test("P3: cancelling a spooled load leaves nothing in the spool")
    func cancelledSpoolCleansUp() async throws {
        let root = try makeTemporaryDirectory()
        defer { removeTree(root) }
        let spool = try SpoolDirectory(path: root + "/spool")
        let stream = GeneratedStream(total: Self.size)
        let progress = Progress(totalUnitCount: -1)
        let item = ItemProvider(
            app: "Camera",
            representations: [
                Representation("video/mp4", size: Self.size) {
                    .stream(
                        ClosureSource(size: Self.size) { max in
                            try stream.next(max) { read, _ in if read == 5 { progress.cancel() } }
                        })
                }
            ])
        let error = await loadError(
            droppedData([item], spool: spool), accepting: ["video/mp4"],
            options: LoadOptions(
                target: .file(path: root + "/out.mp4"), chunkSize: Self.chunk, spoolThreshold: Self.threshold),
            progress: progress)
        #expect(error == .cancelled)
        #expect(spool.contents() == [])
        #expect(directoryContents(root) == ["spool"])
    }

    @Test("P3: sweep removes spool and partial files older than the given age, and keeps recent ones")
    func sweepRemovesOldFiles() throws {
        let root = try makeTemporaryDirectory()
        defer { removeTree(root) }
        let spool = try SpoolDirectory(path: root + "/spool")
        let now = Date()
        let files: [(String, TimeInterval)] = [
            ("abandoned.spool", 3 * 86_400), (".dead-source.spool.partial", 2 * 86_400), ("in-use.spool", 60),
        ]
        for (name, age) in files {
            let path = spool.path + "/" + name
            #expect(FileManager.default.createFile(atPath: path, contents: Data("x".utf8)))
            try FileManager.default.setAttributes([.modificationDate: now.addingTimeInterval(-age)], ofItemAtPath: path)
        }
        #expect(spool.sweep(olderThan: 86_400, now: now) == 2)
        #expect(spool.contents() == ["in-use.spool"])
        #expect(spool.sweep(olderThan: 86_400, now: now) == 0)
        // Seen from an hour later, the recent file is old enough too.
        #expect(spool.sweep(olderThan: 30, now: now.addingTimeInterval(3600)) == 1)
        #expect(spool.contents() == [])
    }

    @Test("P3: the spool directory is private to the user, found under XDG_RUNTIME_DIR or the cache")
    func spoolLocation() throws {
        let root = try makeTemporaryDirectory()
        defer { removeTree(root) }
        let runtime = try SpoolDirectory.forCurrentUser(environment: ["XDG_RUNTIME_DIR": root + "/run", "HOME": root])
        #expect(runtime.path == root + "/run/dragdrop-spool")
        let permissions = try FileManager.default.attributesOfItem(atPath: runtime.path)[.posixPermissions] as? NSNumber
        #expect(permissions?.intValue == 0o700)
        let cache = try SpoolDirectory.forCurrentUser(environment: ["XDG_CACHE_HOME": root + "/cache"])
        #expect(cache.path == root + "/cache/dragdrop/spool")
        let home = try SpoolDirectory.forCurrentUser(environment: ["HOME": root])
        #expect(home.path == root + "/.cache/dragdrop/spool")
        #expect(FileManager.default.createFile(atPath: root + "/plain-file", contents: nil))
        #expect(throws: TransferError.io(path: root + "/plain-file", reason: "it is not a directory")) {
            try SpoolDirectory(path: root + "/plain-file")
        }
    }
}
