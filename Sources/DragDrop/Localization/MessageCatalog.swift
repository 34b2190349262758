/// The translations of one language, read from a gettext `.mo` file (L1).
///
/// The file format is GNU gettext's: a header of 32-bit words in either byte order (told by
/// the magic number), a table of original strings and one of translations, each a length and
/// an offset. Every offset and length is checked against the file before it is read, the
/// strings must be UTF-8, and the header's `Plural-Forms` line is parsed with ``PluralRule``.
/// A file that breaks any of these rules is refused with a ``MessageCatalogError`` and never
/// read halfway: the catalog either loads whole or not at all.
///
/// Keys are gettext's: a context and the end-of-transmission character (U+0004) before the
/// message, and the plural message after a NUL for plural entries; lookups use the context and
/// the singular message, as gettext does.
public struct MessageCatalog: Sendable {
    /// The translations by key (context, U+0004, message id); several forms for plural entries.
    private var entries: [String: [String]]
    /// The header entry's fields (`Language`, `Plural-Forms`, ...).
    public let header: [String: String]
    /// The plural rule of the header, or English's when the header has none.
    public let pluralRule: PluralRule

    /// The most entries a catalog may have (far above any real one; it bounds the work a file
    /// can ask for).
    public static let maximumEntries = 1_000_000

    /// Reads a `.mo` file's bytes.
    public init(bytes: [UInt8]) throws(MessageCatalogError) {
        guard bytes.count >= 28 else { throw .tooShort(bytes.count) }
        let littleEndian: Bool
        switch (bytes[0], bytes[1], bytes[2], bytes[3]) {
        case (0xDE, 0x12, 0x04, 0x95): littleEndian = true
        case (0x95, 0x04, 0x12, 0xDE): littleEndian = false
        default: throw .notACatalog
        }
        func word(at offset: Int) throws(MessageCatalogError) -> Int {
            guard offset >= 0, offset <= bytes.count - 4 else { throw .outOfBounds(offset: offset) }
            let b = (0..<4).map { UInt32(bytes[offset + $0]) }
            return Int(littleEndian ? b[0] | b[1] << 8 | b[2] << 16 | b[3] << 24 : b[3] | b[2] << 8 | b[1] << 16 | b[0] << 24)
        }
        let revision = try word(at: 4)
        guard revision >> 16 == 0 else { throw .unsupportedRevision(revision) }
        let count = try word(at: 8)
        let originals = try word(at: 12)
        let translations = try word(at: 16)
        guard count <= Self.maximumEntries else { throw .tooManyEntries(count) }
        for table in [originals, translations] where table > bytes.count || count * 8 > bytes.count - table {
            throw .outOfBounds(offset: table)
        }
        func string(table: Int, index: Int) throws(MessageCatalogError) -> String {
            let length = try word(at: table + 8 * index)
            let offset = try word(at: table + 8 * index + 4)
            guard offset <= bytes.count, length <= bytes.count - offset else { throw .outOfBounds(offset: offset) }
            guard let text = String(validating: bytes[offset..<(offset + length)], as: UTF8.self) else {
                throw .notUTF8(offset: offset)
            }
            return text
        }
        var entries: [String: [String]] = [:]
        entries.reserveCapacity(count)
        var headerText: String?
        for index in 0..<count {
            let original = try string(table: originals, index: index)
            let translation = try string(table: translations, index: index)
            // A plural entry's key is its singular; the plural original follows a NUL.
            let key = original.split(separator: "\0", maxSplits: 1, omittingEmptySubsequences: false)[0]
            if key.isEmpty { headerText = translation; continue }
            entries[String(key)] = translation.split(separator: "\0", omittingEmptySubsequences: false).map(String.init)
        }
        self.entries = entries
        var header: [String: String] = [:]
        for line in (headerText ?? "").split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            header[line[..<colon].trimmingSpaces] = line[line.index(after: colon)...].trimmingSpaces
        }
        self.header = header
        if let plural = header["Plural-Forms"] {
            do { pluralRule = try PluralRule(header: plural) } catch { throw .pluralForms(error) }
        } else {
            pluralRule = .english
        }
    }

    /// A catalog of `translations` (message id → forms) in code, for tests and for apps that
    /// keep their sentences elsewhere.
    public init(translations: [String: [String]], context: String? = nil, pluralRule: PluralRule = .english) {
        entries = Dictionary(uniqueKeysWithValues: translations.map { (Self.key(context, $0.key), $0.value) })
        header = [:]
        self.pluralRule = pluralRule
    }

    /// The number of translated messages (the header not counted).
    public var count: Int { entries.count }

    /// The forms of `id` in `context`: one for a message without plural, ``PluralRule/count``
    /// for a plural one. `nil` when the catalog does not translate it.
    public func translations(of id: String, context: String? = nil) -> [String]? {
        entries[Self.key(context, id)]
    }

    /// Every entry: (context, message id, forms), sorted.
    public var allEntries: [(context: String?, id: String, forms: [String])] {
        entries.map { key, forms in
            let parts = key.split(separator: "\u{04}", maxSplits: 1, omittingEmptySubsequences: false)
            return parts.count == 2 ? (String(parts[0]), String(parts[1]), forms) : (nil, key, forms)
        }.sorted { ($0.context ?? "", $0.id) < ($1.context ?? "", $1.id) }
    }

    static func key(_ context: String?, _ id: String) -> String {
        context.map { $0 + "\u{04}" + id } ?? id
    }
}

/// Why a `.mo` file was refused.
public enum MessageCatalogError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Shorter than the 28-byte header.
    case tooShort(Int)
    /// Does not start with gettext's magic number (0x950412de) in either byte order.
    case notACatalog
    /// A major revision other than 0.
    case unsupportedRevision(Int)
    /// More entries than ``MessageCatalog/maximumEntries``.
    case tooManyEntries(Int)
    /// A table or string lies (partly) outside the file.
    case outOfBounds(offset: Int)
    /// A string is not UTF-8.
    case notUTF8(offset: Int)
    /// The header's `Plural-Forms` line could not be parsed.
    case pluralForms(PluralRuleError)
    /// The file could not be read.
    case unreadable(path: String)

    public var description: String {
        switch self {
        case .tooShort(let size): "The message catalog has \(size) bytes, fewer than a header's 28."
        case .notACatalog: "The file is not a gettext message catalog (no .mo magic number)."
        case .unsupportedRevision(let revision): "The message catalog's revision \(revision >> 16).\(revision & 0xFFFF) is not supported."
        case .tooManyEntries(let count): "The message catalog claims \(count) entries, more than \(MessageCatalog.maximumEntries)."
        case .outOfBounds(let offset): "The message catalog points outside itself (offset \(offset))."
        case .notUTF8(let offset): "The message catalog has a string that is not UTF-8 at byte \(offset)."
        case .pluralForms(let error): "The message catalog's Plural-Forms line is wrong: \(error)"
        case .unreadable(let path): "The message catalog \(path) could not be read."
        }
    }
}
