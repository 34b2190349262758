@_spi(Benchmarks) @testable import DragDrop
import Testing

@Suite("Geometry and content types")
struct GeometryTests {
    @Test("Rect edges: min inclusive, max exclusive")
    func rectEdges() {
        let r = Rect(x: 0, y: 0, width: 10, height: 10)
        #expect(r.contains(Point(x: 0, y: 0)))
        #expect(!r.contains(Point(x: 10, y: 5)))
        #expect(r.contains(Point(x: 9.99, y: 9.99)))
    }

    @Test("Content types compare by essence and conform through the table")
    func conformance() {
        let table = TypeConformance()
        #expect(ContentType("TEXT/Plain; charset=utf-8") == .plainText)
        #expect(table.conforms(.html, to: .plainText))
        #expect(table.conforms(.png, to: "image/*"))
        #expect(table.conforms("image/jpg", to: .jpeg))
        #expect(!table.conforms(.plainText, to: .html))
        #expect(table.conforms(.pdf, to: .anything))
    }

    @Test("Offer masks match accept masks through conformance only")
    func masks() throws {
        var universe = TypeUniverse()
        let textDest = try universe.acceptMask(for: [.plainText])
        let imageDest = try universe.acceptMask(for: ["image/*"])
        #expect(universe.offerMask(for: [.html]).intersects(textDest))
        #expect(!universe.offerMask(for: [.html]).intersects(imageDest))
        #expect(universe.offerMask(for: [.jpeg]).intersects(imageDest))
    }
}
