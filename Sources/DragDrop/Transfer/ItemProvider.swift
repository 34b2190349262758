import Foundation

/// Who may receive a representation (P5).
public enum RepresentationVisibility: String, Sendable, Hashable, Codable {
    /// Any app.
    case everyone
    /// Only the app the item comes from; never offered to another process.
    case ownApp
}

/// The bytes of a representation, as produced on demand.
public enum RepresentationContent: Sendable {
    /// Small data, already in memory.
    case data(Data)
    /// A stream read in chunks.
    case stream(any ByteSource)
    /// A file on disk, read in chunks.
    case file(path: String)

    /// A chunked source over the content.
    public func source() throws(TransferError) -> any ByteSource {
        switch self {
        case .data(let d): return DataSource(d)
        case .stream(let s): return s
        case .file(let path): return try FileSource(path: path)
        }
    }
}

/// One form of an item's data: a type, who may see it, its size when known, and how to
/// produce it. Nothing is produced until a destination asks, at the drop (P1, P4, P5).
public struct Representation: Sendable {
    /// The content type.
    public var type: ContentType
    /// Who may receive it.
    public var visibility: RepresentationVisibility
    /// The total size in bytes when known up front (P4).
    public var size: Int64?
    /// Produces the content; called only when a destination loads it.
    public var produce: @Sendable () async throws -> RepresentationContent

    /// Creates a lazily produced representation.
    public init(
        _ type: ContentType, visibility: RepresentationVisibility = .everyone, size: Int64? = nil,
        produce: @escaping @Sendable () async throws -> RepresentationContent
    ) {
        self.type = type
        self.visibility = visibility
        self.size = size
        self.produce = produce
    }

    /// A representation of data already in memory.
    public static func data(_ type: ContentType, _ data: Data, visibility: RepresentationVisibility = .everyone)
        -> Representation
    {
        Representation(type, visibility: visibility, size: Int64(data.count)) { .data(data) }
    }

    /// A representation of UTF-8 text.
    public static func text(_ type: ContentType = .utf8PlainText, _ text: String) -> Representation {
        .data(type, Data(text.utf8))
    }
}

/// An item's representations, richest first (P1): a chart offers its native form, then PDF,
/// then PNG (P2: custom objects first).
///
/// ```swift
/// let chart = ItemProvider(app: "Charts", representations: [
///     .data("application/x-dragdrop-chart", chartJSON, visibility: .ownApp),
///     Representation(.pdf, size: nil) { .data(try renderPDF()) },
///     Representation(.png, size: nil) { .data(try renderPNG()) },
/// ])
/// ```
public struct ItemProvider: Sendable {
    /// The app the item comes from.
    public var app: AppID
    /// Representations, richest first.
    public var representations: [Representation]
    /// The item's name as a file, without extension ("Beach", "Sales 2026"), when it has a
    /// file form: other apps that take files (browsers, file managers) then also get it as a
    /// file of its richest representation (see `FileExport` in DragDropGTK). Nil: no file form.
    public var suggestedName: String?

    /// Creates a provider.
    public init(app: AppID, representations: [Representation], suggestedName: String? = nil) {
        self.app = app
        self.representations = representations
        self.suggestedName = suggestedName
    }

    /// The types offered to `requester`, richest first: representations limited to the
    /// item's own app are left out for every other app (P5).
    public func offeredTypes(to requester: AppID) -> [ContentType] {
        visibleRepresentations(to: requester).map(\.type)
    }

    /// The representations `requester` may receive, richest first.
    public func visibleRepresentations(to requester: AppID) -> [Representation] {
        representations.filter { $0.visibility == .everyone || requester == app }
    }
}

/// Converts data of one type to another (styled text to plain text, a chart to an image).
public struct Conversion: Sendable {
    /// The input type.
    public var from: ContentType
    /// The output type.
    public var to: ContentType
    /// The conversion; inputs are validated first and outputs must be valid `to` data.
    public var convert: @Sendable (Data) throws -> Data

    /// Creates a conversion.
    public init(from: ContentType, to: ContentType, convert: @escaping @Sendable (Data) throws -> Data) {
        self.from = from
        self.to = to
        self.convert = convert
    }

    /// HTML to plain text: tags dropped, common entities decoded, block ends as line breaks.
    /// Styled text dropped where only plain text is taken loses its attributes and takes the
    /// destination's style (A7).
    public static let htmlToPlainText = Conversion(from: .html, to: .utf8PlainText) { data in
        let html = try ContentValidation.utf8(data, .html)
        return Data(StyledText.plainText(fromHTML: html).utf8)
    }
}

/// What the chooser picked for a destination.
public struct RepresentationChoice: Sendable, Equatable {
    /// Index into the provider's representations.
    public var index: Int
    /// The type offered.
    public var offered: ContentType
    /// The type the destination receives (differs when a conversion applies).
    public var delivered: ContentType
    /// Whether a conversion is needed.
    public var converts: Bool

    public static func == (a: Self, b: Self) -> Bool {
        a.index == b.index && a.offered == b.offered && a.delivered == b.delivered && a.converts == b.converts
    }
}

/// Picks the richest representation a destination can use (A2).
public struct RepresentationChooser: Sendable {
    /// Conformance, to match `text/html` against a destination taking `text/plain`, say.
    public var conformance: TypeConformance
    /// Registered conversions.
    public var conversions: [Conversion]

    /// Creates a chooser.
    public init(conformance: TypeConformance = TypeConformance(), conversions: [Conversion] = [.htmlToPlainText]) {
        self.conformance = conformance
        self.conversions = conversions
    }

    /// In three passes over `offered` (richest first), the first type that the destination
    /// accepts exactly; else the first that is a kind of an accepted type (`image/png` for
    /// `image/*`); else the first that a registered conversion turns into an accepted type.
    /// The item's order decides within a pass, not the destination's (a destination taking
    /// `text/plain` and `text/html` gets HTML from an item that offers HTML first), and an exact
    /// match wins over a richer type that only matches by conformance or a wildcard.
    public func choose(offered: [ContentType], accepted: [ContentType]) -> RepresentationChoice? {
        for (i, type) in offered.enumerated() where accepted.contains(type) {
            return RepresentationChoice(index: i, offered: type, delivered: type, converts: false)
        }
        for (i, type) in offered.enumerated() {
            if accepted.contains(where: { conformance.conforms(type, to: $0) && !isLossyConformance(type, $0) }) {
                return RepresentationChoice(index: i, offered: type, delivered: type, converts: false)
            }
        }
        for (i, type) in offered.enumerated() {
            for conversion in conversions where conformance.conforms(type, to: conversion.from) {
                if accepted.contains(where: { conformance.conforms(conversion.to, to: $0) }) {
                    return RepresentationChoice(index: i, offered: type, delivered: conversion.to, converts: true)
                }
            }
        }
        return nil
    }

    /// Markup is a kind of plain text, but a plain-text destination must receive it converted,
    /// not as raw tags: those pairs go through a conversion when one is registered.
    private func isLossyConformance(_ type: ContentType, _ accepted: ContentType) -> Bool {
        guard accepted.essence == "text/plain" else { return false }
        return conversions.contains { conformance.conforms(type, to: $0.from) && $0.to.essence == "text/plain" }
    }

    /// The conversion for a choice, if it converts.
    public func conversion(for choice: RepresentationChoice) -> Conversion? {
        guard choice.converts else { return nil }
        return conversions.first {
            conformance.conforms(choice.offered, to: $0.from) && $0.to == choice.delivered
        }
    }
}

/// Minimal styled-text helpers for the A7 rule.
public enum StyledText {
    /// Plain text from HTML: tags removed, `<br>`, `</p>`, `</div>`, `</li>` as line breaks,
    /// the five XML entities, `&nbsp;` and numeric character references (`&#233;`, `&#x2014;`)
    /// decoded.
    public static func plainText(fromHTML html: String) -> String {
        var out = ""
        var tag = ""
        var inTag = false
        for ch in html {
            if inTag {
                if ch == ">" {
                    inTag = false
                    let name = tag.lowercased().split(whereSeparator: { $0 == " " || $0 == "/" }).first ?? ""
                    let closing = tag.hasPrefix("/")
                    if name == "br" || (closing && ["p", "div", "li", "h1", "h2", "h3"].contains(String(name))) {
                        out.append("\n")
                    }
                    tag = ""
                } else {
                    tag.append(ch)
                }
            } else if ch == "<" {
                inTag = true
            } else {
                out.append(ch)
            }
        }
        out = decodingCharacterReferences(out)
        while out.hasSuffix("\n") { out.removeLast() }
        return out
    }

    private static let namedEntities: [Substring: Character] = [
        "lt": "<", "gt": ">", "amp": "&", "quot": "\"", "apos": "'", "nbsp": " ",
    ]

    /// Decodes `&name;`, `&#NNN;` and `&#xHH;` in one pass, so `&amp;lt;` stays the text `&lt;`.
    /// Unknown names and references to invalid scalars (surrogates, beyond U+10FFFF, NUL) are
    /// left as written.
    static func decodingCharacterReferences(_ text: String) -> String {
        var out = ""
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            rest = rest[amp...]
            let body = rest.dropFirst().prefix(10)
            if let semicolon = body.firstIndex(of: ";") {
                let name = body[..<semicolon]
                var decoded: Character?
                if name.hasPrefix("#x") || name.hasPrefix("#X") {
                    decoded = UInt32(name.dropFirst(2), radix: 16).flatMap(scalar)
                } else if name.hasPrefix("#") {
                    decoded = UInt32(name.dropFirst(), radix: 10).flatMap(scalar)
                } else {
                    decoded = namedEntities[name]
                }
                if let decoded {
                    out.append(decoded)
                    rest = rest[rest.index(after: semicolon)...]
                    continue
                }
            }
            out.append("&")
            rest = rest.dropFirst()
        }
        out += rest
        return out
    }

    private static func scalar(_ value: UInt32) -> Character? {
        guard value != 0, let scalar = Unicode.Scalar(value) else { return nil }
        return Character(scalar)
    }
}
