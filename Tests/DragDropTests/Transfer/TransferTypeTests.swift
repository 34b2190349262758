import DragDrop
import Foundation
import Testing

/// Which types are kinds of which: the built-in table, the desktop's shared-mime-info database,
/// and an app's own declarations. Choosing (A2) and privacy (P5) depend on it.
@Suite("Transfer: content types and conformance")
struct TransferTypeTests {
    static let databasePath = "/usr/share/mime"
    static let hasSystemDatabase =
        FileManager.default.fileExists(atPath: databasePath + "/subclasses")
        && FileManager.default.fileExists(atPath: databasePath + "/aliases")

    /// The pairs of one database file, read independently of the code under test.
    static func lines(_ name: String) throws -> [(String, String)] {
        let text = try String(contentsOfFile: databasePath + "/" + name, encoding: .utf8)
        return text.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: " ")
            return parts.count == 2 && !line.hasPrefix("#") ? (String(parts[0]), String(parts[1])) : nil
        }
    }

    @Test("A2: types compare by essence: case and parameters do not matter")
    func identity() {
        #expect(ContentType("Text/Plain; charset=UTF-8") == .plainText)
        #expect(ContentType("text/plain;charset=utf-8").mimeType == "text/plain;charset=utf-8")
        #expect(ContentType("image/*").isWildcard)
        #expect(ContentType("image/png").mediaType == "image")
        #expect(ContentType("application/x-dragdrop-chart").isWellFormed)
        #expect(!ContentType("not a type").isWellFormed)
        #expect(!ContentType("text/").isWellFormed)
    }

    @Test("A2: the built-in table: html is text, aliases resolve, wildcards match")
    func builtIn() {
        let table = TypeConformance()
        #expect(table.conforms(.html, to: .plainText))
        #expect(table.conforms("text/x-vcard", to: "text/vcard"))
        #expect(table.conforms("image/jpg", to: .jpeg))
        #expect(table.conforms(.png, to: "image/*"))
        #expect(table.conforms(.pdf, to: .anything))
        #expect(!table.conforms(.pdf, to: "image/*"))
        #expect(!table.conforms(.plainText, to: .html))
        #expect(
            table.closure(of: "image/svg+xml") == ["image/svg+xml", "application/xml", "text/plain", "image/*", "*/*"])
    }

    @Test("A2: an alias conforms to the wildcard of the type it names, not of its own spelling")
    func aliasWildcard() {
        var table = TypeConformance()
        table.declareAlias("image/pdf", of: .pdf)
        #expect(table.conforms("image/pdf", to: .pdf))
        #expect(table.conforms("image/pdf", to: "application/*"))
        #expect(!table.conforms("image/pdf", to: "image/*"))
    }

    @Test("P2: an app-declared type conforms to what the app says, and to nothing else")
    func appDeclaredType() {
        var table = TypeConformance()
        #expect(!table.conforms(Fixture.chart, to: "application/json"))
        table.declare(Fixture.chart, conformsTo: ["application/json"])
        #expect(table.conforms(Fixture.chart, to: "application/json"))
        #expect(table.conforms(Fixture.chart, to: .plainText))  // application/json is text
        #expect(table.conforms(Fixture.chart, to: "application/*"))
        #expect(!table.conforms(Fixture.chart, to: "image/*"))
        #expect(
            table.closure(of: Fixture.chart)
                == ["application/x-dragdrop-chart", "application/json", "text/plain", "application/*", "*/*"])
        table.declareAlias("application/vnd.dragdrop.chart", of: Fixture.chart)
        #expect(table.conforms("application/vnd.dragdrop.chart", to: Fixture.chart))
    }

    @Test("A2: the system shared-mime-info database adds its subclasses and aliases", .enabled(if: hasSystemDatabase))
    func systemDatabase() throws {
        var table = TypeConformance()
        let read = SharedMimeInfo.load(directory: Self.databasePath, into: &table)
        let subclasses = try Self.lines("subclasses")
        let aliases = try Self.lines("aliases")
        #expect(read == subclasses.count + aliases.count)
        // Real lines of the installed database.
        #expect(subclasses.contains { $0 == ("text/html", "text/plain") })
        #expect(table.conforms(.html, to: .plainText))
        if subclasses.contains(where: { $0 == ("text/x-c++src", "text/x-csrc") }) {
            #expect(table.conforms("text/x-c++src", to: .plainText))  // through text/x-csrc
        }
        if aliases.contains(where: { $0 == ("application/x-pdf", "application/pdf") }) {
            #expect(table.conforms("application/x-pdf", to: .pdf))
            #expect(table.canonical("application/x-pdf") == "application/pdf")
        }
        if aliases.contains(where: { $0 == ("image/pjpeg", "image/jpeg") }) {
            #expect(table.conforms("image/pjpeg", to: .jpeg))
        }
        // Every relation in the files holds.
        for (child, parent) in subclasses {
            #expect(table.conforms(ContentType(child), to: ContentType(parent)), "\(child) should be a \(parent)")
        }
        for (alias, canonical) in aliases {
            #expect(table.conforms(ContentType(alias), to: ContentType(canonical)), "\(alias) should name \(canonical)")
        }
    }

    @Test(
        "A2: the chooser uses the database: a C++ source file goes to a plain-text destination",
        .enabled(if: hasSystemDatabase))
    func systemDatabaseInChooser() async throws {
        var table = TypeConformance()
        SharedMimeInfo.load(directory: Self.databasePath, into: &table)
        let code = ItemProvider(app: "Editor", representations: [.text("text/x-c++src", "int main() {}\n")])
        let access = droppedData([code], chooser: RepresentationChooser(conformance: table))
        #expect(
            try await access.load(item: 0, accepting: [.plainText])
                == .data("text/x-c++src", Data("int main() {}\n".utf8)))
        let builtInOnly = droppedData([code])
        #expect(builtInOnly.choice(item: 0, accepting: [.plainText]) == nil)
    }

    @Test("A2: a custom database directory: its subclasses and aliases are read, bad lines skipped")
    func customDatabase() throws {
        let dir = try makeTemporaryDirectory()
        defer { removeTree(dir) }
        try """
        # Charts app types
        application/x-dragdrop-chart application/json
        application/x-dragdrop-chart-template application/x-dragdrop-chart
        this line is malformed
        notatype application/json

        """.write(toFile: dir + "/subclasses", atomically: true, encoding: .utf8)
        try """
        application/x-chart application/x-dragdrop-chart
        application/vnd.example.chart application/x-dragdrop-chart extra

        """.write(toFile: dir + "/aliases", atomically: true, encoding: .utf8)
        var table = TypeConformance()
        #expect(SharedMimeInfo.load(directory: dir, into: &table) == 3)
        #expect(table.conforms("application/x-dragdrop-chart-template", to: "application/json"))
        #expect(table.conforms("application/x-chart", to: Fixture.chart))
        #expect(table.conforms("application/x-chart", to: .plainText))
        #expect(!table.conforms("application/vnd.example.chart", to: Fixture.chart))
        #expect(!table.conforms("notatype", to: "application/json"))
    }

    @Test("A2: with no database the built-in table still works")
    func missingDatabase() throws {
        let dir = try makeTemporaryDirectory()
        defer { removeTree(dir) }
        var table = TypeConformance()
        #expect(SharedMimeInfo.load(directory: dir + "/does-not-exist", into: &table) == 0)
        #expect(table.conforms(.html, to: .plainText))
        #expect(table.conforms("image/pjpeg", to: .jpeg))
        let system = SharedMimeInfo.systemConformance(environment: [
            "XDG_DATA_DIRS": dir + "/nothing", "XDG_DATA_HOME": dir + "/none",
        ])
        #expect(system.conforms(.html, to: .plainText))
        #expect(system.conforms("text/x-vcard", to: "text/vcard"))
        #expect(!system.conforms("text/x-c++src", to: .plainText))
    }

    @Test("A2: the database is looked for under XDG_DATA_HOME and each of XDG_DATA_DIRS")
    func searchDirectories() throws {
        #expect(
            SharedMimeInfo.searchDirectories(environment: ["XDG_DATA_HOME": "/h", "XDG_DATA_DIRS": "/a:/b"])
                == ["/h/mime", "/a/mime", "/b/mime"])
        #expect(
            SharedMimeInfo.searchDirectories(environment: ["HOME": "/home/ana"])
                == ["/home/ana/.local/share/mime", "/usr/local/share/mime", "/usr/share/mime"])
        let dir = try makeTemporaryDirectory()
        defer { removeTree(dir) }
        try FileManager.default.createDirectory(atPath: dir + "/share/mime", withIntermediateDirectories: true)
        try "application/x-chart application/x-dragdrop-chart\n".write(
            toFile: dir + "/share/mime/aliases", atomically: true, encoding: .utf8)
        let table = SharedMimeInfo.systemConformance(environment: [
            "XDG_DATA_DIRS": dir + "/share", "XDG_DATA_HOME": dir + "/none",
        ])
        #expect(table.conforms("application/x-chart", to: Fixture.chart))
    }
}
