import Foundation
import Synchronization

/// Image formats recognised by their first bytes, whatever type the data was offered under.
public enum ImageFormat: String, Sendable, Hashable, CaseIterable {
    case png, jpeg, gif, webp, bmp

    /// The format's MIME type.
    public var contentType: ContentType {
        switch self {
        case .png: .png
        case .jpeg: .jpeg
        case .gif: "image/gif"
        case .webp: "image/webp"
        case .bmp: "image/bmp"
        }
    }

    /// The usual file name extension, without the dot.
    public var fileExtension: String { self == .jpeg ? "jpg" : rawValue }

    /// The format `data` starts like, or nil when it is none of these. O(1): only the first 12
    /// bytes are read; a decoder still has to accept the rest.
    public static func recognise(_ data: Data) -> ImageFormat? {
        let head = [UInt8](data.prefix(12))
        func starts(_ bytes: [UInt8]) -> Bool { head.starts(with: bytes) }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return .gif }
        if head.count == 12, starts(Array("RIFF".utf8)), Array(head[8..<12]) == Array("WEBP".utf8) { return .webp }
        if starts(Array("BM".utf8)), data.count >= 26 { return .bmp }
        return nil
    }
}

/// What a web fetch brought back.
public struct WebResource: Sendable, Equatable {
    /// The body.
    public var data: Data
    /// The type the server declared (`Content-Type`), if any.
    public var declaredType: ContentType?
    /// The address the body came from, after redirects.
    public var url: URL

    /// Creates a fetched resource.
    public init(data: Data, declaredType: ContentType?, url: URL) {
        self.data = data
        self.declaredType = declaredType
        self.url = url
    }
}

/// Downloads what a dropped web address names. The platform provides it (DragDropGTK's
/// `WebFetcher` uses URLSession); the engine never opens a network connection itself.
public protocol WebFetching: Sendable {
    /// Fetches `url` (`http` or `https` only) and returns at most `limit` bytes of its body, or
    /// fails with a ``TransferError`` that says why (a status, a timeout, too many redirects, too
    /// large). Reports `(received, total)` as bytes arrive (`total` nil when the server does not
    /// say). Cancelling the calling task stops the download at once
    /// (``TransferError/cancelled``).
    func fetch(_ url: URL, limit: Int64, progress: @escaping @Sendable (_ received: Int64, _ total: Int64?) -> Void)
        async throws(TransferError) -> WebResource
}

/// Takes an image from a drop in whatever form another app offers it, for destinations that
/// take images (A2: the richest form first; data from other apps is untrusted).
///
/// Browsers and file managers rarely offer `image/png` itself: a photo dragged out of Chromium
/// comes as its address (`text/x-moz-url`, `text/uri-list`), its bytes as
/// `application/octet-stream`, and an `<img>` in `text/html`. In that order, each tried when
/// the one before is missing or did not hold an image:
///
/// 1. an accepted image type, loaded as it is;
/// 2. the first address of `text/uri-list` or `text/x-moz-url` (UTF-16 "url\ntitle"): a
///    `file:` address of this computer read as a regular file (no link followed, no `..`), an
///    `http`/`https` one downloaded through ``fetcher`` with progress and cancellation, or a
///    `data:` address;
/// 3. `application/octet-stream`, recognised by its bytes;
/// 4. the first `<img src>` of `text/html`, fetched like an address.
///
/// Whatever the form, the bytes must be a PNG, JPEG, GIF, WebP or BMP image
/// (``ImageFormat/recognise(_:)``) of a type the destination takes, within ``limit``, and
/// ``check`` (the platform's judgement: whole, not too large, decodable) must find nothing
/// wrong with them before the destination sees them.
///
/// When no form holds an image, the failure that tells the person most is thrown: an image
/// found and refused (``check``'s reason: "it is damaged: its IDAT chunk is corrupt"), before
/// a form that could not be read or held no image's bytes, before a form that held nothing to
/// try (no address, no `<img>`); among equals, the first form's.
///
/// ```swift
/// let intake = ImageIntake(images: [.png, "image/*"], fetcher: WebFetcher())
/// target.accepts = intake.acceptedTypes
/// // at the drop, in a deferred drop:
/// let image = try await intake.load(from: drop.data) { fraction in
///     host.updateDeferredDrop(token, progress: fraction)
/// }
/// ```
public struct ImageIntake: Sendable {
    /// Where an accepted image came from.
    public enum Origin: Sendable, Equatable, CustomStringConvertible {
        /// Offered as an image type.
        case image
        /// A file of this computer named by an address.
        case file(path: String)
        /// Downloaded from the web.
        case web(URL)
        /// A `data:` address.
        case dataAddress
        /// `application/octet-stream` bytes recognised as an image.
        case bytes

        public var description: String {
            switch self {
            case .image: "image"
            case .file: "file"
            case .web: "web"
            case .dataAddress: "data"
            case .bytes: "bytes"
            }
        }
    }

    /// An image taken from a drop.
    public struct Image: Sendable, Equatable {
        /// The image's type, from its bytes.
        public var type: ContentType
        /// The bytes.
        public var data: Data
        /// A file name for it, when the form named one ("photo.png").
        public var name: String?
        /// Where it came from.
        public var origin: Origin
    }

    /// Mozilla's link type, offered by Firefox and Chromium: UTF-16 "address\ntitle".
    public static let mozURL: ContentType = "text/x-moz-url"
    /// The most bytes read from a URI list or HTML to find an address (1 MiB).
    public static let addressLimit: Int64 = 1 << 20

    /// The image types the destination takes, richest first (`image/*` allowed).
    public var images: [ContentType]
    /// The most bytes of an image accepted, in whatever form (default 64 MiB, the limit of
    /// in-memory loads).
    public var limit: Int64
    /// Downloads web addresses; nil: web addresses fail, saying so.
    public var fetcher: (any WebFetching)?
    /// The platform's judgement of an image's bytes (a recognised format the destination
    /// takes): nil when it can show them, else why not, as a clause about the picture that a
    /// person reads ("it is damaged: its IDAT chunk is corrupt", "it declares 30,000 × 30,000
    /// pixels, more than …"). The load then fails with
    /// ``TransferError/malformed(type:reason:)`` carrying that reason.
    public var check: @Sendable (_ type: ContentType, _ data: Data) -> String?
    /// Opens a local file for reading (default ``RegularFile/open(_:)``: regular files only,
    /// no symbolic link followed).
    public var openFile: @Sendable (String) throws(TransferError) -> any ByteSource

    /// Creates an intake for a destination taking `images`.
    public init(
        images: [ContentType], limit: Int64 = LoadOptions.defaultMemoryLimit, fetcher: (any WebFetching)? = nil,
        check: @escaping @Sendable (_ type: ContentType, _ data: Data) -> String? = { _, _ in nil },
        openFile: @escaping @Sendable (String) throws(TransferError) -> any ByteSource = { path throws(TransferError) in
            try RegularFile.open(path)
        }
    ) {
        self.images = images
        self.limit = limit
        self.fetcher = fetcher
        self.check = check
        self.openFile = openFile
    }

    /// What the destination lists in ``DragTarget/accepts``: the images, then the forms that
    /// may carry one (addresses, bytes, HTML).
    public var acceptedTypes: [ContentType] { images + [.uriList, Self.mozURL, .octetStream, .html] }

    /// The forms item `index` of a drop offers, in the order they are tried.
    enum Form: Equatable { case image, address, bytes, html }

    func forms(in data: DropDataAccess, item index: Int) -> [Form] {
        let offered = data.offeredTypes(item: index)
        var forms: [Form] = []
        if data.choice(item: index, accepting: images) != nil { forms.append(.image) }
        if offered.contains(.uriList) || offered.contains(Self.mozURL) { forms.append(.address) }
        if offered.contains(.octetStream) { forms.append(.bytes) }
        if offered.contains(.html) { forms.append(.html) }
        return forms
    }

    /// Loads item `index` of an opened drop as an image, trying its forms in order (see the
    /// type's summary). `progress` gets the download's fraction (nil while the total is
    /// unknown). `sourceDone` is called when nothing more will be read from the drop itself,
    /// before a download starts: a platform can then tell another app its drop is over, so it
    /// does not wait (holding the pointer) while the web answers. Throws the most telling
    /// form's failure when none held an accepted image (`FailureWeight`); cancelling the task
    /// stops at once with ``TransferError/cancelled``.
    public func load(
        from data: DropDataAccess, item index: Int = 0, progress: @escaping @Sendable (Double?) -> Void = { _ in },
        sourceDone: @escaping @Sendable () -> Void = {}
    ) async throws(TransferError) -> Image {
        let forms = forms(in: data, item: index)
        guard !forms.isEmpty else {
            throw .noAcceptableRepresentation(
                offered: data.offeredTypes(item: index).map(\.mimeType), accepted: acceptedTypes.map(\.mimeType))
        }
        var telling: (error: TransferError, weight: FailureWeight)?
        func failed(_ error: TransferError, _ weight: FailureWeight) throws(TransferError) {
            if error == .cancelled || Task.isCancelled { throw .cancelled }
            if telling == nil || weight > telling!.weight { telling = (error, weight) }
        }
        // Bytes offered beside an address are read before the download, which ends reading from
        // the drop (`sourceDone`): if the web no longer serves the address, they are what the
        // other app showed (a browser's copy of an image whose server has gone).
        var prefetched: Result<Found, TransferError>?
        var prefetchedName: String?
        for form in forms {
            if form == .address, forms.contains(.bytes), prefetched == nil {
                prefetchedName = await addressName(from: data, item: index)
                do {
                    prefetched = .success(
                        try await bytes(of: .bytes, from: data, item: index, progress: progress, sourceDone: sourceDone)
                    )
                } catch {
                    if error == .cancelled || Task.isCancelled { throw .cancelled }
                    prefetched = .failure(error)
                }
            }
            let found: Found
            do {
                if form == .bytes, let prefetched {
                    found = try prefetched.get()
                } else {
                    found = try await bytes(
                        of: form, from: data, item: index, progress: progress, sourceDone: sourceDone)
                }
            } catch {
                try failed(error, .unusable)
                continue
            }
            guard case .bytes(let candidate) = found else {
                if case .nothing(let error) = found { try failed(error, .nothingToTry) }
                continue
            }
            do {
                var image = try accept(candidate)
                // Image data and bytes come without a name; the address offered beside them has one.
                if image.name == nil, form == .image || form == .bytes, forms.contains(.address) {
                    let name = prefetched != nil ? prefetchedName : await addressName(from: data, item: index)
                    image.name = name.map { Self.fileName($0, for: image.type) }
                }
                return image
            } catch {
                try failed(error, ImageFormat.recognise(candidate.data) == nil ? .unusable : .imageRefused)
            }
        }
        throw telling?.error ?? .cancelled
    }

    /// How much a form's failure tells a person about what they dragged, least first: the
    /// failure thrown when every form failed is the weightiest (the first among equals).
    enum FailureWeight: Int, Comparable {
        /// The form held nothing to try: no address, no `<img>`.
        case nothingToTry
        /// The form could not be read or downloaded, or its bytes are no image.
        case unusable
        /// An image was found and refused: the wrong format here, too large, or ``check``
        /// found it damaged, too large to decode or undecodable.
        case imageRefused

        static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
    }

    /// Bytes a form brought, to judge (``accept(_:)``).
    struct Candidate {
        var data: Data
        /// The image type they were offered under, if any.
        var declared: ContentType?
        /// Where they came from, for messages: "the dropped bytes", an address, a path.
        var what: String
        var origin: Origin
        var name: String?
    }

    /// What a form brought: bytes to judge, or why it held nothing to try.
    enum Found {
        case bytes(Candidate)
        case nothing(TransferError)
    }

    /// The bytes `form` holds (read, or downloaded), not judged yet.
    private func bytes(
        of form: Form, from data: DropDataAccess, item index: Int, progress: @escaping @Sendable (Double?) -> Void,
        sourceDone: @escaping @Sendable () -> Void
    ) async throws(TransferError) -> Found {
        switch form {
        case .image:
            guard
                case .data(let type, let bytes) = try await data.load(
                    item: index, accepting: images, options: LoadOptions(limit: limit))
            else { throw .malformed(type: "image/*", reason: Localization.format(.notInMemory)) }
            return .bytes(
                Candidate(
                    data: bytes, declared: type,
                    what: Localization.format(.droppedTypeData, ["type": .text(type.mimeType)]), origin: .image))
        case .address:
            let offered = data.offeredTypes(item: index)
            let type: ContentType = offered.contains(.uriList) ? .uriList : Self.mozURL
            let text = try await text(of: type, from: data, item: index)
            let address = type == .uriList ? Self.firstAddress(inURIList: text) : Self.address(inMozURL: text)
            guard let address else {
                return .nothing(.malformed(type: type.mimeType, reason: Localization.format(.namesNoAddress)))
            }
            return .bytes(try await fetch(address, progress: progress, beforeDownload: sourceDone))
        case .bytes:
            guard
                case .data(_, let bytes) = try await data.load(
                    item: index, accepting: [.octetStream], options: LoadOptions(limit: limit))
            else { throw .malformed(type: ContentType.octetStream.mimeType, reason: Localization.format(.notInMemory)) }
            return .bytes(
                Candidate(data: bytes, declared: nil, what: Localization.format(.droppedBytes), origin: .bytes))
        case .html:
            let html = try await text(of: .html, from: data, item: index)
            guard let address = Self.imageSource(inHTML: html) else {
                return .nothing(
                    .malformed(type: ContentType.html.mimeType, reason: Localization.format(.holdsNoPicture)))
            }
            return .bytes(try await fetch(address, progress: progress, beforeDownload: sourceDone))
        }
    }

    /// The last segment of the address a drop offers ("Beach.png" of `https://…/Beach.png`),
    /// nil when it offers none or it names no file. Nothing is downloaded.
    private func addressName(from data: DropDataAccess, item index: Int) async -> String? {
        let offered = data.offeredTypes(item: index)
        let type: ContentType = offered.contains(.uriList) ? .uriList : Self.mozURL
        guard let text = try? await text(of: type, from: data, item: index),
            let address = type == .uriList ? Self.firstAddress(inURIList: text) : Self.address(inMozURL: text),
            let url = URL(string: address), url.scheme != "data"
        else { return nil }
        let name = url.lastPathComponent
        return name.isEmpty || name == "/" ? nil : name
    }

    /// `name` with the extension of `type`'s format ("photo.jpg" holding PNG bytes is
    /// "photo.png"; "photo" is "photo.png").
    static func fileName(_ name: String, for type: ContentType) -> String {
        guard let format = ImageFormat.allCases.first(where: { $0.contentType == type }) else { return name }
        let dot = name.lastIndex(of: ".")
        let stem = dot.map { String(name[..<$0]) } ?? name
        let ext = dot.map { name[name.index(after: $0)...].lowercased() } ?? ""
        let fits = ext == format.fileExtension || (format == .jpeg && ext == "jpeg")
        return fits ? name : (stem.isEmpty ? "Image" : stem) + "." + format.fileExtension
    }

    /// The text of a small textual form (an address list, HTML), at most ``addressLimit`` bytes.
    private func text(of type: ContentType, from data: DropDataAccess, item index: Int) async throws(TransferError)
        -> Data
    {
        guard
            case .data(_, let bytes) = try await data.load(
                item: index, accepting: [type], options: LoadOptions(limit: Self.addressLimit))
        else { throw .malformed(type: type.mimeType, reason: Localization.format(.notInMemory)) }
        return bytes
    }

    // MARK: Addresses

    /// The bytes an address names, not judged yet: a local file, a web address (downloaded),
    /// or a `data:` address. Other schemes fail.
    private func fetch(
        _ address: String, progress: @escaping @Sendable (Double?) -> Void,
        beforeDownload: @Sendable () -> Void = {}
    ) async throws(TransferError) -> Candidate {
        guard let url = URL(string: address), let scheme = url.scheme?.lowercased() else {
            throw .malformed(
                type: ContentType.uriList.mimeType,
                reason: Localization.format(.notAbsoluteAddress, ["address": .name(address)]))
        }
        switch scheme {
        case "file":
            // The project's rules for files named by other apps: absolute, no '.' or '..'
            // segment, this computer only, a regular file, no link followed.
            _ = try ContentValidation.uriList(address)
            guard let host = url.host, !host.isEmpty, host.lowercased() != "localhost" else {
                return try await readFile(url.path)
            }
            throw .malformed(
                type: ContentType.uriList.mimeType,
                reason: Localization.format(.onAnotherComputer, ["address": .name(address)]))
        case "http", "https":
            guard let fetcher else {
                throw .sourceUnavailable(Localization.format(.onTheWeb, ["address": .name(address)]))
            }
            let limit = self.limit
            beforeDownload()
            let resource = try await fetcher.fetch(url, limit: limit) { received, total in
                progress(total.flatMap { $0 > 0 ? min(1, Double(received) / Double($0)) : nil })
            }
            let name = resource.url.lastPathComponent
            return Candidate(
                data: resource.data, declared: nil, what: resource.url.absoluteString, origin: .web(resource.url),
                name: name.isEmpty || name == "/" ? nil : name)
        case "data":
            return Candidate(
                data: try Self.decodeDataAddress(address, limit: limit), declared: nil,
                what: Localization.format(.theDataAddress),
                origin: .dataAddress)
        default:
            throw .malformed(
                type: ContentType.uriList.mimeType,
                reason: Localization.format(.notFileNorWeb, ["address": .name(address)]))
        }
    }

    private func readFile(_ path: String) async throws(TransferError) -> Candidate {
        let source = try openFile(path)
        let sink = MemorySink()
        try await ChunkedCopier(limit: limit).copy(from: source, to: sink, type: .octetStream)
        return Candidate(
            data: sink.data, declared: nil, what: path, origin: .file(path: path),
            name: (path as NSString).lastPathComponent)
    }

    /// Judges bytes from any form (see ``accept(_:declared:what:origin:)``).
    func accept(_ candidate: Candidate) throws(TransferError) -> Image {
        var image = try accept(
            candidate.data, declared: candidate.declared, what: candidate.what, origin: candidate.origin)
        image.name = candidate.name
        return image
    }

    /// Checks bytes from any form: a known image format, of a type the destination takes,
    /// within the limit, in which the platform (``check``) finds nothing wrong.
    func accept(_ bytes: Data, declared: ContentType?, what: String, origin: Origin) throws(TransferError) -> Image {
        guard Int64(bytes.count) <= limit else {
            throw .tooLarge(type: declared?.mimeType ?? "image", limit: limit, size: Int64(bytes.count))
        }
        guard let format = ImageFormat.recognise(bytes) else {
            throw .malformed(
                type: declared?.mimeType ?? "image", reason: Localization.format(.notAnImage, ["what": .name(what)]))
        }
        let conformance = TypeConformance()
        if let declared, declared.mediaType == "image", !declared.isWildcard,
            conformance.canonical(declared.essence) != format.contentType.essence
        {
            throw .malformed(
                type: declared.mimeType,
                reason: Localization.format(
                    .offeredAs, ["type": .text(format.contentType.mimeType), "declared": .text(declared.essence)]))
        }
        guard images.contains(where: { conformance.conforms(format.contentType, to: $0) }) else {
            throw .noAcceptableRepresentation(offered: [format.contentType.mimeType], accepted: images.map(\.mimeType))
        }
        if let problem = check(format.contentType, bytes) {
            throw .malformed(type: format.contentType.mimeType, reason: problem)
        }
        return Image(type: format.contentType, data: bytes, name: nil, origin: origin)
    }

    // MARK: Parsing the forms

    /// The first address of a `text/uri-list` (comments and blank lines skipped).
    static func firstAddress(inURIList data: Data) -> String? {
        String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).lazy
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .first { !$0.isEmpty && !$0.hasPrefix("#") }
    }

    /// The address of a `text/x-moz-url` ("address\ntitle", UTF-16 with or without a byte
    /// order mark, or UTF-8).
    public static func address(inMozURL data: Data) -> String? {
        mozURL(data).map(\.address)
    }

    /// The address and title of a `text/x-moz-url`.
    public static func mozURL(_ data: Data) -> (address: String, title: String?)? {
        let bytes = [UInt8](data)
        var text: String
        if bytes.starts(with: [0xFF, 0xFE]) {
            text = utf16(Array(bytes.dropFirst(2)), littleEndian: true)
        } else if bytes.starts(with: [0xFE, 0xFF]) {
            text = utf16(Array(bytes.dropFirst(2)), littleEndian: false)
        } else if bytes.count >= 2, bytes.count % 2 == 0, bytes[1] == 0, bytes[0] != 0 {
            text = utf16(bytes, littleEndian: true)
        } else {
            text = String(decoding: bytes, as: UTF8.self)
        }
        text = text.replacingOccurrences(of: "\0", with: "")
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        guard let address = lines.first, !address.isEmpty else { return nil }
        let title = lines.dropFirst().first.flatMap { $0.isEmpty ? nil : $0 }
        return (address, title)
    }

    private static func utf16(_ bytes: [UInt8], littleEndian: Bool) -> String {
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var i = 0
        while i + 1 < bytes.count {
            let (a, b) = (UInt16(bytes[i]), UInt16(bytes[i + 1]))
            units.append(littleEndian ? a | b << 8 : a << 8 | b)
            i += 2
        }
        return String(decoding: units, as: UTF16.self)
    }

    /// The `src` of the first `<img>` in `html`, character references decoded.
    static func imageSource(inHTML data: Data) -> String? {
        let html = String(decoding: data, as: UTF8.self)
        var rest = Substring(html)
        while let open = rest.range(of: "<img", options: .caseInsensitive) {
            rest = rest[open.upperBound...]
            guard let end = rest.firstIndex(of: ">") else { return nil }
            let tag = rest[..<end]
            if let value = StyledText.attribute("src", inTag: tag), !value.isEmpty {
                return StyledText.decodingCharacterReferences(value).trimmingCharacters(in: .whitespacesAndNewlines)
            }
            rest = rest[end...]
        }
        return nil
    }

    /// The bytes of a `data:` address (`data:image/png;base64,…` or percent-encoded).
    static func decodeDataAddress(_ address: String, limit: Int64) throws(TransferError) -> Data {
        guard let comma = address.firstIndex(of: ",") else {
            throw .malformed(type: "data:", reason: Localization.format(.dataAddressNoComma))
        }
        let header = address[address.index(address.startIndex, offsetBy: 5)..<comma].lowercased()
        let body = address[address.index(after: comma)...]
        guard Int64(body.utf8.count) <= limit * 2 else {
            throw .tooLarge(type: "data:", limit: limit, size: Int64(body.utf8.count) * 3 / 4)
        }
        if header.hasSuffix(";base64") {
            guard let data = Data(base64Encoded: String(body), options: .ignoreUnknownCharacters) else {
                throw .malformed(type: "data:", reason: Localization.format(.dataAddressNotBase64))
            }
            return data
        }
        guard let decoded = String(body).removingPercentEncoding else {
            throw .malformed(type: "data:", reason: Localization.format(.dataAddressBadPercent))
        }
        return Data(decoded.utf8)
    }
}
