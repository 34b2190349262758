import DragDrop
import Foundation
import ShowcaseModel
import Testing

/// The showcase's own words in Korean, Japanese and Russian (L1): every sentence a pane shows
/// is in the catalogs, translated, with its placeholders, and read back through the compiled
/// resources; the template lists exactly the sentences the sources say.
@Suite("Showcase: its own words in every catalog language")
struct ShowcaseWordsTests {
    static let languages = ["ko", "ja", "ru", "he"]
    static let appsSources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Sources").standardizedFileURL
    static let poDirectory = appsSources.appendingPathComponent("ShowcaseModel/Words/po")

    /// msgid → msgstr of a catalog (plain entries: the showcase uses no contexts or plurals).
    static func entries(_ file: String) throws -> [String: String] {
        let text = try String(contentsOf: poDirectory.appendingPathComponent(file), encoding: .utf8)
        var entries: [String: String] = [:]
        var id: String?
        var current = ""
        var inID = false
        func unquote(_ line: Substring) -> String {
            var s = String(line.dropFirst().dropLast())
            s = s.replacingOccurrences(of: "\\n", with: "\n").replacingOccurrences(of: "\\\"", with: "\"")
            return s.replacingOccurrences(of: "\\\\", with: "\\")
        }
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("msgid ") {
                if let id { entries[id] = current }
                current = unquote(line.dropFirst(6))
                inID = true
            } else if line.hasPrefix("msgstr ") {
                id = current
                current = unquote(line.dropFirst(7))
                inID = false
            } else if line.hasPrefix("\"") {
                if inID { current += unquote(line) } else { current += unquote(line) }
            }
        }
        if let id { entries[id] = current }
        entries[""] = nil
        return entries
    }

    /// Every `words("…")` literal in the apps' sources.
    static func sentencesInSources() throws -> Set<String> {
        var found: Set<String> = []
        let files = FileManager.default.enumerator(at: appsSources, includingPropertiesForKeys: nil)
        // words("…"), its literal maybe split in parts joined by + across lines.
        let literal = #""(?:[^"\\\n]|\\.)*""#
        let pattern = try Regex(#"\bwords\(\s*("# + literal + #"(?:\s*\+\s*"# + literal + #")*)"#)
        let part = try Regex(literal)
        while let url = files?.nextObject() as? URL {
            guard url.pathExtension == "swift", url.lastPathComponent != "ShowcaseWords.swift" else { continue }
            let text = try String(contentsOf: url, encoding: .utf8)
            for match in text.matches(of: pattern) {
                guard let joined = match.output[1].substring else { continue }
                let sentence = joined.matches(of: part).map { String(joined[$0.range].dropFirst().dropLast()) }.joined()
                found.insert(sentence.replacingOccurrences(of: "\\\"", with: "\""))
            }
        }
        return found
    }

    @Test(
        "L1: showcase.pot lists exactly the sentences the showcase's sources show (Tools/showcase-words.py keeps it so)"
    )
    func templateMatchesTheSources() throws {
        let template = Set(try Self.entries("showcase.pot").keys)
        let sources = try Self.sentencesInSources()
        #expect(!sources.isEmpty)
        #expect(sources.subtracting(template).isEmpty, "not in showcase.pot: \(sources.subtracting(template).sorted())")
        #expect(template.subtracting(sources).isEmpty, "no longer shown: \(template.subtracting(sources).sorted())")
    }

    @Test(
        "L1: every sentence of the showcase is translated in Korean, Japanese and Russian, with the same placeholders",
        arguments: languages)
    func everySentenceTranslated(_ language: String) throws {
        let template = try Self.entries("showcase.pot")
        let catalog = try Self.entries("\(language).po")
        for id in template.keys.sorted() {
            let translated = try #require(catalog[id], "\(language).po lacks '\(id)'")
            #expect(!translated.isEmpty, "\(language): '\(id)' is not translated")
            #expect(translated != id || id.allSatisfy { !$0.isLetter }, "\(language): '\(id)' is left in English")
            #expect(
                ShowcaseWords.placeholders(in: translated) == ShowcaseWords.placeholders(in: id),
                "\(language): '\(id)' has other placeholders: '\(translated)'")
        }
    }

    @Test(
        "L1: the compiled catalogs are found in the resources and give each translation; English stays English",
        arguments: languages)
    func compiledCatalogsAreRead(_ language: String) throws {
        let catalog = try Self.entries("\(language).po")
        for (id, translated) in catalog where !translated.isEmpty {
            #expect(Localization.withLanguage(language) { ShowcaseWords.text(id) } == translated)
            #expect(Localization.withLanguage("en") { ShowcaseWords.text(id) } == id)
        }
        // In a right-to-left language the English names are isolated (L2), as the library
        // puts names into its own sentences.
        let (ana, priya) = language == "he" ? ("\u{2068}Ana\u{2069}", "\u{2068}Priya\u{2069}") : ("Ana", "Priya")
        #expect(
            Localization.withLanguage(language) { words("{name} and {other}", ["name": "Ana", "other": "Priya"]) }
                == "\(ana) and \(priya)", "a sentence no catalog has stays English, its placeholders filled")
        // A name's own controls never go in: a right-to-left override cannot turn it around.
        #expect(
            Localization.withLanguage(language) {
                words("{name} and {other}", ["name": "\u{202E}gnp.exe", "other": "x"])
            }
            .unicodeScalars.contains { $0.value == 0x202E } == false)
    }
}
