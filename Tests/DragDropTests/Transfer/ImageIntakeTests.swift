@testable import DragDrop
import Foundation
import Synchronization
import Testing

/// A web fetcher that serves canned answers and records what it was asked.
final class FakeFetcher: WebFetching {
    let answers: [String: Result<WebResource, TransferError>]
    private let asked = Mutex<[String]>([])
    var requests: [String] { asked.withLock { $0 } }

    init(_ answers: [String: Result<WebResource, TransferError>]) { self.answers = answers }

    func fetch(_ url: URL, limit: Int64, progress: @escaping @Sendable (Int64, Int64?) -> Void)
        async throws(TransferError) -> WebResource
    {
        asked.withLock { $0.append(url.absoluteString) }
        guard let answer = answers[url.absoluteString] else { throw .sourceUnavailable("the web server answered 404") }
        let resource = try answer.get()
        progress(Int64(resource.data.count / 2), Int64(resource.data.count))
        progress(Int64(resource.data.count), Int64(resource.data.count))
        if Int64(resource.data.count) > limit {
            throw .tooLarge(type: "image", limit: limit, size: Int64(resource.data.count))
        }
        return resource
    }
}

@Suite("Transfer: images in every form other apps offer them (browsers, file managers)")
struct ImageIntakeTests {
    static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + Data(repeating: 7, count: 40)
    static let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0]) + Data(repeating: 1, count: 40)
    static let gif = Data("GIF89a".utf8) + Data(repeating: 2, count: 20)
    static let html = Data("<!doctype html><p>not a picture</p>".utf8)

    /// Another app's item offering `representations` (its types, in its order).
    func drop(_ representations: [Representation]) -> DropDataAccess {
        droppedData([ItemProvider(app: "Chromium", representations: representations)])
    }

    /// Chromium's image drag: its address as a Mozilla link (UTF-16 without its byte order mark,
    /// which DragDropGTK takes off as it transcodes), its bytes, an `<img>`.
    func chromiumDrag(address: String, bytes: Data = png) -> [Representation] {
        var moz = Data()
        for unit in "\(address)\nHarbour".utf16 { moz.append(contentsOf: [UInt8(unit & 0xFF), UInt8(unit >> 8)]) }
        return [
            .data(ImageIntake.mozURL, moz), .text(.utf8PlainText, address), .data(.octetStream, bytes),
            .text(.html, "<img src=\"\(address)\" alt=\"Harbour\">"),
        ]
    }

    func intake(_ fetcher: FakeFetcher? = nil, images: [ContentType] = [.png, "image/*"], limit: Int64 = 1 << 20)
        -> ImageIntake
    {
        ImageIntake(images: images, limit: limit, fetcher: fetcher)
    }

    func error(_ body: () async throws(TransferError) -> ImageIntake.Image) async -> TransferError? {
        do {
            _ = try await body()
            return nil
        } catch {
            return error
        }
    }

    @Test("A2: the destination lists the forms an image may come in after its image types")
    func acceptedTypes() {
        #expect(
            intake().acceptedTypes.map(\.mimeType) == [
                "image/png", "image/*", "text/uri-list", "text/x-moz-url", "application/octet-stream", "text/html",
            ])
    }

    @Test("A2: an image type offered is taken as it is, before any address")
    func imageTypeFirst() async throws {
        let fetcher = FakeFetcher([:])
        let image = try await intake(fetcher).load(
            from: drop([.data(.png, Self.png)] + chromiumDrag(address: "http://h/a.png")))
        #expect(image.type == .png && image.data == Self.png && image.origin == .image)
        #expect(fetcher.requests.isEmpty, "nothing downloaded")
    }

    @Test(
        "A2: image data offered with its web address (Firefox) is named after the address, with its format's extension, and nothing is downloaded"
    )
    func imageTypeNamedByItsAddress() async throws {
        let fetcher = FakeFetcher([:])
        var image = try await intake(fetcher).load(
            from: drop([.data(.png, Self.png), .text(.uriList, "https://example.org/photos/Beach%20house.jpg\r\n")]))
        #expect(image.origin == .image && image.name == "Beach house.png", "PNG bytes get .png")
        image = try await intake(fetcher).load(
            from: drop([.data(.jpeg, Self.jpeg)] + chromiumDrag(address: "http://h/pictures/tram.jpeg")))
        #expect(image.name == "tram.jpeg")
        image = try await intake(fetcher).load(from: drop([.data(.png, Self.png), .text(.uriList, "https://example.org/")]))
        #expect(image.name == nil, "an address naming no file names nothing")
        #expect(fetcher.requests.isEmpty, "nothing downloaded")
        #expect(ImageIntake.fileName("photo", for: .png) == "photo.png")
        #expect(ImageIntake.fileName(".png", for: .jpeg) == "Image.jpg")
    }

    @Test(
        "A2, A5: Chromium's photo (no image type) is downloaded by its address, with progress; the source is told it is done first"
    )
    func webAddressDownloaded() async throws {
        let address = "http://127.0.0.1:8080/photos/harbour.png"
        let fetcher = FakeFetcher([
            address: .success(WebResource(data: Self.png, declaredType: .png, url: URL(string: address)!))
        ])
        let fractions = Shared<[Double?]>([])
        let done = Shared(0)
        let image = try await intake(fetcher).load(
            from: drop(chromiumDrag(address: address, bytes: Self.jpeg)),
            progress: { f in fractions.update { $0.append(f) } }, sourceDone: { done.update { $0 += 1 } })
        #expect(image.data == Self.png && image.type == .png)
        #expect(image.origin == .web(URL(string: address)!) && image.name == "harbour.png")
        #expect(fetcher.requests == [address])
        #expect(fractions.value == [0.5, 1.0])
        #expect(done.value == 1)
    }

    @Test("A6: when the address names no image (a page), the bytes offered beside it are used instead")
    func fallsBackToBytes() async throws {
        let address = "http://h/article.html"
        let fetcher = FakeFetcher([
            address: .success(WebResource(data: Self.html, declaredType: .html, url: URL(string: address)!))
        ])
        let image = try await intake(fetcher).load(from: drop(chromiumDrag(address: address, bytes: Self.gif)))
        #expect(image.type == "image/gif" && image.origin == .bytes && image.data == Self.gif)
    }

    @Test(
        "A6: when the web no longer serves the address (its server gone), the bytes the browser offered are used, named after the address; they were read before the source was told it is done"
    )
    func serverGoneFallsBackToBytesReadFirst() async throws {
        let address = "http://127.0.0.1:8080/photos/harbour.png"
        let done = Shared(false)
        // As on a real drop, nothing can be read from the other app once it was told it is done.
        var representations = chromiumDrag(address: address)
        representations[2] = Representation(.octetStream) {
            guard !done.value else { throw TransferError.accessFinished }
            return .data(Self.png)
        }
        let fetcher = FakeFetcher([:])
        let image = try await intake(fetcher).load(
            from: drop(representations), sourceDone: { done.update { $0 = true } })
        #expect(fetcher.requests == [address], "the address was tried first")
        #expect(done.value, "the source was told it is done before the download")
        #expect(image.data == Self.png && image.origin == .bytes && image.name == "harbour.png")
    }

    @Test("A6: when no form holds an image, the first form's failure says why")
    func nothingUsable() async throws {
        let address = "http://h/missing.png"
        let failure = await error { () async throws(TransferError) in
            try await intake(FakeFetcher([:])).load(from: drop(chromiumDrag(address: address, bytes: Self.html)))
        }
        #expect(failure == .sourceUnavailable("the web server answered 404"))
        #expect(failure?.description.hasSuffix(".") == true && failure?.description.hasSuffix("..") == false)
    }

    @Test("A2: a destination taking only PNG refuses a JPEG in any form, naming both")
    func onlyAcceptedFormats() async throws {
        let failure = await error { () async throws(TransferError) in
            try await intake(images: [.png]).load(from: drop([.data(.octetStream, Self.jpeg)]))
        }
        #expect(failure == .noAcceptableRepresentation(offered: ["image/jpeg"], accepted: ["image/png"]))
    }

    @Test("Untrusted data: bytes are recognised by their signature, never by the type they came under")
    func recognition() {
        #expect(ImageFormat.recognise(Self.png) == .png)
        #expect(ImageFormat.recognise(Self.jpeg) == .jpeg)
        #expect(ImageFormat.recognise(Self.gif) == .gif)
        #expect(ImageFormat.recognise(Data("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8)) == .webp)
        #expect(ImageFormat.recognise(Data("BM".utf8) + Data(repeating: 0, count: 30)) == .bmp)
        #expect(ImageFormat.recognise(Self.html) == nil)
        #expect(ImageFormat.recognise(Data([0x89, 0x50])) == nil, "a truncated signature is no image")
    }

    @Test("Untrusted data: bytes the platform cannot show are refused before the destination sees them, with its reason")
    func platformVeto() async {
        let asked = Shared<[String]>([])
        let intake = ImageIntake(images: [.png]) { type, data in
            asked.update { $0.append("\(type.mimeType) \(data.count)") }
            return "it is damaged: its IDAT chunk is corrupt"
        }
        let failure = await error { () async throws(TransferError) in
            try await intake.load(from: drop([.data(.octetStream, Self.png)]))
        }
        #expect(failure == .malformed(type: "image/png", reason: "it is damaged: its IDAT chunk is corrupt"))
        #expect(failure?.description == "The dropped data is not valid image/png: it is damaged: its IDAT chunk is corrupt.")
        #expect(asked.value == ["image/png \(Self.png.count)"], "judged once, as the type its bytes are")
    }

    @Test("A6: when every form fails, the platform's reason for refusing an image outweighs earlier forms' failures")
    func imageRefusalIsMostTelling() async {
        // Chromium's forms: the address answers 404, the bytes are a PNG the platform refuses,
        // the <img> names the same missing address.
        let reason = "it declares 30,000 × 30,000 pixels, more than the 25 megapixels a picture may have here"
        let intake = ImageIntake(images: [.png], fetcher: FakeFetcher([:])) { _, _ in reason }
        let failure = await error { () async throws(TransferError) in
            try await intake.load(from: drop(chromiumDrag(address: "http://h/missing.png", bytes: Self.png)))
        }
        #expect(failure == .malformed(type: "image/png", reason: reason))
    }

    @Test("A6: the image type's own refusal is kept when later forms hold no picture or fail too")
    func imageTypeRefusalKept() async {
        let intake = ImageIntake(images: [.png]) { _, data in
            data.count > 60 ? nil : "it is damaged: it is cut short in its IDAT chunk"
        }
        let failure = await error { () async throws(TransferError) in
            try await intake.load(
                from: drop([
                    .data(.png, Self.png), .text(.uriList, "# no address\r\n"), .data(.octetStream, Self.html),
                    .text(.html, "<p>no picture</p>"),
                ]))
        }
        #expect(failure == .malformed(type: "image/png", reason: "it is damaged: it is cut short in its IDAT chunk"))
    }

    @Test("A6: a form that held nothing to try never hides why a form that did fail")
    func emptyFormsWeighLeast() async {
        let failure = await error { () async throws(TransferError) in
            try await intake().load(
                from: drop([.text(.uriList, "# only a comment\r\n"), .data(.octetStream, Self.html)]))
        }
        guard case .malformed(let type, let reason)? = failure else {
            Issue.record("expected the bytes' failure, got \(String(describing: failure))")
            return
        }
        #expect(type == "image" && reason.contains("not a PNG, JPEG, GIF, WebP or BMP image"), "\(reason)")
        let nothing = await error { () async throws(TransferError) in
            try await intake().load(from: drop([.text(.uriList, "# only a comment\r\n"), .text(.html, "<p>hi</p>")]))
        }
        #expect(nothing == .malformed(type: "text/uri-list", reason: "it names no address"), "the first of equals")
    }

    @Test("Untrusted data: an image offered under another image type is refused, naming both")
    func declaredTypeMismatch() async {
        let failure = await error { () async throws(TransferError) in
            try await intake().load(from: drop([.data("image/gif", Self.png)]))
        }
        #expect(failure == .malformed(type: "image/gif", reason: "it is image/png data offered as image/gif"))
    }

    @Test("Limits: an image larger than the limit is refused in every form")
    func limits() async {
        let big = Self.png + Data(repeating: 0, count: 200)
        let failure = await error { () async throws(TransferError) in
            try await intake(limit: 100).load(from: drop([.data(.octetStream, big)]))
        }
        guard case .tooLarge? = failure else {
            Issue.record("expected tooLarge, got \(String(describing: failure))")
            return
        }
    }

    @Test(
        "Files named by a file manager: a regular file is read; links, directories, '..' and other computers are refused"
    )
    func localFiles() async throws {
        let directory = try makeTemporaryDirectory()
        defer { removeTree(directory) }
        let photo = directory + "/Harbour photo.png"
        try Self.png.write(to: URL(fileURLWithPath: photo))
        let url = URL(fileURLWithPath: photo).absoluteString
        let image = try await intake().load(from: drop([.text(.uriList, "# from a file manager\r\n\(url)\r\n")]))
        #expect(image.data == Self.png && image.origin == .file(path: photo) && image.name == "Harbour photo.png")

        let link = directory + "/link.png"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: photo)
        let cases: [(String, String)] = [
            (URL(fileURLWithPath: link).absoluteString, "a symbolic link"),
            (URL(fileURLWithPath: directory).absoluteString, "a directory"),
            ("file://\(directory)/../\(URL(fileURLWithPath: directory).lastPathComponent)/Harbour%20photo.png", "'..'"),
            ("file://elsewhere.example\(photo.replacingOccurrences(of: " ", with: "%20"))", "another computer"),
            ("ftp://h/a.png", "another scheme"),
        ]
        for (address, what) in cases {
            let failure = await error { () async throws(TransferError) in
                try await intake().load(from: drop([.text(.uriList, address)]))
            }
            #expect(failure != nil, "\(what) must be refused")
        }
    }

    @Test(
        "Addresses: Mozilla links in UTF-16 with or without a byte order mark, or UTF-8; the first <img src>; data: addresses"
    )
    func parsing() throws {
        var le = Data()
        for unit in "http://h/a.png\nA title".utf16 { le.append(contentsOf: [UInt8(unit & 0xFF), UInt8(unit >> 8)]) }
        #expect(ImageIntake.mozURL(le)?.address == "http://h/a.png" && ImageIntake.mozURL(le)?.title == "A title")
        #expect(ImageIntake.mozURL(Data([0xFF, 0xFE]) + le)?.address == "http://h/a.png")
        #expect(ImageIntake.mozURL(Data("http://h/b.png".utf8))?.address == "http://h/b.png")
        #expect(ImageIntake.mozURL(Data()) == nil)
        #expect(
            ImageIntake.imageSource(inHTML: Data(#"<p>x</p><IMG alt='a' SRC="http://h/c.png?x=1&amp;y=2">"#.utf8))
                == "http://h/c.png?x=1&y=2")
        #expect(ImageIntake.imageSource(inHTML: Data("<img alt=nothing>".utf8)) == nil)
        #expect(
            ImageIntake.firstAddress(inURIList: Data("# comment\r\n\r\nfile:///a.png\r\nfile:///b.png".utf8))
                == "file:///a.png")
    }

    @Test("A2: an <img> holding a data: address is taken without a download")
    func dataAddress() async throws {
        let html = "<img src=\"data:image/png;base64,\(Self.png.base64EncodedString())\">"
        let image = try await intake().load(from: drop([.text(.html, html)]))
        #expect(image.data == Self.png && image.origin == .dataAddress)
    }

    @Test("Web addresses fail, saying so, where the app has no fetcher")
    func noFetcher() async {
        let failure = await error { () async throws(TransferError) in
            try await intake(nil).load(from: drop([.text(.uriList, "https://h/a.png")]))
        }
        #expect(failure == .sourceUnavailable("https://h/a.png is on the web, and this app does not download"))
    }
}
