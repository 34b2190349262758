// Compiles a gettext catalog (.po) into the binary form gettext and DragDrop read (.mo), so the
// package builds on machines without GNU gettext. Used by the CompileMessageCatalogs build-tool
// plugin: `dragdrop-msgfmt INPUT.po OUTPUT.mo`.
//
// Like `msgfmt` without options: fuzzy, obsolete (#~) and untranslated entries are left out, the
// header entry (empty msgid) is kept, keys are sorted by their bytes. No hash table is written
// (its size field is 0), which gettext's readers accept: they then search the sorted keys.
import Foundation

/// One entry of a .po file.
struct Entry {
    var context: String?
    var id = ""
    var plural: String?
    var translations: [Int: String] = [:]
    var fuzzy = false
}

struct POError: Error, CustomStringConvertible {
    var line: Int
    var message: String
    var description: String { "line \(line): \(message)" }
}

/// Reads the entries of a .po file.
func parsePO(_ text: String) throws(POError) -> [Entry] {
    var entries: [Entry] = []
    var current = Entry()
    var started = false
    // Where continuation lines ("...") go.
    enum Field { case context, id, plural, translation(Int) }
    var field: Field?
    func finish() {
        if started { entries.append(current) }
        current = Entry()
        started = false
        field = nil
    }
    for (offset, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
        let lineNumber = offset + 1
        let line = raw.trimmingCharacters(in: .whitespaces)
        if line.isEmpty { continue }
        if line.hasPrefix("#") {
            // Comments belong to the entry that follows.
            if started { finish() }
            if line.hasPrefix("#,") && line.contains("fuzzy") { current.fuzzy = true }
            continue
        }
        if line.hasPrefix("\"") {
            let value = try unquote(line, lineNumber)
            switch field {
            case .context: current.context! += value
            case .id: current.id += value
            case .plural: current.plural! += value
            case .translation(let index): current.translations[index]! += value
            case nil: throw POError(line: lineNumber, message: "a string continues no keyword")
            }
            continue
        }
        guard let space = line.firstIndex(of: " ") else {
            throw POError(line: lineNumber, message: "expected a keyword and a string")
        }
        let keyword = String(line[..<space])
        let value = try unquote(String(line[line.index(after: space)...]).trimmingCharacters(in: .whitespaces), lineNumber)
        switch keyword {
        case "msgctxt":
            if started { finish() }
            current.context = value
            field = .context
        case "msgid":
            if started, !(current.id.isEmpty && current.plural == nil && current.translations.isEmpty && current.context != nil) {
                finish()
            }
            current.id = value
            field = .id
        case "msgid_plural":
            current.plural = value
            field = .plural
        case "msgstr":
            current.translations[0] = value
            field = .translation(0)
        default:
            guard keyword.hasPrefix("msgstr["), keyword.hasSuffix("]"),
                  let index = Int(keyword.dropFirst(7).dropLast()), (0..<100).contains(index)
            else { throw POError(line: lineNumber, message: "unknown keyword \(keyword)") }
            current.translations[index] = value
            field = .translation(index)
        }
        started = true
    }
    finish()
    return entries
}

/// The value of a C-style quoted string.
func unquote(_ text: String, _ line: Int) throws(POError) -> String {
    var scalars = Array(text.unicodeScalars)
    guard scalars.count >= 2, scalars.first == "\"", scalars.last == "\"" else {
        throw POError(line: line, message: "expected a quoted string")
    }
    scalars = Array(scalars[1..<(scalars.count - 1)])
    var result = String.UnicodeScalarView()
    var index = 0
    while index < scalars.count {
        let scalar = scalars[index]
        index += 1
        if scalar == "\"" { throw POError(line: line, message: "an unescaped quote inside a string") }
        guard scalar == "\\" else { result.append(scalar); continue }
        guard index < scalars.count else { throw POError(line: line, message: "a string ends with a backslash") }
        let escaped = scalars[index]
        index += 1
        switch escaped {
        case "n": result.append("\n")
        case "t": result.append("\t")
        case "r": result.append("\r")
        case "a": result.append("\u{07}")
        case "b": result.append("\u{08}")
        case "f": result.append("\u{0C}")
        case "v": result.append("\u{0B}")
        case "\\", "\"", "'", "?": result.append(escaped)
        case "0"..."7":
            var value = escaped.value - 0x30
            var digits = 1
            while digits < 3, index < scalars.count, ("0"..."7").contains(scalars[index]) {
                value = value * 8 + scalars[index].value - 0x30
                index += 1
                digits += 1
            }
            result.append(Unicode.Scalar(UInt8(truncatingIfNeeded: value)))
        default: throw POError(line: line, message: "unknown escape \\\(escaped)")
        }
    }
    return String(result)
}

/// The .mo bytes of `entries` (little-endian, revision 0).
func compileMO(_ entries: [Entry]) -> [UInt8] {
    var pairs: [(key: [UInt8], value: [UInt8])] = []
    for entry in entries where !entry.fuzzy || entry.id.isEmpty {
        let count = entry.plural == nil ? 1 : (entry.translations.keys.max() ?? 0) + 1
        let forms = (0..<count).map { entry.translations[$0] ?? "" }
        // Untranslated: left out, as msgfmt does.
        if forms.allSatisfy(\.isEmpty) { continue }
        var key = Array((entry.context.map { $0 + "\u{04}" } ?? "").utf8) + Array(entry.id.utf8)
        if let plural = entry.plural { key += [0] + Array(plural.utf8) }
        pairs.append((key, Array(forms.joined(separator: "\0").utf8)))
    }
    pairs.sort { $0.key.lexicographicallyPrecedes($1.key) }
    let count = pairs.count
    let headerSize = 28
    let originals = headerSize
    let translations = originals + 8 * count
    let stringsStart = translations + 8 * count
    var out: [UInt8] = []
    func word(_ value: Int) { withUnsafeBytes(of: UInt32(value).littleEndian) { out += $0 } }
    word(0x9504_12de)
    word(0)
    word(count)
    word(originals)
    word(translations)
    word(0)  // hash table size
    word(stringsStart)  // hash table offset (none)
    var strings: [UInt8] = []
    var keyTable: [(Int, Int)] = []
    var valueTable: [(Int, Int)] = []
    for pair in pairs {
        keyTable.append((pair.key.count, stringsStart + strings.count))
        strings += pair.key + [0]
    }
    for pair in pairs {
        valueTable.append((pair.value.count, stringsStart + strings.count))
        strings += pair.value + [0]
    }
    for (length, offset) in keyTable + valueTable { word(length); word(offset) }
    out += strings
    return out
}

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: dragdrop-msgfmt INPUT.po OUTPUT.mo\n".utf8))
    exit(2)
}
do {
    let text = try String(contentsOfFile: arguments[1], encoding: .utf8)
    let entries = try parsePO(text)
    try Data(compileMO(entries)).write(to: URL(fileURLWithPath: arguments[2]), options: .atomic)
} catch {
    FileHandle.standardError.write(Data("\(arguments[1]): error: \(error)\n".utf8))
    exit(1)
}
