import DragDrop
import Foundation
import Testing

/// P1, P2, A2: the destination receives the richest representation it can use, in the order
/// the item offers them; A7: styled text keeps its markup only where the destination takes it.
@Suite("Transfer: choosing representations")
struct TransferChoosingTests {
    /// Example 11: a line drawing offered as PDF, PNG and JPEG, in that order.
    static func drawing(produced: Shared<[String]> = Shared([])) -> ItemProvider {
        func rep(_ type: ContentType, _ data: Data) -> Representation {
            Representation(type, size: Int64(data.count)) {
                produced.update { $0.append(type.essence) }
                return .data(data)
            }
        }
        return ItemProvider(
            app: "Draw",
            representations: [
                rep(.pdf, Fixture.pdf), rep(.png, Fixture.png), rep(.jpeg, Fixture.jpeg),
            ])
    }

    /// Example 10: a chart offering its native form, then an image.
    static let chart = ItemProvider(
        app: "Charts",
        representations: [
            .data(Fixture.chart, Fixture.chartJSON), .data(.png, Fixture.png),
        ])

    @Test("P1/A2: a destination taking PNG and JPEG gets the PNG of a PDF/PNG/JPEG drawing")
    func drawingToPNGAndJPEG() async throws {
        let produced = Shared<[String]>([])
        let access = droppedData([Self.drawing(produced: produced)])
        #expect(access.offeredTypes(item: 0) == [.pdf, .png, .jpeg])
        let loaded = try await access.load(item: 0, accepting: [.png, .jpeg])
        #expect(loaded == .data(.png, Fixture.png))
        // Only the chosen representation was produced.
        #expect(produced.value == ["image/png"])
    }

    @Test("P1/A2: a destination taking only JPEG gets the JPEG")
    func drawingToJPEG() async throws {
        let access = droppedData([Self.drawing()])
        #expect(try await access.load(item: 0, accepting: [.jpeg]) == .data(.jpeg, Fixture.jpeg))
    }

    @Test("P1/A2: the item's order decides, not the destination's: [jpeg, png] still gets the PNG")
    func itemOrderWins() async throws {
        let access = droppedData([Self.drawing()])
        #expect(try await access.load(item: 0, accepting: [.jpeg, .png]) == .data(.png, Fixture.png))
    }

    @Test("P1/A2: an image/* destination gets the PNG: PDF is application/pdf, not an image type")
    func drawingToAnyImage() async throws {
        let access = droppedData([Self.drawing()])
        #expect(summary(access.choice(item: 0, accepting: ["image/*"])) == "1 image/png")
        #expect(try await access.load(item: 0, accepting: ["image/*"]) == .data(.png, Fixture.png))
        // A destination taking anything at all gets the richest form, the PDF.
        #expect(try await access.load(item: 0, accepting: [.anything]) == .data(.pdf, Fixture.pdf))
    }

    @Test(
        "P1/A2: an exact match wins over a richer type matched only through a wildcard (the chooser's documented rule)")
    func exactBeatsWildcard() async throws {
        let access = droppedData([Self.drawing()])
        #expect(summary(access.choice(item: 0, accepting: [.anything, .jpeg])) == "2 image/jpeg")
        #expect(try await access.load(item: 0, accepting: ["image/*", .jpeg]) == .data(.jpeg, Fixture.jpeg))
    }

    @Test("P1/A2: a destination taking none of the offered types gets a typed refusal")
    func nothingAcceptable() async throws {
        let access = droppedData([Self.drawing()])
        let error = await loadError(access, accepting: ["text/plain"])
        #expect(
            error
                == .noAcceptableRepresentation(
                    offered: ["application/pdf", "image/png", "image/jpeg"], accepted: ["text/plain"]))
    }

    @Test("P2/A2: a chart-aware destination gets the native chart; an image-only one gets the PNG")
    func chartNativeFirst() async throws {
        let access = droppedData([Self.chart])
        #expect(access.offeredTypes(item: 0).first == Fixture.chart)
        #expect(
            try await access.load(item: 0, accepting: [Fixture.chart, .png]) == .data(Fixture.chart, Fixture.chartJSON))
        #expect(try await access.load(item: 0, accepting: [.png]) == .data(.png, Fixture.png))
        #expect(try await access.load(item: 0, accepting: ["image/*"]) == .data(.png, Fixture.png))
    }

    @Test("P2/A2: a registered chart-to-PNG conversion serves image destinations when only the native chart is offered")
    func chartConversion() async throws {
        let nativeOnly = ItemProvider(app: "Charts", representations: [.data(Fixture.chart, Fixture.chartJSON)])
        let chooser = RepresentationChooser(conversions: [.htmlToPlainText, Fixture.chartToPNG])
        let access = droppedData([nativeOnly], chooser: chooser)
        #expect(summary(access.choice(item: 0, accepting: [.png])) == "0 application/x-dragdrop-chart -> image/png")
        #expect(try await access.load(item: 0, accepting: [.png]) == .data(.png, Fixture.renderedChartPNG))
        // The chart-aware destination still gets the chart itself, unconverted.
        #expect(try await access.load(item: 0, accepting: [Fixture.chart]) == .data(Fixture.chart, Fixture.chartJSON))
        // Without the conversion there is nothing an image destination can use.
        let plain = droppedData([nativeOnly])
        #expect(plain.choice(item: 0, accepting: [.png]) == nil)
    }

    @Test("P2/A2: an offered PNG is preferred over converting the native chart")
    func offeredBeatsConversion() async throws {
        let chooser = RepresentationChooser(conversions: [Fixture.chartToPNG])
        let access = droppedData([Self.chart], chooser: chooser)
        #expect(try await access.load(item: 0, accepting: [.png]) == .data(.png, Fixture.png))
    }

    @Test("P2/A2: a conversion that produces invalid output is refused, not delivered")
    func conversionOutputValidated() async throws {
        let broken = Conversion(from: Fixture.chart, to: .png) { _ in Data("not a png".utf8) }
        let access = droppedData(
            [ItemProvider(app: "Charts", representations: [.data(Fixture.chart, Fixture.chartJSON)])],
            chooser: RepresentationChooser(conversions: [broken]))
        let reason = malformedReason(await loadError(access, accepting: [.png]), type: .png)
        #expect(reason.contains("PNG signature"))
    }

    @Test("P2/A2: a conversion applies to a file target too: the file holds the converted type")
    func conversionToFile() async throws {
        let dir = try makeTemporaryDirectory()
        defer { removeTree(dir) }
        let nativeOnly = ItemProvider(app: "Charts", representations: [.data(Fixture.chart, Fixture.chartJSON)])
        let access = droppedData([nativeOnly], chooser: RepresentationChooser(conversions: [Fixture.chartToPNG]))
        let path = dir + "/chart.png"
        let loaded = try await access.load(item: 0, accepting: [.png], options: LoadOptions(target: .file(path: path)))
        #expect(loaded == .file(.png, path: path))
        #expect(FileManager.default.contents(atPath: path) == Fixture.renderedChartPNG)
        #expect(directoryContents(dir) == ["chart.png"])
    }

    // MARK: A7, styled text

    static let html = "<p>Fish &amp; <b>chips</b></p><p>2 &lt; 3 &quot;quoted&quot;</p>"
    static let htmlAsPlain = "Fish & chips\n2 < 3 \"quoted\""

    @Test("A7: an HTML destination gets the HTML with its tags")
    func htmlToHTML() async throws {
        let item = ItemProvider(
            app: "Notes", representations: [.text(.html, Self.html), .text(.plainText, Self.htmlAsPlain)])
        let access = droppedData([item])
        let loaded = try await access.load(item: 0, accepting: [.html, .plainText])
        #expect(loaded == .data(.html, Data(Self.html.utf8)))
    }

    @Test("A7: an HTML-then-plain item gives a plain-text destination the plain text, never tags")
    func htmlAndPlainToPlain() async throws {
        let item = ItemProvider(
            app: "Notes", representations: [.text(.html, Self.html), .text(.plainText, Self.htmlAsPlain)])
        let access = droppedData([item])
        // The item's own plain text is an exact match: no conversion is needed.
        #expect(summary(access.choice(item: 0, accepting: [.plainText])) == "1 text/plain")
        let loaded = try await access.load(item: 0, accepting: [.plainText])
        guard case .data(let type, let data) = loaded else { Issue.record("not in memory"); return }
        #expect(type == .plainText)
        let text = try #require(String(data: data, encoding: .utf8))
        #expect(text == Self.htmlAsPlain)
        #expect(!text.contains("<p>") && !text.contains("<b>") && !text.contains("&amp;"))
    }

    @Test("A7: an HTML-only item dropped on a plain-text destination is converted: no tags, entities decoded")
    func htmlOnlyToPlain() async throws {
        let item = ItemProvider(app: "Web", representations: [.text(.html, Self.html)])
        let access = droppedData([item])
        #expect(summary(access.choice(item: 0, accepting: [.plainText])) == "0 text/html -> text/plain;charset=utf-8")
        let loaded = try await access.load(item: 0, accepting: [.plainText])
        #expect(loaded == .data(.utf8PlainText, Data(Self.htmlAsPlain.utf8)))
    }

    @Test("A7: the conversion applies with the system type database too, where text/html is a text/plain")
    func htmlOnlyToPlainWithSystemTypes() async throws {
        let chooser = RepresentationChooser(conformance: SharedMimeInfo.systemConformance())
        let access = droppedData(
            [ItemProvider(app: "Web", representations: [.text(.html, Self.html)])], chooser: chooser)
        #expect(
            try await access.load(item: 0, accepting: [.plainText])
                == .data(.utf8PlainText, Data(Self.htmlAsPlain.utf8)))
    }

    @Test("A7: HTML to plain text: line breaks from blocks, numeric character references decoded")
    func htmlToPlainDetails() {
        #expect(
            StyledText.plainText(fromHTML: "one<br>two<br/><div>three</div><div>four</div>") == "one\ntwo\nthree\nfour")
        #expect(StyledText.plainText(fromHTML: "<ul><li>a</li><li>b</li></ul>") == "a\nb")
        #expect(StyledText.plainText(fromHTML: "caf&#233; &#x2014; it&#8217;s") == "caf\u{E9} \u{2014} it\u{2019}s")
        // Encoded entities stay encoded once: "&amp;lt;" is the text "&lt;".
        #expect(StyledText.plainText(fromHTML: "&amp;lt;b&amp;gt;") == "&lt;b&gt;")
        // A bare ampersand, an unknown name and an empty reference are text.
        #expect(StyledText.plainText(fromHTML: "fish & chips &unknown; &#; &apos;s") == "fish & chips &unknown; &#; 's")
        // A reference to an invalid scalar is left as written.
        #expect(StyledText.plainText(fromHTML: "x&#xD800;y") == "x&#xD800;y")
    }

    @Test("A7: HTML that is not valid UTF-8 is refused before conversion")
    func htmlInvalidUTF8() async throws {
        var bytes = Data("<p>ok".utf8)
        bytes.append(0xFF)
        let item = ItemProvider(app: "Web", representations: [.data(.html, bytes)])
        let reason = malformedReason(await loadError(droppedData([item]), accepting: [.plainText]), type: .html)
        #expect(reason == "invalid UTF-8 near byte 5")
    }
}
