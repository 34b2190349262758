// Fuzzes the MIME type parser (Sources/DragDrop/Transfer/ContentType.swift) and the reader of
// the shared-mime-info database (SharedMimeInfo.swift): the types other apps offer in a drag
// are parsed with ContentType, and conformance decides what a destination accepts.
//
// Each input line is a MIME type; the whole input is also read as an `aliases` or
// `subclasses` file (its first byte decides) and the table is queried with every line.
// Oracles: no crash, no hang; identity ignores parameters and case; Codable round-trips;
// conformance is reflexive, everything conforms to */*, and a closure lists no type twice.
@testable import DragDrop
import Foundation
import FuzzSupport

func fuzzMime(_ raw: Data) {
    let (data, big) = FuzzInput.expand(raw)
    let text = String(decoding: data, as: UTF8.self)
    let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(String.init)
    let queried = big ? Array(lines.prefix(64)) : lines

    for (index, line) in queried.enumerated() {
        let type = ContentType(line)
        check(type.mimeType == line, "the MIME type was not kept as given: \(excerpt(line))")
        check(!type.essence.unicodeScalars.contains(";"), "a parameter is in the essence: \(excerpt(type.essence))")
        check(
            type.essence.first.map { $0 != " " && $0 != "\t" } ?? true
                && type.essence.last.map { $0 != " " && $0 != "\t" } ?? true,
            "the essence is not trimmed: \(excerpt(type.essence))")
        check(ContentType(type.essence) == type, "a type differs from its own essence: \(excerpt(line))")
        check(
            ContentType(line.uppercased()) == type || line.uppercased().lowercased() != line.lowercased(),
            "identity depends on case: \(excerpt(line))")
        if index < 64, let encoded = try? JSONEncoder().encode(type) {
            let decoded = try? JSONDecoder().decode(ContentType.self, from: encoded)
            check(decoded?.mimeType == type.mimeType, "Codable did not round-trip \(excerpt(line))")
        }
        if type.isWellFormed {
            let parts = type.essence.split(separator: "/", omittingEmptySubsequences: false)
            check(
                parts.count == 2 && !parts[0].isEmpty && !parts[1].isEmpty,
                "well-formed but not type/subtype: \(excerpt(line))")
            check(type.mediaType == parts[0], "the media type of \(excerpt(line)) is \(type.mediaType)")
        }
    }

    // The database reader: the input as an aliases file or a subclasses file.
    var table = TypeConformance()
    let asAliases = data.first.map { $0 & 1 == 1 } ?? false
    for (a, b) in SharedMimeInfo.pairs(text) {
        check(
            ContentType(a).isWellFormed && ContentType(b).isWellFormed,
            "a malformed pair was read: \(excerpt(a)) \(excerpt(b))")
        if asAliases {
            table.declareAlias(ContentType(a), of: ContentType(b))
        } else {
            table.declare(ContentType(a), conformsTo: [ContentType(b)])
        }
    }
    for line in queried.prefix(64) {
        let type = ContentType(line)
        let closure = table.closure(of: type)
        check(
            Set(closure).count == closure.count,
            "the closure of \(excerpt(line)) lists a type twice: \(closure.prefix(20))")
        check(table.conforms(type, to: type), "\(excerpt(line)) does not conform to itself")
        check(table.conforms(type, to: .anything), "\(excerpt(line)) does not conform to */*")
    }
}

runFuzzer { pointer, count in
    fuzzMime(fuzzData(pointer, count))
    return 0
}
