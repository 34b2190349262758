import DragDrop
import DragDropGTK
import Foundation
import ShowcaseModel

/// Situations 10 and 11: one item offered in several representations, destinations that take
/// different ones.
@MainActor
enum AppsPanes {
    /// The chart's native form: limited to this app (P5), where the Dashboard reads it; other
    /// apps, and destinations that only take images, get the PNG.
    nonisolated static let chartType: ContentType = "application/x-dragdrop-chart"

    /// 10. Charts: the native chart, then a PNG image of it (P1, P2). The Dashboard knows charts
    /// and gets the chart's data; Slides only takes images and gets the PNG (A2).
    static func charts(host: GtkDragHost) -> OfferPane {
        let chart = Artwork.Chart.sales
        return OfferPane(
            situation: "charts", host: host, sourceName: chart.title, noun: Noun("chart"),
            preview: try? Artwork.chartPNG(chart),
            representations: {
                [
                    .data(chartType, chart.json, visibility: .ownApp),
                    Representation(.png) { .data(try Artwork.chartPNG(chart)) },
                ]
            },
            destinations: [
                .init(
                    name: "Dashboard", title: words("Dashboard"), accepts: [chartType, .png],
                    caption: words("Takes charts, or images")),
                .init(
                    name: "Slides", title: words("Slides"), accepts: [.png, .jpeg], caption: words("Takes images only")),
            ],
            describe: { type, data in
                if type == chartType, let chart = try? JSONDecoder().decode(Artwork.Chart.self, from: data) {
                    return "\(chart.title): \(chart.summary)"
                }
                return type == .png ? "an image" : ""
            },
            check: { type, data in
                // Another app may send anything under the chart's type: it must read as a chart.
                guard type == chartType, (try? JSONDecoder().decode(Artwork.Chart.self, from: data)) == nil else {
                    return nil
                }
                return words("it is not a chart this app can read")
            })
    }

    /// 11. Drawing: a line drawing offered as PDF, PNG and JPEG, in that order; Print takes PDF,
    /// Editor PNG, Web JPEG, and each shows what it received.
    static func drawing(host: GtkDragHost) -> OfferPane {
        OfferPane(
            situation: "drawing", host: host, sourceName: "House and Sun", noun: Noun("drawing"),
            preview: try? Artwork.drawingPNG(),
            representations: {
                [
                    Representation(.pdf) { .data(try Artwork.drawingPDF()) },
                    Representation(.png) { .data(try Artwork.drawingPNG()) },
                    Representation(.jpeg) { .data(try Artwork.drawingJPEG()) },
                ]
            },
            destinations: [
                .init(name: "Print", title: words("Print"), accepts: [.pdf], caption: words("Takes PDF")),
                .init(name: "Editor", title: words("Editor"), accepts: [.png], caption: words("Takes PNG")),
                .init(name: "Web", title: words("Web"), accepts: [.jpeg], caption: words("Takes JPEG")),
            ],
            describe: { type, data in
                switch type {
                case .pdf: data.starts(with: Data("%PDF".utf8)) ? "a PDF document" : "not a PDF"
                case .png: data.starts(with: [0x89, 0x50, 0x4E, 0x47]) ? "a PNG image" : "not a PNG"
                case .jpeg: data.starts(with: [0xFF, 0xD8, 0xFF]) ? "a JPEG image" : "not a JPEG"
                default: ""
                }
            })
    }
}
