/// A kind of data, named by its MIME type (`text/plain`, `image/png`,
/// `application/x-dragdrop-chart`).
///
/// Types are compared case-insensitively on the type and subtype; parameters such as
/// `;charset=utf-8` are kept in ``mimeType`` but ignored for identity, so
/// `text/plain;charset=utf-8` and `text/plain` are the same kind of data.
///
/// ```swift
/// let chart = ContentType("application/x-dragdrop-chart")
/// ```
public struct ContentType: Hashable, Sendable, Codable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    /// The MIME type as given, parameters included.
    public let mimeType: String
    /// The lower-cased `type/subtype`, without parameters: what identity and conformance use.
    public let essence: String

    /// Creates a content type from a MIME type string.
    public init(_ mimeType: String) {
        self.mimeType = mimeType
        // Everything before the first ";" ("" for ";charset=utf-8", which names no type), cut
        // between scalars: MIME tokens are ASCII, and a ";" followed by a combining mark is
        // still the end of the type.
        let bare = String(String.UnicodeScalarView(mimeType.unicodeScalars.prefix { $0 != ";" }))
        self.essence = bare.trimmingSpaces().lowercased()
    }

    public init(stringLiteral value: String) { self.init(value) }

    public init(from decoder: any Decoder) throws {
        self.init(try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(mimeType)
    }

    public static func == (lhs: ContentType, rhs: ContentType) -> Bool { lhs.essence == rhs.essence }
    public func hash(into hasher: inout Hasher) { hasher.combine(essence) }

    /// The top-level media type (`image` for `image/png`).
    public var mediaType: Substring { essence.split(separator: "/", maxSplits: 1).first ?? "" }

    /// Whether this is a wildcard such as `image/*` or `*/*`.
    public var isWildcard: Bool { essence.hasSuffix("/*") }

    /// Whether the string has the `type/subtype` shape of a MIME type.
    public var isWellFormed: Bool {
        let parts = essence.split(separator: "/", omittingEmptySubsequences: false)
        return parts.count == 2 && !parts[0].isEmpty && !parts[1].isEmpty
            && !essence.contains(where: { $0 == " " || $0 == "\t" })
    }

    public var description: String { mimeType }

    /// The private content type of a Swift type: `application/x-swift.` and the type's full
    /// name (`application/x-swift.firstapp.chore` for `FirstApp.Chore`), what
    /// ``TransferRepresentation/codable(contentType:visibility:)`` uses when given none. Two
    /// apps built with the same type read each other's values; others see a private type.
    public static func of<T>(_ type: T.Type) -> ContentType {
        let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789.-_+")
        let name = String(reflecting: type).lowercased().map { allowed.contains($0) ? $0 : "-" }
        return ContentType("application/x-swift." + String(name))
    }

    // Common types.
    public static let plainText: ContentType = "text/plain"
    public static let utf8PlainText: ContentType = "text/plain;charset=utf-8"
    public static let html: ContentType = "text/html"
    public static let richText: ContentType = "text/rtf"
    public static let uriList: ContentType = "text/uri-list"
    public static let png: ContentType = "image/png"
    public static let jpeg: ContentType = "image/jpeg"
    public static let pdf: ContentType = "application/pdf"
    public static let octetStream: ContentType = "application/octet-stream"
    public static let anything: ContentType = "*/*"
}

extension String {
    func trimmingSpaces() -> String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" { s.removeFirst() }
        while let l = s.last, l == " " || l == "\t" { s.removeLast() }
        return String(s)
    }
}

/// Which types are kinds of which: `text/html` is a kind of `text/plain`, every `image/…` is a
/// kind of `image/*`, and everything is a kind of `*/*`.
///
/// The built-in table covers the types the engine relies on, so it works where the desktop's
/// shared-mime-info database is absent; apps add their own with ``declare(_:conformsTo:)``.
public struct TypeConformance: Sendable {
    private var supertypes: [String: [String]]
    /// The same parents as sets, so declaring one again is found in O(1) (a database with many
    /// parents for one type loads in linear time).
    private var supertypeSets: [String: Set<String>]
    private var aliases: [String: String]

    /// The built-in table.
    public init() {
        supertypes = [
            "text/html": ["text/plain"],
            "text/rtf": ["text/plain"],
            "text/markdown": ["text/plain"],
            "text/uri-list": ["text/plain"],
            "text/csv": ["text/plain"],
            "text/vcard": ["text/plain"],
            "application/xhtml+xml": ["application/xml"],
            "image/svg+xml": ["application/xml"],
            "application/xml": ["text/plain"],
            "application/json": ["text/plain"],
        ]
        aliases = [
            "text/x-vcard": "text/vcard",
            "text/directory": "text/vcard",
            "image/jpg": "image/jpeg",
            "image/pjpeg": "image/jpeg",
            "text/xml": "application/xml",
            "application/rtf": "text/rtf",
        ]
        supertypeSets = supertypes.mapValues { Set($0) }
    }

    /// Declares that `type` is a kind of each of `parents` (an app's own types).
    public mutating func declare(_ type: ContentType, conformsTo parents: [ContentType]) {
        let key = canonical(type.essence)
        for parent in parents {
            let parent = canonical(parent.essence)
            guard supertypeSets[key, default: []].insert(parent).inserted else { continue }
            supertypes[key, default: []].append(parent)
        }
    }

    /// Declares that `alias` names the same type as `type`. Wildcards are not types: a line of a
    /// database that makes `*/*` or `image/*` an alias, or an alias of one, is ignored (it would
    /// make everything stop conforming to `*/*`).
    public mutating func declareAlias(_ alias: ContentType, of type: ContentType) {
        guard !alias.isWildcard, !type.isWildcard else { return }
        aliases[alias.essence] = canonical(type.essence)
    }

    /// The canonical essence for an alias, or the essence itself.
    public func canonical(_ essence: String) -> String { aliases[essence] ?? essence }

    /// The type itself, its supertypes (transitively, nearest first), its media-type wildcard and
    /// `*/*`, each once. O(size of the closure and of its relations).
    public func closure(of type: ContentType) -> [String] {
        var result: [String] = []
        var seen = Set<String>()
        let essence = canonical(type.essence)
        var queue = [essence]
        var head = 0
        while head < queue.count {
            let next = queue[head]
            head += 1
            guard seen.insert(next).inserted else { continue }
            result.append(next)
            queue.append(contentsOf: supertypes[next] ?? [])
        }
        // The wildcard of the type an alias names, not of the alias's own spelling
        // (image/pdf names application/pdf, which is not an image/*).
        let major = essence.split(separator: "/", maxSplits: 1).first ?? ""
        if !major.isEmpty, !type.isWildcard, seen.insert("\(major)/*").inserted { result.append("\(major)/*") }
        if type.essence != "*/*", seen.insert("*/*").inserted { result.append("*/*") }
        return result
    }

    /// Whether `type` is a kind of `other` (reflexive; wildcards in `other` match).
    public func conforms(_ type: ContentType, to other: ContentType) -> Bool {
        closure(of: type).contains(canonical(other.essence))
    }
}
