@testable import DragDrop
import Foundation
import Testing

/// What fuzzing the transfer decoders found (Fuzz/, `make fuzz`), each kept as a test: inputs
/// other apps can send that were checked in quadratic time, or read into something wrong.
@Suite("Transfer: fuzzing findings")
struct TransferFuzzFindingsTests {
    /// Streams `data` through the validating sink of `type` in chunks of `size` bytes.
    private func stream(_ data: Data, as type: ContentType, chunk size: Int) throws -> Data {
        let memory = MemorySink()
        let sink = ValidatingSink(memory, type: type, conformance: TypeConformance())
        var start = data.startIndex
        while start < data.endIndex {
            let end = min(start + size, data.endIndex)
            try sink.write(data[start..<end])
            start = end
        }
        try sink.finish()
        return memory.data
    }

    @Test("A6: a 1 MiB URI-list line arriving 64 bytes at a time is checked in linear time and accepted")
    func longURILineInSmallChunks() throws {
        // Each chunk used to search the whole line received so far for its end: 16,384 chunks
        // times half a megabyte. Now only the new bytes are searched.
        let line = "file:///tmp/" + String(repeating: "a", count: (1 << 20) - 16) + "\r\n"
        let data = Data(line.utf8)
        #expect(try stream(data, as: .uriList, chunk: 64) == data)
        try ContentValidation.validate(data, as: .uriList)
    }

    @Test("A6: a '..' segment hidden behind U+0600 (which joins the '/' after it into its grapheme) is refused")
    func hiddenDotDot() {
        // Found by fuzzing the Files pane's reader: split by characters, "a\u{600}/.." is one
        // segment; the kernel sees "a\u{600}" then "..".
        let list = "file:///tmp/a\u{600}/../etc/passwd\r\n"
        #expect(throws: TransferError.malformed(type: "text/uri-list", reason: "line 1 has a '..' path segment")) {
            try ContentValidation.validate(Data(list.utf8), as: .uriList)
        }
        #expect(throws: TransferError.self) { _ = try stream(Data(list.utf8), as: .uriList, chunk: 3) }
    }

    @Test("A6: a bad line of a streamed URI list is refused with the line number the whole check gives")
    func streamedLineNumbers() throws {
        let list = Data((String(repeating: "file:///tmp/a.txt\r\n", count: 500) + "notes.txt\r\n").utf8)
        let expected = TransferError.malformed(
            type: "text/uri-list", reason: "line 501 is not an absolute URI: notes.txt")
        #expect(throws: expected) { try ContentValidation.validate(list, as: .uriList) }
        for size in [1, 7, 64, 4096] {
            #expect(throws: expected) { _ = try stream(list, as: .uriList, chunk: size) }
        }
    }

    @Test("Type conformance: 50,000 parents of one type and a 50,000-long chain load and answer in linear time")
    func bigMimeDatabase() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mime-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // Declaring a parent used to search the type's list of parents, and a closure its list
        // of results and its queue's front: both quadratic.
        let n = 50_000
        var lines = (0..<n).map { "t/x p/\($0)" }
        lines += (0..<n).map { "c/\($0) c/\($0 + 1)" }
        lines.append("t/x p/7")  // a parent declared twice counts once
        try lines.joined(separator: "\n").write(
            to: directory.appendingPathComponent("subclasses"), atomically: true, encoding: .utf8)
        var table = TypeConformance()
        #expect(SharedMimeInfo.load(directory: directory.path, into: &table) == 2 * n + 1)

        let parents = table.closure(of: "t/x")
        #expect(parents.count == 1 + n + 2)
        #expect(parents.prefix(3) == ["t/x", "p/0", "p/1"])
        #expect(parents.suffix(2) == ["t/*", "*/*"])
        let chain = table.closure(of: "c/0")
        #expect(chain.count == n + 1 + 2)
        #expect(table.conforms("c/0", to: ContentType("c/\(n)")))
        #expect(!table.conforms(ContentType("c/\(n)"), to: "c/0"))
    }

    @Test("A MIME type's essence is what comes before the first ';', even when that is nothing")
    func essenceBeforeParameters() {
        // Found by fuzzing: ";" kept ";" as its essence, and ";charset=utf-8" (no type at all)
        // took "charset=utf-8" as its type.
        #expect(ContentType(";").essence == "")
        #expect(ContentType(";charset=utf-8").essence == "")
        #expect(!ContentType(";charset=utf-8").isWellFormed)
        #expect(ContentType(";charset=utf-8") != ContentType("charset=utf-8"))
        #expect(ContentType("text/plain;") == .plainText)
        #expect(ContentType(" Text/Plain ; charset=utf-8").essence == "text/plain")
    }

    @Test("Type conformance: a wildcard is never an alias, so everything still conforms to */* and image/*")
    func wildcardsAreNotAliases() {
        // Found by fuzzing: an aliases line "*/* a/1" made a/0 stop conforming to */*.
        var table = TypeConformance()
        table.declareAlias("*/*", of: "a/1")
        table.declareAlias("image/*", of: "text/plain")
        table.declareAlias("x/y", of: "*/*")
        #expect(table.conforms("a/0", to: .anything))
        #expect(table.conforms(.png, to: "image/*"))
        #expect(!table.conforms(.plainText, to: "image/*"))
        #expect(table.canonical("x/y") == "x/y")
        table.declareAlias("image/x-photo", of: .jpeg)
        #expect(table.canonical("image/x-photo") == "image/jpeg")
    }

    @Test("Type conformance: a closure lists each type once, wildcards included")
    func closureListsEachTypeOnce() {
        // Found by fuzzing: "*/x*" is not a wildcard, and its media type's wildcard is */*.
        #expect(TypeConformance().closure(of: "*/x*") == ["*/x*", "*/*"])
        var table = TypeConformance()
        table.declare("image/x-sketch", conformsTo: ["image/*", "*/*", "image/png"])
        #expect(table.closure(of: "image/x-sketch") == ["image/x-sketch", "image/*", "*/*", "image/png"])
    }

    @Test("A3: control characters in a contact's name become spaces in the To: field")
    func controlCharactersInName() throws {
        // Found by fuzzing: a NUL (which ends a C string in GTK), an escape, a C1 control.
        // (Line and paragraph separators end the vCard line, so they never reach a value.)
        let card = "BEGIN:VCARD\nFN:Ana\u{0}Lima\u{1B}Jr\u{9F}\nEMAIL:ana@example.com\nEND:VCARD\n"
        #expect(try RelevantParts.recipient(fromVCard: card) == "Ana Lima Jr <ana@example.com>")
        let onlyControls = "BEGIN:VCARD\nFN:\u{7}\u{0}\nEMAIL:ana@example.com\nEND:VCARD\n"
        #expect(try RelevantParts.recipient(fromVCard: onlyControls) == "ana@example.com")
    }

    @Test(
        "A3, A6: an email that would split or confuse the To: field is refused",
        arguments: [
            "eve@example.com, mallory@example.com", "eve@example.com mallory@example.com", "a@b@c", "@example.com",
            "eve@", "\"eve\"@example.com", "eve(comment)@example.com", "eve@example.com;x", "eve\u{0}@example.com",
            "eve\t@example.com", "eve\u{600},mallory@example.com", "eve@example.com\u{600},x@y.z",
            "eve\u{A0}@example.com",
        ])
    func emailsThatSplitTheField(email: String) {
        let card = "BEGIN:VCARD\nFN:Eve\nEMAIL:\(email)\nEND:VCARD\n"
        #expect(throws: TransferError.self) { try RelevantParts.recipient(fromVCard: card) }
        #expect(!RelevantParts.isPlainAddress(email))
    }

    @Test("A3: a name with a comma hidden in a grapheme (U+0600 joins it) is still quoted")
    func hiddenComma() throws {
        let card = "BEGIN:VCARD\nFN:Smith\u{600}\\, John\nEMAIL:john@example.com\nEND:VCARD\n"
        #expect(try RelevantParts.recipient(fromVCard: card) == "\"Smith\u{600}, John\" <john@example.com>")
    }

    @Test("A3: a quote joined to a combining mark (U+06D6) still becomes an apostrophe; a backslash in a quoted name is escaped")
    func quoteWithCombiningMark() throws {
        // Found by the 10-minute fuzz run (fuzz-vcard): a search for the character '"' missed
        // '"' + U+06D6, one grapheme, so the To: field got an unterminated quoted name.
        let card = "BEGIN:VCARD\nFN:\"\u{6D6}Ana\nEMAIL:ana@example.com\nEND:VCARD\n"
        #expect(try RelevantParts.recipient(fromVCard: card) == "'\u{6D6}Ana <ana@example.com>")
        let slash = "BEGIN:VCARD\nFN:Lima\\, Ana \\\\ \"\u{6D6}x\nEMAIL:ana@example.com\nEND:VCARD\n"
        #expect(try RelevantParts.recipient(fromVCard: slash) == "\"Lima, Ana \\\\ '\u{6D6}x\" <ana@example.com>")
    }

    @Test("A3: plain addresses still pass: dots, plus, hyphens, subdomains, non-ASCII")
    func plainAddresses() throws {
        for email in ["ana@example.com", "ana.lima+news@mail.example.co.uk", "o-brien@x-y.example", "zoë@exämple.de"] {
            #expect(RelevantParts.isPlainAddress(email), "\(email)")
            #expect(try RelevantParts.recipient(fromVCard: "BEGIN:VCARD\nEMAIL:\(email)\nEND:VCARD") == email)
        }
    }

    @Test("A6: a refused email is shown shortened in the message, which ends with one full stop")
    func longBadEmail() {
        let email = String(repeating: "x", count: 5000) + " @example.com"
        let card = "BEGIN:VCARD\nEMAIL:\(email)\nEND:VCARD\n"
        do {
            _ = try RelevantParts.recipient(fromVCard: card)
            Issue.record("a bad email was accepted")
        } catch {
            #expect(error.description.count < 300)
            #expect(error.description.hasSuffix("' is not valid."))
        }
    }
}
