import Foundation

/// Checks that data is what its declared type says, before a destination uses it. Data from
/// other apps is untrusted: text must be valid UTF-8, images must start with their format's
/// signature, and URI lists must hold absolute URIs whose paths cannot escape (no `..`).
public enum ContentValidation {
    /// Throws ``TransferError/malformed(type:reason:)`` when `data` is not valid `type`.
    /// Types it knows nothing about pass. Cost: O(n) for text, O(1) for images.
    public static func validate(_ data: Data, as type: ContentType, conformance: TypeConformance = .init())
        throws(TransferError)
    {
        let essence = conformance.canonical(type.essence)
        switch essence {
        case "image/png":
            let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            guard data.count >= 8, Array(data.prefix(8)) == signature else {
                throw .malformed(type: type.mimeType, reason: Localization.format(.noPNGSignature))
            }
        case "image/jpeg":
            guard data.count >= 3, Array(data.prefix(3)) == [0xFF, 0xD8, 0xFF] else {
                throw .malformed(type: type.mimeType, reason: Localization.format(.noJPEGMarker))
            }
        case "application/pdf":
            guard data.count >= 5, Array(data.prefix(5)) == Array("%PDF-".utf8) else {
                throw .malformed(type: type.mimeType, reason: Localization.format(.noPDFHeader))
            }
        case "text/uri-list":
            let text = try utf8(data, type)
            _ = try uriList(text, type: type)
        default:
            if type.mediaType == "text" || conformance.conforms(type, to: .plainText) {
                _ = try utf8(data, type)
            }
        }
    }

    /// The text of `data`, or ``TransferError/malformed(type:reason:)`` naming the first bad byte.
    public static func utf8(_ data: Data, _ type: ContentType) throws(TransferError) -> String {
        if let text = String(validating: data, as: UTF8.self) { return text }
        throw .malformed(
            type: type.mimeType,
            reason: Localization.format(.invalidUTF8, ["offset": .text(String(firstInvalidUTF8Offset(data) ?? 0))]))
    }

    /// The offset of the first byte that does not begin a valid UTF-8 sequence, or nil when all
    /// of `data` is valid.
    static func firstInvalidUTF8Offset(_ data: Data) -> Int? {
        var offset = 0
        var iterator = data.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let s): offset += UTF8.width(s)
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }

    /// Parses a `text/uri-list` (RFC 2483): comment lines start with `#`; every other non-empty
    /// line must be an absolute URI with a scheme; `file:` URIs must have an absolute path with
    /// no `.` or `..` segments.
    public static func uriList(_ text: String, type: ContentType = .uriList) throws(TransferError) -> [URL] {
        try uriList(text, type: type, firstLine: 1).urls
    }

    /// Checks the lines of `text` as lines `firstLine`, `firstLine + 1`… of a URI list (for a
    /// list checked piece by piece as it streams). Returns the URLs and how many lines `text`
    /// split into, counting a last empty one after a final line break.
    static func uriList(_ text: String, type: ContentType, firstLine: Int) throws(TransferError)
        -> (urls: [URL], lines: Int)
    {
        var urls: [URL] = []
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        for (index, raw) in lines.enumerated() {
            let number = firstLine + index
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let url = URL(string: line), let scheme = url.scheme, !scheme.isEmpty else {
                throw .malformed(
                    type: type.mimeType,
                    reason: Localization.format(.lineNotAbsolute, ["line": .text(String(number)), "text": .name(line)]))
            }
            if scheme.lowercased() == "file" {
                let path = url.path
                guard path.hasPrefix("/") else {
                    throw .malformed(
                        type: type.mimeType,
                        reason: Localization.format(.lineRelativePath, ["line": .text(String(number))]))
                }
                // Segments split by scalars: a "/" sharing a grapheme with the character before
                // it (U+0600 joins what follows) still separates segments for the kernel.
                let encodedPath = Substring(line).unicodeScalars.drop(while: { $0 != "/" })
                let segments = (path.unicodeScalars.split(separator: "/") + encodedPath.split(separator: "/"))
                    .map { String(Substring($0)) }
                if segments.contains(where: { $0 == ".." || $0 == "." || $0.lowercased() == "%2e%2e" }) {
                    throw .malformed(
                        type: type.mimeType, reason: Localization.format(.lineDotDot, ["line": .text(String(number))]))
                }
            }
            urls.append(url)
        }
        return (urls, lines.count)
    }
}
