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
                throw .malformed(type: type.mimeType, reason: "it does not start with the PNG signature")
            }
        case "image/jpeg":
            guard data.count >= 3, Array(data.prefix(3)) == [0xFF, 0xD8, 0xFF] else {
                throw .malformed(type: type.mimeType, reason: "it does not start with a JPEG marker")
            }
        case "application/pdf":
            guard data.count >= 5, Array(data.prefix(5)) == Array("%PDF-".utf8) else {
                throw .malformed(type: type.mimeType, reason: "it does not start with %PDF-")
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
        // Find the offset of the first invalid byte for the message.
        var offset = 0
        var iterator = data.makeIterator()
        var decoder = UTF8()
        decode: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let s): offset += String(s).utf8.count
            case .emptyInput: break decode
            case .error: break decode
            }
        }
        throw .malformed(type: type.mimeType, reason: "invalid UTF-8 near byte \(offset)")
    }

    /// Parses a `text/uri-list` (RFC 2483): comment lines start with `#`; every other non-empty
    /// line must be an absolute URI with a scheme; `file:` URIs must have an absolute path with
    /// no `.` or `..` segments.
    public static func uriList(_ text: String, type: ContentType = .uriList) throws(TransferError) -> [URL] {
        var urls: [URL] = []
        for (number, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let url = URL(string: line), let scheme = url.scheme, !scheme.isEmpty else {
                throw .malformed(type: type.mimeType, reason: "line \(number + 1) is not an absolute URI: \(line)")
            }
            if scheme.lowercased() == "file" {
                let path = url.path
                guard path.hasPrefix("/") else {
                    throw .malformed(type: type.mimeType, reason: "line \(number + 1) has a relative file path")
                }
                let encodedPath = line.drop(while: { $0 != "/" })
                let segments = path.split(separator: "/") + encodedPath.split(separator: "/")
                if segments.contains(where: { $0 == ".." || $0 == "." || $0.lowercased() == "%2e%2e" }) {
                    throw .malformed(type: type.mimeType, reason: "line \(number + 1) has a '..' path segment")
                }
            }
            urls.append(url)
        }
        return urls
    }
}
