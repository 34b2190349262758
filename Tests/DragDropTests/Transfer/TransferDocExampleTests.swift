import DragDrop
import Foundation
import Testing

/// The example of docs/transfer.md, run: a chart offered as its native form, a PDF and a PNG.
@Suite("Transfer: the documented chart example")
struct TransferDocExampleTests {
    static let chartType: ContentType = "application/x-dragdrop-chart"

    /// A stand-in for the Charts app's model.
    struct Chart: Codable, Equatable {
        var title: String
        var values: [Double]
        init(title: String, values: [Double]) {
            self.title = title
            self.values = values
        }
        init(decoding data: Data) throws { self = try JSONDecoder().decode(Chart.self, from: data) }
        func encoded() throws -> Data { try JSONEncoder().encode(self) }
        func renderPDF() throws -> Data { Data("%PDF-1.7\n(\(title))\n%%EOF\n".utf8) }
        func renderPNG(scale: Int) throws -> Data { Fixture.png + Data("\(title)@\(scale)x".utf8) }
    }

    static func itemProvider(for chart: Chart, rendered: Shared<[String]>) -> ItemProvider {
        ItemProvider(
            app: "Charts",
            representations: [
                Representation(chartType) { .data(try chart.encoded()) },
                Representation(.pdf) {
                    rendered.update { $0.append("pdf") }
                    return .data(try chart.renderPDF())
                },
                Representation(.png) {
                    rendered.update { $0.append("png") }
                    return .data(try chart.renderPNG(scale: 2))
                },
            ])
    }

    enum Inserted: Equatable { case chart(Chart), image(Data), nothing, failed(DropFailure) }

    /// The documented destination, recording what it inserted.
    static func performDrop(_ data: DropDataAccess, accepting: [ContentType]) async -> Inserted {
        let progress = Progress(totalUnitCount: -1)
        do {
            switch try await data.load(item: 0, accepting: accepting, progress: progress) {
            case .data(chartType, let document): return .chart(try Chart(decoding: document))
            case .data(_, let png): return .image(png)
            case .file: return .nothing
            }
        } catch let error as TransferError {
            return .failed(error.dropFailure)
        } catch {
            return .failed(DropFailure(.failed, "The chart could not be read."))
        }
    }

    static let sales = Chart(title: "Sales", values: [3, 1, 4, 1, 5])

    @Test("P1/P2/A2: a chart-aware destination gets the chart; renderers are not run")
    func chartAware() async {
        let rendered = Shared<[String]>([])
        let data = droppedData([Self.itemProvider(for: Self.sales, rendered: rendered)], requester: "Dashboard")
        #expect(await Self.performDrop(data, accepting: [Self.chartType, .png]) == .chart(Self.sales))
        #expect(rendered.value == [])
    }

    @Test("P1/A2: an image destination gets the PNG, a PDF destination the PDF")
    func imageAndPDF() async throws {
        let rendered = Shared<[String]>([])
        let data = droppedData([Self.itemProvider(for: Self.sales, rendered: rendered)], requester: "Mail")
        #expect(await Self.performDrop(data, accepting: ["image/*"]) == .image(try Self.sales.renderPNG(scale: 2)))
        #expect(try await data.load(item: 0, accepting: [.pdf]) == .data(.pdf, try Self.sales.renderPDF()))
        #expect(rendered.value == ["png", "pdf"])
    }

    @Test("P2/A2: with the chart conversion registered, an image destination is served from a native-only chart")
    func conversion() async throws {
        let chooser = RepresentationChooser(
            conformance: SharedMimeInfo.systemConformance(),
            conversions: [
                .htmlToPlainText,
                Conversion(from: Self.chartType, to: .png) { try Chart(decoding: $0).renderPNG(scale: 2) },
            ])
        let nativeOnly = ItemProvider(
            app: "Charts",
            representations: [
                Representation(Self.chartType) { .data(try Self.sales.encoded()) }
            ])
        let data = droppedData([nativeOnly], requester: "Mail", chooser: chooser)
        #expect(await Self.performDrop(data, accepting: [.png]) == .image(try Self.sales.renderPNG(scale: 2)))
        // A destination taking neither says why.
        guard case .failed(let failure) = await Self.performDrop(data, accepting: [.plainText]) else {
            Issue.record("expected a failure")
            return
        }
        #expect(failure.code == .failed)
        #expect(failure.message.hasPrefix("None of the offered types (application/x-dragdrop-chart) can be used here"))
    }
}
