import DragDrop
import Foundation

/// Builds `.mo` files in tests (either byte order) and finds the package's catalogs.
enum MOFixtures {
    /// A `.mo` file of `entries` (key: context U+0004 id, with NUL and the plural for plural
    /// entries; value: forms joined by NUL), keys sorted, no hash table.
    static func mo(_ entries: [(key: String, value: String)], bigEndian: Bool = false) -> [UInt8] {
        let sorted = entries.sorted { Array($0.key.utf8).lexicographicallyPrecedes(Array($1.key.utf8)) }
        let count = sorted.count
        let stringsStart = 28 + 16 * count
        var out: [UInt8] = []
        func word(_ value: Int) {
            let v = UInt32(value)
            withUnsafeBytes(of: bigEndian ? v.bigEndian : v.littleEndian) { out += $0 }
        }
        var strings: [UInt8] = []
        var table: [(Int, Int)] = []
        for text in sorted.map(\.key) + sorted.map(\.value) {
            table.append((text.utf8.count, stringsStart + strings.count))
            strings += Array(text.utf8) + [0]
        }
        for value in [0x9504_12de, 0, count, 28, 28 + 8 * count, 0, stringsStart] { word(value) }
        for (length, offset) in table { word(length); word(offset) }
        return out + strings
    }

    /// A header entry with `pluralForms`.
    static func header(_ pluralForms: String, language: String) -> (key: String, value: String) {
        ("", "Content-Type: text/plain; charset=UTF-8\nLanguage: \(language)\nPlural-Forms: \(pluralForms)\n")
    }

    /// A fresh directory laid out as gettext's, with `bytes` as `<language>/LC_MESSAGES/dragdrop.mo`.
    static func catalogDirectory(_ files: [String: [UInt8]]) throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("dragdrop-l10n-\(UUID().uuidString)")
        for (language, bytes) in files {
            let folder = root.appendingPathComponent("\(language)/LC_MESSAGES")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(bytes).write(to: folder.appendingPathComponent("dragdrop.mo"))
        }
        return root.path
    }

    /// The package's catalog sources (`Sources/DragDrop/Localization/po`).
    static let poDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/DragDrop/Localization/po")

    /// The languages the package ships.
    static let shipped = ["ko", "ja", "ru", "he"]

    /// A localizer for `language` with only the package's catalogs (no environment, no system).
    static func localizer(_ language: String) -> Localizer {
        Localizer(languages: [language], environment: [:], searchSystem: false)
    }
}

/// The entries of a `.po` or `.pot` file as this package writes them (one line a string):
/// context, id, plural, forms.
struct POEntry: Hashable {
    var context: String?
    var id: String
    var plural: String?
    var forms: [String] = []

    static func read(_ url: URL) throws -> [POEntry] {
        let text = try String(contentsOf: url, encoding: .utf8)
        var entries: [POEntry] = []
        var current: POEntry?
        func value(_ line: Substring) -> String {
            let start = line.firstIndex(of: "\"")!
            let quoted = line[line.index(after: start)..<line.index(before: line.endIndex)]
            return quoted.replacingOccurrences(of: "\\\"", with: "\"").replacingOccurrences(of: "\\\\", with: "\\")
        }
        for line in text.split(separator: "\n") where !line.hasPrefix("#") && !line.hasPrefix("\"") {
            if line.hasPrefix("msgctxt ") {
                if let current { entries.append(current) }
                current = POEntry(context: value(line), id: "")
            } else if line.hasPrefix("msgid ") {
                if let c = current, c.id != "" || c.context == nil || !c.forms.isEmpty {
                    entries.append(c); current = nil
                }
                if current == nil { current = POEntry(context: nil, id: "") }
                current?.id = value(line)
            } else if line.hasPrefix("msgid_plural ") {
                current?.plural = value(line)
            } else if line.hasPrefix("msgstr") {
                current?.forms.append(value(line))
            }
        }
        if let current { entries.append(current) }
        return entries.filter { !$0.id.isEmpty }
    }
}
