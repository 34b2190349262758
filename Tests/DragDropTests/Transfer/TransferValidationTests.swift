import DragDrop
import Foundation
import Testing

/// Dropped data comes from other apps and is untrusted: it is checked against its declared type
/// before a destination sees it, and bounded in size.
@Suite("Transfer: validating untrusted data")
struct TransferValidationTests {
    static func item(_ type: ContentType, _ data: Data) -> ItemProvider {
        ItemProvider(app: "Elsewhere", representations: [.data(type, data)])
    }

    static func reason(_ type: ContentType, _ data: Data, accepting: ContentType? = nil) async -> String {
        malformedReason(await loadError(droppedData([item(type, data)]), accepting: [accepting ?? type]), type: type)
    }

    // MARK: in memory

    @Test("A6: invalid UTF-8 text is refused, naming the offset of the first bad byte")
    func invalidUTF8() async {
        var bytes = Data("abc\u{E9}".utf8)  // 5 bytes: a, b, c and the two bytes of é
        bytes.append(contentsOf: [0xFF, 0x41])
        #expect(await Self.reason(.plainText, bytes) == "invalid UTF-8 near byte 5")
        #expect(await Self.reason("text/markdown", Data([0x41, 0xC3])) == "invalid UTF-8 near byte 1")
        // Types that are text through conformance are checked too.
        #expect(await Self.reason("application/json", Data([0x7B, 0xC0, 0xAF, 0x7D])) == "invalid UTF-8 near byte 1")
    }

    @Test("A6: a PNG without its signature, a JPEG without its marker and a PDF without its header are refused")
    func imageSignatures() async {
        #expect(await Self.reason(.png, Data("GIF89a....".utf8)) == "it does not start with the PNG signature")
        #expect(await Self.reason(.png, Data()) == "it does not start with the PNG signature")
        #expect(await Self.reason(.jpeg, Data([0xFF, 0xD8, 0x00, 0x00])) == "it does not start with a JPEG marker")
        #expect(await Self.reason("image/pjpeg", Data("JFIF".utf8)) == "it does not start with a JPEG marker")
        #expect(await Self.reason(.pdf, Data("PDF-1.7".utf8)) == "it does not start with %PDF-")
    }

    @Test("A6: a URI list with a relative path, a '..' segment or a line that is not a URI is refused")
    func badURILists() async {
        #expect(
            await Self.reason(.uriList, Data("file:///home/ana/a.png\r\nPictures/b.png\r\n".utf8))
                == "line 2 is not an absolute URI: Pictures/b.png")
        #expect(await Self.reason(.uriList, Data("file:Pictures/b.png\r\n".utf8)) == "line 1 has a relative file path")
        #expect(
            await Self.reason(.uriList, Data("# from Files\r\nfile:///home/ana/../../etc/shadow\r\n".utf8))
                == "line 2 has a '..' path segment")
        #expect(
            await Self.reason(.uriList, Data("file:///home/ana/%2E%2E/%2e%2e/etc/shadow\r\n".utf8))
                == "line 1 has a '..' path segment")
        #expect(
            await Self.reason(.uriList, Data("this is just a sentence\r\n".utf8))
                == "line 1 is not an absolute URI: this is just a sentence")
    }

    @Test("A6: a well-formed URI list with comments passes and parses to absolute URLs")
    func goodURIList() async throws {
        let list =
            "# dragged from Files\r\nfile:///home/ana/Pictures/Sea%20View.png\r\nhttps://example.com/a?b=c\r\n\r\n"
        let urls = try ContentValidation.uriList(list)
        #expect(
            urls.map(\.absoluteString) == ["file:///home/ana/Pictures/Sea%20View.png", "https://example.com/a?b=c"])
        #expect(urls.first?.path == "/home/ana/Pictures/Sea View.png")
        let loaded = try await droppedData([Self.item(.uriList, Data(list.utf8))]).load(item: 0, accepting: [.uriList])
        #expect(loaded == .data(.uriList, Data(list.utf8)))
    }

    // MARK: streamed to a file

    static let multiByte = "naïve café — 日本語 🙂 ok"

    @Test("A6: streamed text accepts multi-byte characters split across chunks of 1 to 4 bytes", arguments: 1...4)
    func streamedValidUTF8(chunkSize: Int) async throws {
        let dir = try makeTemporaryDirectory()
        defer { removeTree(dir) }
        let data = Data(Self.multiByte.utf8)
        let path = dir + "/note.txt"
        let loaded = try await droppedData([Self.item(.plainText, data)]).load(
            item: 0, accepting: [.plainText], options: LoadOptions(target: .file(path: path), chunkSize: chunkSize))
        #expect(loaded == .file(.plainText, path: path))
        #expect(FileManager.default.contents(atPath: path) == data)
    }

    @Test(
        "A6: streamed text catches invalid UTF-8 split across chunks of 1 to 4 bytes, naming its offset",
        arguments: 1...4)
    func streamedInvalidUTF8(chunkSize: Int) async throws {
        let dir = try makeTemporaryDirectory()
        defer { removeTree(dir) }
        let cases: [(bytes: [UInt8], reason: String)] = [
            // "ab日" then a three-byte lead followed by a non-continuation byte.
            (Array("ab日".utf8) + [0xE2, 0x28, 0xA1] + Array("cd".utf8), "invalid UTF-8 near byte 5"),
            // A stray continuation byte after a complete four-byte character.
            (Array("🙂".utf8) + [0x80] + Array("xyz".utf8), "invalid UTF-8 near byte 4"),
            // An overlong encoding of '/'.
            (Array("a/".utf8) + [0xC0, 0xAF] + Array("b".utf8), "invalid UTF-8 near byte 2"),
            // A surrogate encoded in UTF-8.
            (Array("x".utf8) + [0xED, 0xA0, 0x80], "invalid UTF-8 near byte 1"),
            // The text stops in the middle of a character.
            (Array("日本".utf8) + [0xE8, 0xAA], "it ends in the middle of a UTF-8 sequence"),
        ]
        for (bytes, reason) in cases {
            let path = dir + "/note.txt"
            let error = await loadError(
                droppedData([Self.item(.plainText, Data(bytes))]), accepting: [.plainText],
                options: LoadOptions(target: .file(path: path), chunkSize: chunkSize))
            #expect(malformedReason(error, type: .plainText) == reason, "\(bytes) in chunks of \(chunkSize)")
            #expect(directoryContents(dir) == [])
        }
    }

    @Test(
        "A6: a streamed PNG without its signature is refused and leaves no file, whatever its length",
        arguments: [3, 40])
    func streamedBadPNG(length: Int) async throws {
        let dir = try makeTemporaryDirectory()
        defer { removeTree(dir) }
        let error = await loadError(
            droppedData([Self.item(.png, Data(repeating: 0x42, count: length))]), accepting: [.png],
            options: LoadOptions(target: .file(path: dir + "/image.png"), chunkSize: 2))
        #expect(malformedReason(error, type: .png) == "it does not start with the PNG signature")
        #expect(directoryContents(dir) == [])
        // The real thing passes, in the same small chunks.
        _ = try await droppedData([Self.item(.png, Fixture.png)]).load(
            item: 0, accepting: [.png], options: LoadOptions(target: .file(path: dir + "/image.png"), chunkSize: 2))
        #expect(FileManager.default.contents(atPath: dir + "/image.png") == Fixture.png)
    }

    @Test("A6: a streamed URI list is checked line by line, across chunks", arguments: [1, 7, 4096])
    func streamedURIList(chunkSize: Int) async throws {
        let dir = try makeTemporaryDirectory()
        defer { removeTree(dir) }
        let path = dir + "/links.uri"
        let bad = "file:///home/ana/a.png\r\nfile:///home/ana/../../etc/shadow\r\n"
        let error = await loadError(
            droppedData([Self.item(.uriList, Data(bad.utf8))]), accepting: [.uriList],
            options: LoadOptions(target: .file(path: path), chunkSize: chunkSize))
        #expect(malformedReason(error, type: .uriList) == "line 2 has a '..' path segment")
        #expect(directoryContents(dir) == [])
        let noEnd = "https://example.com/a\r\nrelative/without/newline"
        let error2 = await loadError(
            droppedData([Self.item(.uriList, Data(noEnd.utf8))]), accepting: [.uriList],
            options: LoadOptions(target: .file(path: path), chunkSize: chunkSize))
        #expect(malformedReason(error2, type: .uriList) == "line 2 is not an absolute URI: relative/without/newline")
        let good = "# comment\r\nfile:///home/ana/a.png\r\nhttps://example.com/b\r\n"
        _ = try await droppedData([Self.item(.uriList, Data(good.utf8))]).load(
            item: 0, accepting: [.uriList], options: LoadOptions(target: .file(path: path), chunkSize: chunkSize))
        #expect(FileManager.default.contents(atPath: path) == Data(good.utf8))
    }

    @Test("A6: a streamed URI list holds at most one line in memory, and refuses a line longer than 1 MB")
    func streamedURIListLineLimit() async throws {
        let dir = try makeTemporaryDirectory()
        defer { removeTree(dir) }
        let endless = "https://example.com/" + String(repeating: "a", count: (1 << 20) + 1)
        let error = await loadError(
            droppedData([Self.item(.uriList, Data(("# fine\r\n" + endless).utf8))]), accepting: [.uriList],
            options: LoadOptions(target: .file(path: dir + "/links.uri"), chunkSize: 64 << 10))
        #expect(malformedReason(error, type: .uriList) == "line 2 is longer than 1 MB")
        #expect(directoryContents(dir) == [])
    }

    // MARK: size limits

    @Test("A6: data larger than the destination's limit is refused before it is produced")
    func declaredTooLarge() async {
        let produced = Shared(false)
        let item = ItemProvider(
            app: "Camera",
            representations: [
                Representation("video/mp4", size: 10_000_000) {
                    produced.update { $0 = true }
                    return .data(Data())
                }
            ])
        let error = await loadError(
            droppedData([item]), accepting: ["video/mp4"], options: LoadOptions(limit: 1_000_000))
        #expect(error == .tooLarge(type: "video/mp4", limit: 1_000_000, size: 10_000_000))
        #expect(error?.description == "The video/mp4 data is 10 MB, more than the 1 MB this destination takes.")
        #expect(!produced.value)
    }

    @Test("A6: a stream of unknown size is stopped as soon as it passes the limit")
    func streamedTooLarge() async throws {
        let dir = try makeTemporaryDirectory()
        defer { removeTree(dir) }
        let stream = GeneratedStream(total: 1_000_000)
        let item = ItemProvider(
            app: "Camera",
            representations: [
                Representation("video/mp4") { .stream(ClosureSource(size: nil) { try stream.next($0) }) }
            ])
        let error = await loadError(
            droppedData([item]), accepting: ["video/mp4"],
            options: LoadOptions(target: .file(path: dir + "/clip.mp4"), limit: 10_000, chunkSize: 4096))
        #expect(error == .tooLarge(type: "video/mp4", limit: 10_000, size: 12_288))
        #expect(stream.produced == 12_288)
        #expect(directoryContents(dir) == [])
    }

    @Test("A6: a stream whose known size passes the limit is refused before reading")
    func knownSizeTooLarge() async throws {
        let stream = GeneratedStream(total: 100_000)
        let item = ItemProvider(
            app: "Camera",
            representations: [
                Representation("video/mp4") { .stream(ClosureSource(size: 100_000) { try stream.next($0) }) }
            ])
        let error = await loadError(droppedData([item]), accepting: ["video/mp4"], options: LoadOptions(limit: 50_000))
        #expect(error == .tooLarge(type: "video/mp4", limit: 50_000, size: 100_000))
        #expect(stream.reads == 0)
    }

    @Test("A6: memory loads have a 64 MiB limit by default; file loads have none")
    func defaultLimits() {
        #expect(LoadOptions().limit == 64 << 20)
        #expect(LoadOptions(target: .file(path: "/tmp/x")).limit == nil)
        #expect(LoadOptions(limit: 5).limit == 5)
    }
}
