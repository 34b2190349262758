import DragDrop
import Foundation
import Testing

@testable import DragDropGTK

/// What a drag offers other apps, and how another app's offer is read (no display needed).
@Suite("GTK: MIME types between apps")
struct ExportPlanTests {
    let conformance = TypeConformance()

    @Test("P1, P2, P5: one item offers its representations richest first, under standard names, never its own-app ones")
    func oneItem() {
        let provider = ItemProvider(
            app: "Charts",
            representations: [
                .data("application/x-chart", Data("{}".utf8), visibility: .ownApp),
                .data("application/x-chart-archive", Data("{}".utf8)),
                .data("image/jpg", Data([0xFF, 0xD8])),
                .text(.utf8PlainText, "Sales"),
            ])
        let plan = ExportPlan(providers: [provider], conformance: conformance)
        #expect(
            plan.entries.map(\.mimeType) == [
                "application/x-chart-archive", "image/jpeg", "text/plain;charset=utf-8", "text/plain",
            ])
        // P5: nothing else, no private marker of this app.
        #expect(plan.mimeTypes == plan.entries.map(\.mimeType))
        // Bare text/plain is the same UTF-8 bytes.
        #expect(plan.entries[3].parts.map(\.type) == [.utf8PlainText])
    }

    @Test("P1: several items offer the text types they all have, joined by line breaks")
    func severalItems() {
        let a = ItemProvider(app: "Notes", representations: [.text(.html, "<b>a</b>"), .text(.utf8PlainText, "a")])
        let b = ItemProvider(app: "Notes", representations: [.text(.utf8PlainText, "b"), .data(.png, Data([0x89]))])
        let plan = ExportPlan(providers: [a, b], conformance: conformance)
        #expect(plan.entries.map(\.mimeType) == ["text/plain;charset=utf-8", "text/plain"])
        #expect(plan.entries[0].parts.count == 2)
        #expect(plan.entries[0].separator == Data("\n".utf8))
    }

    @Test("P5: an item whose every representation is private offers other apps no type at all")
    func privateOnly() {
        let provider = ItemProvider(
            app: "Notes", representations: [.data("application/x-note", Data(), visibility: .ownApp)])
        let plan = ExportPlan(providers: [provider], conformance: conformance)
        #expect(plan.entries.isEmpty)
        #expect(plan.mimeTypes.isEmpty)
    }

    @Test("A2: another app's offer keeps its order, plain text last, without X11 target names, repeats or wildcards")
    func receivedTypes() {
        let types = StandardMimeTypes.received([
            "text/html", "UTF8_STRING", "text/plain;charset=utf-8", "TARGETS", "text/plain;charset=utf-8", "*/*",
            "text/plain",
        ])
        #expect(types.map(\.mimeType) == ["text/html", "text/plain;charset=utf-8"])
        // Qt's QTextEdit lists plain text first: it still comes after the HTML of the same text.
        let qt = StandardMimeTypes.received(["text/plain", "UTF8_STRING", "text/html", "application/vnd.oasis.opendocument.text"])
        #expect(qt.map(\.mimeType) == ["text/html", "application/vnd.oasis.opendocument.text", "text/plain"])
        #expect(StandardMimeTypes.describe(types) == "Text")
        #expect(StandardMimeTypes.describe([.uriList]) == "Files")
        #expect(StandardMimeTypes.describe([.png]) == "Image")
        #expect(StandardMimeTypes.describe(["application/x-hotspot", .plainText]) == "Text")
        #expect(StandardMimeTypes.describe(["application/x-dnditemdata"]) == "Content")
        // Browsers: Firefox's image offers its address, HTML and the picture; a link only the address.
        let firefoxImage: [ContentType] = ["text/x-moz-url", .html, .plainText, "application/x-moz-file-promise-url", .png]
        #expect(StandardMimeTypes.describe(firefoxImage) == "Image")
        #expect(StandardMimeTypes.describe(["text/x-moz-url", .html, .plainText]) == "Link")
        #expect(StandardMimeTypes.describe(["text/x-moz-url", .octetStream]) == "Image")
    }

    @Test("A6: a text drop whose source went silent says why in one sentence (issue 11 showed '15 s..')")
    @MainActor func textDropFailure() {
        let failure = DroppedText.failure(
            .transfer(.sourceUnavailable("the other app sent nothing for 15 s..")), name: "Notes")
        #expect(failure.code == .failed)
        #expect(failure.message == "The text was not added: the other app sent nothing for 15 s.")
        #expect(DroppedText.failure(.transfer(.cancelled), name: "Notes").code == .cancelled)
    }

    @Test("S1: another app's drop on X11 is asked for under the X target the source offers")
    func x11Targets() {
        // What Qt 5's draggabletext offers (XdndTypeList).
        let qt = X11DropSelection(requestor: 1, time: 2, offered: ["text/plain", "UTF8_STRING", "STRING", "TEXT"])
        #expect(qt.request(for: "text/plain")?.target == "text/plain")
        #expect(qt.request(for: "text/plain;charset=utf-8")?.target == "UTF8_STRING")
        #expect(qt.request(for: "image/png") == nil)
        let latin1 = X11DropSelection(requestor: 1, time: 2, offered: ["STRING"])
        #expect(latin1.request(for: "text/plain;charset=utf-8").map { [$0.target, "\($0.latin1)"] } == ["STRING", "true"])
        #expect(latin1.request(for: "text/plain;charset=iso-8859-2") == nil)
        let named = X11DropSelection(requestor: 1, time: 2, offered: ["text/plain;charset=UTF-8", "image/png"])
        #expect(named.request(for: "text/plain;charset=utf-8")?.target == "text/plain;charset=UTF-8")
        #expect(X11DropSelection.utf8(fromLatin1: Data([0x63, 0x61, 0x66, 0xE9])) == Data("café".utf8))
    }

    @Test("S1, P1: with the file transfer portal, a drag of files offers the portal's types first, sending the same URI list's files; other drags offer no portal type")
    func portalTypes() {
        let file = ItemProvider(
            app: "Files", representations: [.data(.uriList, Data("file:///tmp/a.txt\r\n".utf8)), .text(.utf8PlainText, "a.txt")])
        let plan = ExportPlan(providers: [file], conformance: conformance).offeringPortal()
        #expect(Array(plan.mimeTypes.prefix(3)) == FileTransferPortal.mimeTypes + ["text/uri-list"])
        #expect(plan.entries.prefix(2).allSatisfy { $0.viaPortal && $0.parts.count == 1 })
        #expect(!plan.entries.dropFirst(2).contains { $0.viaPortal })
        let text = ItemProvider(app: "Notes", representations: [.text(.utf8PlainText, "milk")])
        #expect(ExportPlan(providers: [text], conformance: conformance).offeringPortal().mimeTypes == ["text/plain;charset=utf-8", "text/plain"])
    }

    @Test("A6: a portal transfer key from another app is printable ASCII ended by a NUL, at most 256 bytes; anything else is refused with the reason")
    func portalKeys() throws {
        #expect(try FileTransferPortal.key(from: Data("13362994066491951691\u{0}".utf8)) == "13362994066491951691")
        #expect(try FileTransferPortal.key(from: Data("42".utf8)) == "42")
        #expect(try FileTransferPortal.key(from: Data("42\u{0}junk".utf8)) == "42")
        #expect(throws: TransferError.malformed(type: "application/vnd.portal.filetransfer", reason: "the other app sent no transfer key")) {
            try FileTransferPortal.key(from: Data([0]))
        }
        #expect(throws: TransferError.self) { try FileTransferPortal.key(from: Data("4 2".utf8)) }
        #expect(throws: TransferError.self) { try FileTransferPortal.key(from: Data([0x34, 0xFF])) }
        #expect(throws: TransferError.tooLarge(type: "application/vnd.portal.filetransfer", limit: 256, size: 257)) {
            try FileTransferPortal.key(from: Data(repeating: 0x31, count: 257))
        }
        #expect(
            try FileTransferPortal.paths(inURIList: Data("# comment\r\nfile:///tmp/a%20b.txt\r\nhttps://example.com/c\r\nfile:///d\n".utf8))
                == ["/tmp/a b.txt", "/d"])
        #expect(throws: TransferError.self) { try FileTransferPortal.paths(inURIList: Data("file:///tmp/../etc/passwd\r\n".utf8)) }
        #expect(FileTransferPortal.uriList(["/tmp/a b.txt"]) == Data("file:///tmp/a%20b.txt\r\n".utf8))
    }
}
