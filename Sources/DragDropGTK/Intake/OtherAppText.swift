import DragDrop
import Foundation
import Synchronization

/// Text from other apps in the encoding the engine expects. Browsers send `text/html` and
/// `text/x-moz-url` over X11 as UTF-16 (Chromium, with a byte order mark), which UTF-8 validation
/// rightly refuses:
/// ``UTF16TranscodingSource`` turns it into UTF-8 on the way in.
enum OtherAppText {
    /// The most bytes of UTF-16 text read to transcode (16 MiB).
    static let transcodeLimit = 16 << 20

    /// The types browsers send as UTF-16: HTML, and Mozilla's links.
    static let utf16Types: Set<String> = [ContentType.html.essence, ImageIntake.mozURL.essence]

    /// `stream`, transcoded to UTF-8 when `type` is one of ``utf16Types`` sent as UTF-16.
    static func content(_ type: ContentType, stream: any ByteSource) -> RepresentationContent {
        utf16Types.contains(type.essence) ? .stream(UTF16TranscodingSource(stream)) : .stream(stream)
    }
}

/// Passes bytes through unless they start as UTF-16 (a byte order mark, or ASCII with every
/// second byte zero): then reads all of them (at most ``OtherAppText/transcodeLimit``) and hands
/// out their UTF-8 form.
final class UTF16TranscodingSource: ByteSource {
    private enum State {
        case start
        case passing
        case serving(Data, offset: Int)
    }

    private let inner: any ByteSource
    private let state = Mutex(State.start)
    let knownSize: Int64? = nil

    init(_ inner: any ByteSource) { self.inner = inner }

    func read(upTo maxLength: Int) async throws -> Data {
        switch state.withLock({ $0 }) {
        case .passing:
            return try await inner.read(upTo: maxLength)
        case .serving(let data, let offset):
            let end = min(data.count, offset + maxLength)
            state.withLock { $0 = .serving(data, offset: end) }
            return data.subdata(in: offset..<end)
        case .start:
            let first = try await inner.read(upTo: max(maxLength, 64))
            guard let littleEndian = Self.utf16(first) else {
                state.withLock { $0 = .passing }
                return first
            }
            var all = first
            while true {
                let chunk = try await inner.read(upTo: 1 << 16)
                if chunk.isEmpty { break }
                all.append(chunk)
                if all.count > OtherAppText.transcodeLimit {
                    throw TransferError.tooLarge(
                        type: ContentType.html.mimeType, limit: Int64(OtherAppText.transcodeLimit),
                        size: Int64(all.count))
                }
            }
            let utf8 = Data(Self.decode(all, littleEndian: littleEndian).utf8)
            state.withLock { $0 = .serving(utf8, offset: 0) }
            return try await read(upTo: maxLength)
        }
    }

    /// Whether `head` starts UTF-16 text: true for little-endian, false for big-endian, nil when
    /// it does not.
    static func utf16(_ head: Data) -> Bool? {
        let bytes = [UInt8](head.prefix(64))
        if bytes.starts(with: [0xFF, 0xFE]) { return true }
        if bytes.starts(with: [0xFE, 0xFF]) { return false }
        guard bytes.count >= 4, bytes.count % 2 == 0 else { return nil }
        let odd = stride(from: 1, to: bytes.count, by: 2).map { bytes[$0] }
        let even = stride(from: 0, to: bytes.count, by: 2).map { bytes[$0] }
        if odd.allSatisfy({ $0 == 0 }), even.allSatisfy({ $0 != 0 }) { return true }
        if even.allSatisfy({ $0 == 0 }), odd.allSatisfy({ $0 != 0 }) { return false }
        return nil
    }

    static func decode(_ data: Data, littleEndian: Bool) -> String {
        var bytes = [UInt8](data)
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) { bytes.removeFirst(2) }
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var i = 0
        while i + 1 < bytes.count {
            let (a, b) = (UInt16(bytes[i]), UInt16(bytes[i + 1]))
            units.append(littleEndian ? a | b << 8 : a << 8 | b)
            i += 2
        }
        // A trailing NUL some apps add is not text.
        while units.last == 0 { units.removeLast() }
        return String(decoding: units, as: UTF16.self)
    }
}
