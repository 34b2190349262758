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

    @Test("A2: another app's offer keeps its order, without X11 target names, repeats or wildcards")
    func receivedTypes() {
        let types = StandardMimeTypes.received([
            "text/html", "UTF8_STRING", "text/plain;charset=utf-8", "TARGETS", "text/plain;charset=utf-8", "*/*",
            "text/plain",
        ])
        #expect(types.map(\.mimeType) == ["text/html", "text/plain;charset=utf-8"])
        #expect(StandardMimeTypes.describe(types) == "Text")
        #expect(StandardMimeTypes.describe([.uriList]) == "Files")
        #expect(StandardMimeTypes.describe([.png]) == "Image")
    }
}
