import DragDrop
import Foundation
import DriverProtocol
import WindowDriver
import Testing

@testable import DragDropGTK

/// Downloads of dropped web addresses (``WebFetcher``) against a server on 127.0.0.1 that
/// misbehaves on purpose, without a display.
@Suite("Browsers: downloading a dropped web address", .serialized)
struct WebFetcherTests {
    static let photo = TestImage.png(width: 40, height: 30, seed: 1)

    /// A server for the cases below.
    func server() throws -> LoopbackServer {
        try LoopbackServer { path in
            switch path {
            case "/photo.png": .ok(Self.photo, type: "image/png")
            case "/r1": .redirect("/r2")
            case "/r2": .redirect("/photo.png")
            case "/loop": .redirect("/loop")
            case "/to-ftp": .redirect("ftp://127.0.0.1/photo.png")
            case "/huge": LoopbackServer.Response(type: "image/png", body: Data(count: 10), declaredLength: 10 << 20)
            case "/unsized": LoopbackServer.Response(type: "image/png", body: Data(count: 3 << 20), declaredLength: -1)
            case "/stalls": LoopbackServer.Response(type: "image/png", body: Self.photo, chunkDelay: 4, chunkSize: 100)
            case "/slow":
                LoopbackServer.Response(type: "image/png", body: Data(count: 400_000), chunkDelay: 0.1, chunkSize: 4096)
            default: .status(404)
            }
        }
    }

    func fetch(_ url: String, with fetcher: WebFetcher = WebFetcher(), limit: Int64 = 1 << 20) async
        -> Result<WebResource, TransferError>
    {
        do throws(TransferError) {
            return .success(try await fetcher.fetch(URL(string: url)!, limit: limit) { _, _ in })
        } catch {
            return .failure(error)
        }
    }

    @Test("A5: a download reports its progress up to its announced size and brings the bytes and the declared type")
    func download() async throws {
        let server = try server()
        defer { server.stop() }
        let reports = Shared<[(Int64, Int64?)]>([])
        let resource = try await WebFetcher().fetch(URL(string: server.url("/photo.png"))!, limit: 1 << 20) {
            received, total in
            reports.update { $0.append((received, total)) }
        }
        #expect(resource.data == Self.photo)
        #expect(resource.declaredType == .png)
        #expect(reports.value.last.map { $0.0 == Int64(Self.photo.count) && $0.1 == Int64(Self.photo.count) } == true)
    }

    @Test("A6: a status other than 2xx fails, naming it")
    func status() async throws {
        let server = try server()
        defer { server.stop() }
        guard case .failure(.sourceUnavailable(let reason)) = await fetch(server.url("/missing.png")) else {
            Issue.record("a 404 must fail")
            return
        }
        #expect(reason.hasPrefix("the web server answered 404"))
    }

    @Test("Redirects are followed up to five times, only to web addresses")
    func redirects() async throws {
        let server = try server()
        defer { server.stop() }
        let followed = try await fetch(server.url("/r1")).get()
        #expect(followed.data == Self.photo && followed.url.path == "/photo.png")
        guard case .failure(.sourceUnavailable(let loop)) = await fetch(server.url("/loop")) else {
            Issue.record("a redirect loop must fail")
            return
        }
        #expect(loop.contains("redirected more than 5 times"))
        guard
            case .failure(.sourceUnavailable(let ftp)) = await fetch(
                server.url("/to-ftp"), with: WebFetcher(totalTimeout: 5))
        else {
            Issue.record("a redirect to ftp must fail")
            return
        }
        #expect(ftp.contains("ftp://127.0.0.1/photo.png, not a web address"), "\(ftp)")
    }

    @Test(
        "Limits: an announced size over the limit is refused before the body; an unannounced body is cut at the limit")
    func limits() async throws {
        let server = try server()
        defer { server.stop() }
        #expect(
            await fetch(server.url("/huge")) == .failure(.tooLarge(type: "image/png", limit: 1 << 20, size: 10 << 20)))
        guard case .failure(.tooLarge(_, let limit, let size)) = await fetch(server.url("/unsized")) else {
            Issue.record("a body over the limit must fail")
            return
        }
        #expect(limit == 1 << 20 && size > limit && size < 3 << 20, "stopped soon after the limit, not at the end")
    }

    @Test("A6: a server that stops sending fails after the idle timeout")
    func idleTimeout() async throws {
        let server = try server()
        defer { server.stop() }
        let start = Date()
        let result = await fetch(server.url("/stalls"), with: WebFetcher(idleTimeout: 1))
        guard case .failure(.sourceUnavailable(let reason)) = result else {
            Issue.record("a stalled download must fail, got \(result)")
            return
        }
        #expect(reason.contains("sent nothing for too long"), "\(reason)")
        #expect(Date().timeIntervalSince(start) < 3.5)
    }

    @Test("Cancel: cancelling the task stops the download at once")
    func cancel() async throws {
        let server = try server()
        defer { server.stop() }
        let url = server.url("/slow")
        let task = Task { await fetch(url) }
        try await Task.sleep(for: .milliseconds(300))
        let start = Date()
        task.cancel()
        #expect(await task.value == .failure(.cancelled))
        #expect(Date().timeIntervalSince(start) < 1)
    }

    @Test("Only web addresses are fetched")
    func onlyWeb() async {
        guard case .failure(.malformed) = await fetch("file:///etc/passwd") else {
            Issue.record("a file address must not be fetched")
            return
        }
    }
}

extension Result where Success == WebResource, Failure == TransferError {
    static func == (a: Self, b: Self) -> Bool {
        switch (a, b) {
        case (.success(let x), .success(let y)): x == y
        case (.failure(let x), .failure(let y)): x == y
        default: false
        }
    }
}

/// A value shared with `@Sendable` closures.
final class Shared<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: Value
    init(_ value: Value) { storage = value }
    var value: Value {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }
    func update(_ body: (inout Value) -> Void) {
        lock.lock()
        defer { lock.unlock() }
        body(&storage)
    }
}

/// Files other apps receive for dragged items (``FileExport``), without a display.
@MainActor
@Suite("Browsers: dragged items as files in a private cache", .serialized)
struct FileExportTests {
    func withCache(_ body: (URL) async throws -> Void) async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "dragdrop-exports-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try await body(root)
    }

    func address(_ provider: ItemProvider) async throws -> String {
        let representation = try #require(provider.representations.last { $0.type == .uriList })
        guard case .data(let data) = try await representation.produce() else { throw CancellationError() }
        return String(decoding: data, as: UTF8.self)
    }

    @Test(
        "P1: an item with a suggested name also offers its richest form for every app as a file; others and items with their own list are left alone"
    )
    func fileForms() async throws {
        try await withCache { root in
            let export = FileExport(directory: root)
            let drawing = ItemProvider(
                app: "Showcase",
                representations: [
                    .data("application/x-native", Data("n".utf8), visibility: .ownApp),
                    .data(.pdf, Data("%PDF-1.4 x".utf8)),
                    .data(.png, Data([0x89])),
                ], suggestedName: "House/and Sun")
            let plain = ItemProvider(
                app: "Showcase", representations: [.text(.utf8PlainText, "Milk")], suggestedName: "Milk")
            let file = ItemProvider(
                app: "Showcase", representations: [.text(.uriList, "file:///tmp/a.txt\r\n")], suggestedName: "a")
            let unnamed = ItemProvider(app: "Showcase", representations: [.data(.png, Data([0x89]))])
            let out = export.addingFileForms(to: [drawing, plain, file, unnamed])
            #expect(
                out[0].representations.map(\.type.mimeType) == [
                    "application/x-native", "application/pdf", "image/png", "text/uri-list",
                ])
            #expect(out[1].representations.count == 1, "text only: no file form")
            #expect(out[2].representations.count == 1, "it names its own file")
            #expect(out[3].representations.count == 1, "no name: no file form")
            let line = try await address(out[0])
            #expect(line.hasSuffix("/House-and%20Sun.pdf\r\n"), "named after the item, '/' replaced: \(line)")
        }
    }

    @Test(
        "P5: before the drop a request names a file of the right size holding only zeros (the content waits hidden beside it); the drop puts the representation's bytes in place at once, produced once, private"
    )
    func writtenOnlyAfterTheDrop() async throws {
        try await withCache { root in
            let export = FileExport(directory: root)
            let produced = Shared(0)
            let photo = ItemProvider(
                app: "Web Page",
                representations: [
                    Representation(.png) {
                        produced.update { $0 += 1 }
                        return .data(Data([0x89, 0x50, 0x4E, 0x47, 1, 2, 3]))
                    }
                ], suggestedName: "Beach")
            let provider = export.addingFileForms(to: [photo])[0]
            let early = try await address(provider)
            let url = try #require(URL(string: early.trimmingCharacters(in: .whitespacesAndNewlines)))
            #expect(url.lastPathComponent == "Beach.png")
            // Firefox takes an address as a file only if it exists when asked, with its size then.
            let before = try Data(contentsOf: url)
            #expect(
                before.count == 7 && before.allSatisfy { $0 == 0 },
                "P5: no byte of it before the drop: \(Array(before))")
            let listed = try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path)
                .sorted()
            #expect(listed == [".Beach.png.staged", "Beach.png"], "the content waits hidden beside it: \(listed)")

            // The address was handed out: the drop puts the staged content in place before
            // `dropPerformed` returns, without waiting for anything (on Wayland the other app
            // hears of the drop when we do and may read the file at once).
            export.dropWriteTimeout = 0
            export.dropPerformed()
            #expect(
                try Data(contentsOf: url) == Data([0x89, 0x50, 0x4E, 0x47, 1, 2, 3]),
                "in place when the drop returns, no main-loop turn needed")
            _ = try await address(provider)
            #expect(try Data(contentsOf: url) == Data([0x89, 0x50, 0x4E, 0x47, 1, 2, 3]))
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path) == [
                    "Beach.png"
                ],
                "renamed into place")
            _ = try await address(provider)
            #expect(produced.value == 1, "produced once, however often it is asked for")
            let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
            let folder = try FileManager.default.attributesOfItem(atPath: url.deletingLastPathComponent().path)
            #expect((folder[.posixPermissions] as? NSNumber)?.intValue == 0o700)
        }
    }

    @Test(
        "P3: the sweep removes drags older than the retention (left by this or an earlier session) and the folders other apps saved into (X Direct Save), keeps recent ones and never touches anything else"
    )
    func sweep() async throws {
        try await withCache { root in
            let manager = FileManager.default
            try manager.createDirectory(at: root, withIntermediateDirectories: true)
            let old = root.appendingPathComponent("drag-1-2-old")
            let recent = root.appendingPathComponent("drag-3-4-recent")
            let oldSaved = root.appendingPathComponent("saved-1-2-old")
            let foreign = root.appendingPathComponent("notes")
            for folder in [old, recent, oldSaved, foreign] {
                try manager.createDirectory(at: folder, withIntermediateDirectories: true)
                try Data("x".utf8).write(to: folder.appendingPathComponent("file.png"))
            }
            // A link inside an old drag pointing outside: removed, its target kept.
            let outside = root.deletingLastPathComponent().appendingPathComponent("outside-\(UUID().uuidString)")
            try Data("keep".utf8).write(to: outside)
            defer { try? manager.removeItem(at: outside) }
            try manager.createSymbolicLink(at: old.appendingPathComponent("link"), withDestinationURL: outside)
            let twoHoursAgo = Date().addingTimeInterval(-7200)
            for folder in [old, oldSaved, foreign] {
                try manager.setAttributes([.modificationDate: twoHoursAgo], ofItemAtPath: folder.path)
            }

            let export = FileExport(directory: root)
            #expect(export.sweep() == ["drag-1-2-old", "saved-1-2-old"], "drags, and folders other apps saved into")
            #expect(!manager.fileExists(atPath: old.path) && !manager.fileExists(atPath: oldSaved.path))
            #expect(manager.fileExists(atPath: recent.path) && manager.fileExists(atPath: foreign.path))
            #expect(try Data(contentsOf: outside) == Data("keep".utf8), "links are removed, never followed")
            #expect(
                export.sweep(now: Date().addingTimeInterval(7200)) == ["drag-3-4-recent"],
                "a later session sweeps the rest")
        }
    }
}

/// Text browsers send in UTF-16, and links in styled text.
@Suite("Browsers: text and links")
struct BrowserTextTests {
    func transcoded(_ data: Data) async throws -> String {
        let source = UTF16TranscodingSource(DataSource(data))
        var out = Data()
        while true {
            let chunk = try await source.read(upTo: 7)
            if chunk.isEmpty { break }
            out.append(chunk)
        }
        return String(decoding: out, as: UTF8.self)
    }

    @Test(
        "A7: HTML in UTF-16 (with or without a byte order mark, little- or big-endian) arrives as UTF-8; UTF-8 passes untouched"
    )
    func utf16() async throws {
        let html = "<meta charset='utf-8'><b>Café</b> ✓"
        var le = Data([0xFF, 0xFE])
        var be = Data([0xFE, 0xFF])
        var bare = Data()
        for unit in html.utf16 {
            le.append(contentsOf: [UInt8(unit & 0xFF), UInt8(unit >> 8)])
            be.append(contentsOf: [UInt8(unit >> 8), UInt8(unit & 0xFF)])
            bare.append(contentsOf: [UInt8(unit & 0xFF), UInt8(unit >> 8)])
        }
        #expect(try await transcoded(le) == html)
        #expect(try await transcoded(be) == html)
        #expect(try await transcoded(bare) == html)
        #expect(try await transcoded(Data(html.utf8)) == html)
    }

    @Test("C3, A7: <a href> becomes a link and back; only http, https, mailto and checked file addresses are kept")
    func links() {
        let runs = StyledHTML.runs(
            fromHTML: #"See <a href="https://example.org/a?b=1&amp;c=2">the <b>article</b></a> now"#)
        #expect(
            runs == [
                StyledRun("See "), StyledRun("the ", link: "https://example.org/a?b=1&c=2"),
                StyledRun("article", bold: true, link: "https://example.org/a?b=1&c=2"), StyledRun(" now"),
            ])
        #expect(StyledHTML.runs(fromHTML: StyledHTML.html(from: runs)) == runs)
        for unsafe in [
            "javascript:alert(1)", "data:text/html;base64,PGI+eDwvYj4=", "article.html", "file:///a/../etc/passwd",
            "vbscript:x",
        ] {
            #expect(StyledHTML.safeLink(unsafe) == nil, "\(unsafe) must not become a link")
            #expect(StyledHTML.runs(fromHTML: "<a href=\"\(unsafe)\">x</a>") == [StyledRun("x")])
        }
        #expect(StyledHTML.safeLink("mailto:grandma@example.com") == "mailto:grandma@example.com")
        #expect(StyledHTML.safeLink(" http://h/x ") == "http://h/x")
    }

    @Test("A2: a dropped Mozilla link becomes its title linking to its address; a URI list one link a line")
    func droppedLinks() {
        #expect(
            DroppedText.linkRuns(ImageIntake.mozURL, Data("https://h/a\nHarbour".utf8))
                == [StyledRun("Harbour", link: "https://h/a")])
        #expect(
            DroppedText.linkRuns(.uriList, Data("https://h/a\r\njavascript:x\r\n".utf8))
                == [StyledRun("https://h/a", link: "https://h/a"), StyledRun("\njavascript:x")])
        #expect(DroppedText.linkRuns(.html, Data()) == nil)
    }
}

/// The folder another app saves into through X Direct Save (``DirectSave``), without a display.
@Suite("Other apps: X Direct Save's folder")
struct DirectSaveFolderTests {
    @Test(
        "A4: a file still open in the folder keeps it busy (its source is still writing); closed, the folder lists its entries as a file list"
    )
    func busyUntilClosed() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("xds-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = try DirectSave.folder(in: root)
        #expect(folder.lastPathComponent.hasPrefix(DirectSave.prefix))
        let permissions = try FileManager.default.attributesOfItem(atPath: folder.path)[.posixPermissions] as? Int
        #expect(permissions == 0o700, "private to this user")
        #expect(DirectSave.Snapshot(of: folder).entries.isEmpty)
        let file = folder.appendingPathComponent("Pancakes 1.txt")
        #expect(FileManager.default.createFile(atPath: file.path, contents: Data("flour".utf8)))
        let handle = try FileHandle(forWritingTo: file)
        let writing = DirectSave.Snapshot(of: folder)
        #expect(writing.busy && writing.entries.keys.sorted() == ["Pancakes 1.txt"])
        try handle.close()
        #expect(!DirectSave.Snapshot(of: folder).busy)
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("Sauces"), withIntermediateDirectories: true)
        #expect(
            DirectSave.uriList(of: folder)
                == "\(folder.appendingPathComponent("Pancakes 1.txt").absoluteString)\r\n\(folder.appendingPathComponent("Sauces").absoluteString)\r\n"
        )
        #expect(DirectSave.uriList(of: folder).contains("Pancakes%201.txt"), "addresses are escaped")
    }
}
