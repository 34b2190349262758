import CGtk4
import DragDrop
import Foundation

/// A picture dropped from another app, decoded before anything shows it: a destination that
/// shows pictures commits a drop only once its bytes have become one.
///
/// - Only PNG and JPEG are decoded (GdkPixbuf's loader for that format alone, never a guess
///   among every installed loader).
/// - The size the header declares is read first, without decoding: a picture larger than
///   ``maximumPixels`` (a "decompression bomb": a few kilobytes declaring 30,000 × 30,000
///   pixels, 3.6 GB once decoded) is refused before a byte is decoded.
/// - Decoding runs off the main loop and shrinks the picture to fit ``displaySize`` as it
///   goes, so the app stays responsive and never holds more than it shows.
/// - Bytes that do not decode (a truncated PNG, 21 bytes of noise after a PNG signature) are
///   refused with the decoder's reason.
public final class DroppedImage: @unchecked Sendable {
    /// The most pixels a picture may declare: 25 megapixels (a 6,000 × 4,000 photo is 24).
    public static let maximumPixels = 25_000_000
    /// The longest side a picture may declare.
    public static let maximumSide = 20_000
    /// The picture is decoded to fit this many pixels a side (smaller pictures keep their size).
    public static let displaySize = 1_600

    /// Why dropped bytes are not a picture shown here.
    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        /// Not PNG or JPEG.
        case unsupported(type: String)
        /// The header that says the picture's size is missing or broken.
        case noHeader(format: String)
        /// The declared size is too large (checked before decoding).
        case tooLarge(width: Int, height: Int)
        /// The file is cut short or damaged (a chunk's checksum, a missing end).
        case damaged(String)
        /// The decoder refused the bytes.
        case undecodable(String)

        /// The problem as a clause about the picture, in the current language, for
        /// `ImageIntake/check` and ``DropLoading/refusal(_:_:)``: "it is damaged: its IDAT
        /// chunk is corrupt".
        public var clause: String {
            switch self {
            case .unsupported(let type):
                Localization.format(.pictureUnsupported, ["type": .text(type)])
            case .noHeader(let format):
                Localization.format(.pictureNoHeader, ["format": .text(format)])
            case .tooLarge(let width, let height):
                Localization.format(
                    .pictureTooLarge,
                    [
                        "width": .text(DropLoading.count(width)), "height": .text(DropLoading.count(height)),
                        "megapixels": .text(DropLoading.count(DroppedImage.maximumPixels / 1_000_000)),
                    ])
            case .damaged(let reason):
                Localization.format(.pictureDamaged, ["reason": .text(reason)])
            case .undecodable(let reason):
                Localization.format(.pictureUndecodable, ["reason": .text(DropLoading.sentenceBody(reason))])
            }
        }

        /// ``clause``.
        public var description: String { clause }

        /// The drop's failure: "The picture was not added: it declares 30,000 × 30,000 pixels,
        /// more than …."
        public var dropFailure: DropFailure { DropLoading.refusal(.picture, clause) }
    }

    /// The width the header declared, in pixels.
    public let width: Int
    /// The height the header declared, in pixels.
    public let height: Int
    private let pixbuf: OpaquePointer

    private init(width: Int, height: Int, pixbuf: OpaquePointer) {
        self.width = width
        self.height = height
        self.pixbuf = pixbuf
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }

    /// A new texture of the decoded picture (transfer full), for a `GtkPicture`.
    @MainActor
    public func makeTexture() -> OpaquePointer? { gdk_texture_new_for_pixbuf(pixbuf) }

    /// Decodes `data` of type `type` off the main loop (see the type's notes).
    public static func decode(_ data: Data, type: ContentType) async throws(Problem) -> DroppedImage {
        let (format, size) = try header(data, type: type)
        let result = await Task.detached(priority: .userInitiated) { () -> Result<DroppedImage, Problem> in
            // A decoder shows what it could read of a cut or damaged file: check it is whole first.
            if let damage = format == "png" ? pngDamage(data) : jpegDamage(data) { return .failure(.damaged(damage)) }
            return decodeNow(data, format: format, size: size)
        }.value
        return try result.get()
    }

    /// What stops `data` of type `type` from being decoded here, checked without decoding: the
    /// format, the declared size (``maximumPixels``, ``maximumSide``) and a whole file; nil
    /// when it may be decoded. Cheap enough to judge each form another app offers
    /// (`ImageIntake/gdk(images:limit:fetcher:)`).
    public static func problem(_ data: Data, type: ContentType) -> Problem? {
        do throws(Problem) {
            let (format, _) = try header(data, type: type)
            return (format == "png" ? pngDamage(data) : jpegDamage(data)).map { .damaged($0) }
        } catch {
            return error
        }
    }

    /// The decoder `type` needs and the size the header declares, within the limits.
    private static func header(_ data: Data, type: ContentType) throws(Problem) -> (String, (width: Int, height: Int)) {
        let format: String
        switch type.essence {
        case ContentType.png.essence: format = "png"
        case ContentType.jpeg.essence, "image/jpg", "image/pjpeg": format = "jpeg"
        default: throw .unsupported(type: type.essence)
        }
        guard let size = declaredSize(data, format: format) else {
            throw .noHeader(format: format == "png" ? "PNG" : "JPEG")
        }
        guard size.width <= maximumSide, size.height <= maximumSide, size.width * size.height <= maximumPixels else {
            throw .tooLarge(width: size.width, height: size.height)
        }
        return (format, size)
    }

    /// The width and height a PNG's IHDR or a JPEG's SOF segment declares, without decoding;
    /// nil when the header is missing or broken.
    public static func declaredSize(_ data: Data, format: String) -> (width: Int, height: Int)? {
        let bytes = [UInt8](data.prefix(format == "png" ? 24 : 256 * 1024))
        func be16(_ i: Int) -> Int { Int(bytes[i]) << 8 | Int(bytes[i + 1]) }
        func be32(_ i: Int) -> Int { be16(i) << 16 | be16(i + 2) }
        if format == "png" {
            // Signature, then the first chunk: length, "IHDR", width, height.
            guard bytes.count >= 24, bytes[12...15].elementsEqual("IHDR".utf8) else { return nil }
            let size = (width: be32(16), height: be32(20))
            return size.width > 0 && size.height > 0 ? size : nil
        }
        // JPEG: SOI, then segments (marker, 16-bit length) up to a start of frame.
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var i = 2
        while i + 3 < bytes.count {
            guard bytes[i] == 0xFF else { return nil }
            let marker = bytes[i + 1]
            if marker == 0xFF {
                i += 1  // fill byte
                continue
            }
            if marker == 0x01 || (0xD0...0xD8).contains(marker) {
                i += 2  // no length
                continue
            }
            let length = be16(i + 2)
            guard length >= 2 else { return nil }
            let isFrame = (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker)
            if isFrame {
                guard i + 8 < bytes.count else { return nil }
                let size = (width: be16(i + 7), height: be16(i + 5))
                return size.width > 0 && size.height > 0 ? size : nil
            }
            if marker == 0xDA || marker == 0xD9 { return nil }  // scan or end before any frame
            i += 2 + length
        }
        return nil
    }

    /// What is wrong with a PNG's chunks (each complete, its checksum right, up to IEND), or nil.
    static func pngDamage(_ data: Data) -> String? {
        let bytes = [UInt8](data)
        var offset = 8
        while offset + 12 <= bytes.count {
            let length =
                Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8
                | Int(bytes[offset + 3])
            let name = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            guard length <= bytes.count - offset - 12 else { return "it is cut short in its \(name) chunk" }
            let end = offset + 8 + length
            let stored =
                UInt32(bytes[end]) << 24 | UInt32(bytes[end + 1]) << 16 | UInt32(bytes[end + 2]) << 8
                | UInt32(bytes[end + 3])
            guard CRC32.checksum(bytes[(offset + 4)..<end]) == stored else { return "its \(name) chunk is corrupt" }
            if name == "IEND" { return nil }
            offset = end + 4
        }
        return "it is cut short before its end"
    }

    /// What is wrong with a JPEG's end (it must end with the end-of-image marker), or nil.
    static func jpegDamage(_ data: Data) -> String? {
        data.count >= 4 && data.suffix(2).elementsEqual([0xFF, 0xD9]) ? nil : "it is cut short before its end"
    }

    /// Decodes with GdkPixbuf's loader for `format` only, shrunk to fit ``displaySize``.
    private static func decodeNow(_ data: Data, format: String, size: (width: Int, height: Int))
        -> Result<DroppedImage, Problem>
    {
        var error: UnsafeMutablePointer<GError>?
        func message(_ fallback: String) -> String {
            defer {
                if let error { g_error_free(error) }
                error = nil
            }
            return error.flatMap { $0.pointee.message.map { String(cString: $0) } } ?? fallback
        }
        guard let loader = gdk_pixbuf_loader_new_with_type(format, &error) else {
            return .failure(.undecodable(message("no \(format) decoder")))
        }
        defer { g_object_unref(UnsafeMutableRawPointer(loader)) }
        let scale = min(1, Double(displaySize) / Double(max(size.width, size.height)))
        if scale < 1 {
            gdk_pixbuf_loader_set_size(
                loader, Int32(max(1, (Double(size.width) * scale).rounded())),
                Int32(max(1, (Double(size.height) * scale).rounded())))
        }
        let wrote = data.withUnsafeBytes { raw -> gboolean in
            guard let base = raw.baseAddress?.assumingMemoryBound(to: guchar.self) else { return 0 }
            return gdk_pixbuf_loader_write(loader, base, gsize(raw.count), &error)
        }
        if wrote == 0 {
            let reason = message("the decoder refused the data")
            gdk_pixbuf_loader_close(loader, nil)
            return .failure(.undecodable(reason))
        }
        guard gdk_pixbuf_loader_close(loader, &error) != 0 else {
            return .failure(.undecodable(message("the picture is incomplete")))
        }
        guard let pixbuf = gdk_pixbuf_loader_get_pixbuf(loader) else {
            return .failure(.undecodable("the decoder produced no picture"))
        }
        g_object_ref(UnsafeMutableRawPointer(pixbuf))
        return .success(DroppedImage(width: size.width, height: size.height, pixbuf: pixbuf))
    }
}

/// The CRC-32 of PNG chunks (ISO 3309, table-driven).
enum CRC32 {
    static let table: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        table.withUnsafeBufferPointer { table in
            for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        }
        return crc ^ 0xFFFF_FFFF
    }
}
