import CGtk4
import Foundation

/// The pictures the Charts and Drawing panes offer, rendered with cairo (GTK's renderer) when a
/// destination asks for them, never before (P1). Safe off the main thread: only image and PDF
/// surfaces of their own.
enum Artwork {
    /// A bar chart: the native form the Charts pane drags (`application/x-dragdrop-chart`).
    struct Chart: Codable, Sendable, Equatable {
        var title: String
        var labels: [String]
        var values: [Double]

        static let sales = Chart(title: "Sales 2026", labels: ["Q1", "Q2", "Q3", "Q4"], values: [12, 19, 15, 24])

        var json: Data { (try? JSONEncoder().encode(self)) ?? Data() }

        /// "Q1 12, Q2 19, …"
        var summary: String {
            zip(labels, values).map { "\($0) \(Int($1))" }.joined(separator: ", ")
        }
    }

    static let chartSize = (width: Int32(240), height: Int32(160))
    static let drawingSize = (width: Int32(200), height: Int32(140))
    /// When the line drawing was made (it never changes): its PDF's dates.
    static let drawingDate = "2026-11-20T00:00:00Z"

    // MARK: Rendering

    /// The chart as a PNG image.
    static func chartPNG(_ chart: Chart) throws -> Data {
        try png(width: chartSize.width, height: chartSize.height) { cr in drawChart(chart, cr) }
    }

    /// The line drawing as a one-page PDF (vector).
    static func drawingPDF() throws -> Data {
        let sink = Sink()
        let context = Unmanaged.passUnretained(sink).toOpaque()
        guard
            let surface = cairo_pdf_surface_create_for_stream(
                Sink.write, context, Double(drawingSize.width), Double(drawingSize.height))
        else { throw ArtworkError("no PDF surface") }
        // Cairo dates a PDF now unless told otherwise: two exports of the same drawing a second
        // apart differed, and a browser that read the first file saw other bytes than the file
        // on disk. The drawing's own date makes every export of it the same file.
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATE_DATE, drawingDate)
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_MOD_DATE, drawingDate)
        let cr = cairo_create(surface)
        drawLines(cr)
        cairo_destroy(cr)
        cairo_surface_finish(surface)
        let status = cairo_surface_status(surface)
        cairo_surface_destroy(surface)
        guard status == CAIRO_STATUS_SUCCESS else { throw ArtworkError("PDF: cairo status \(status.rawValue)") }
        return sink.data
    }

    /// The line drawing as a PNG image.
    static func drawingPNG() throws -> Data {
        try png(width: drawingSize.width, height: drawingSize.height) { cr in drawLines(cr) }
    }

    /// The line drawing as a JPEG image: cairo has no JPEG writer, GdkPixbuf (part of GTK 4's
    /// stack) encodes it.
    static func drawingJPEG() throws -> Data {
        let (width, height) = drawingSize
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, width, height) else {
            throw ArtworkError("no image surface")
        }
        defer { cairo_surface_destroy(surface) }
        let cr = cairo_create(surface)
        drawLines(cr)
        cairo_destroy(cr)
        cairo_surface_flush(surface)
        guard let pixels = cairo_image_surface_get_data(surface) else { throw ArtworkError("no pixels") }
        let stride = Int(cairo_image_surface_get_stride(surface))
        // cairo's RGB24 is a native-endian 32-bit xRGB word per pixel; GdkPixbuf wants RGB bytes.
        var rgb = [UInt8](repeating: 0, count: Int(width) * Int(height) * 3)
        for y in 0..<Int(height) {
            let row = UnsafeRawPointer(pixels + y * stride)
            for x in 0..<Int(width) {
                let word = row.loadUnaligned(fromByteOffset: x * 4, as: UInt32.self)
                let o = (y * Int(width) + x) * 3
                rgb[o] = UInt8((word >> 16) & 0xff)
                rgb[o + 1] = UInt8((word >> 8) & 0xff)
                rgb[o + 2] = UInt8(word & 0xff)
            }
        }
        let bytes = rgb.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
        defer { g_bytes_unref(bytes) }
        guard
            let pixbuf = gdk_pixbuf_new_from_bytes(
                bytes, GDK_COLORSPACE_RGB, 0, 8, width, height, width * 3)
        else { throw ArtworkError("no pixbuf") }
        defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        var buffer: UnsafeMutablePointer<gchar>?
        var size: gsize = 0
        var error: UnsafeMutablePointer<GError>?
        guard gdk_pixbuf_save_to_bufferv(pixbuf, &buffer, &size, "jpeg", nil, nil, &error) != 0, let buffer else {
            let message = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
            if let error { g_error_free(error) }
            throw ArtworkError("JPEG: \(message)")
        }
        defer { g_free(buffer) }
        return Data(bytes: buffer, count: Int(size))
    }

    // MARK: Drawing

    private static func drawChart(_ chart: Chart, _ cr: OpaquePointer?) {
        let (w, h) = (Double(chartSize.width), Double(chartSize.height))
        cairo_set_source_rgb(cr, 1, 1, 1)
        cairo_paint(cr)
        let top = chart.values.max() ?? 1
        let slot = (w - 20) / Double(max(chart.values.count, 1))
        for (i, value) in chart.values.enumerated() {
            let barHeight = (h - 40) * value / top
            cairo_set_source_rgb(cr, 0.2, 0.45, 0.8)
            cairo_rectangle(cr, 10 + Double(i) * slot + 6, h - 20 - barHeight, slot - 12, barHeight)
            cairo_fill(cr)
        }
        cairo_set_source_rgb(cr, 0.3, 0.3, 0.3)
        cairo_set_line_width(cr, 2)
        cairo_move_to(cr, 10, h - 20)
        cairo_line_to(cr, w - 10, h - 20)
        cairo_stroke(cr)
    }

    /// A house and a sun in lines.
    private static func drawLines(_ cr: OpaquePointer?) {
        cairo_set_source_rgb(cr, 1, 1, 1)
        cairo_paint(cr)
        cairo_set_source_rgb(cr, 0.1, 0.1, 0.1)
        cairo_set_line_width(cr, 3)
        cairo_move_to(cr, 30, 120)
        cairo_line_to(cr, 30, 70)
        cairo_line_to(cr, 70, 35)
        cairo_line_to(cr, 110, 70)
        cairo_line_to(cr, 110, 120)
        cairo_close_path(cr)
        cairo_stroke(cr)
        cairo_set_source_rgb(cr, 0.85, 0.5, 0.1)
        cairo_arc(cr, 160, 40, 18, 0, 2 * Double.pi)
        cairo_stroke(cr)
    }

    // MARK: Plumbing

    static func png(width: Int32, height: Int32, draw: (OpaquePointer?) -> Void) throws -> Data {
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height) else {
            throw ArtworkError("no image surface")
        }
        defer { cairo_surface_destroy(surface) }
        let cr = cairo_create(surface)
        draw(cr)
        cairo_destroy(cr)
        let sink = Sink()
        let status = cairo_surface_write_to_png_stream(surface, Sink.write, Unmanaged.passUnretained(sink).toOpaque())
        guard status == CAIRO_STATUS_SUCCESS else { throw ArtworkError("PNG: cairo status \(status.rawValue)") }
        return sink.data
    }

    /// Collects what a cairo stream writes.
    private final class Sink {
        var data = Data()
        static let write: cairo_write_func_t = { closure, bytes, length in
            guard let closure, let bytes else { return CAIRO_STATUS_WRITE_ERROR }
            Unmanaged<Sink>.fromOpaque(closure).takeUnretainedValue().data.append(bytes, count: Int(length))
            return CAIRO_STATUS_SUCCESS
        }
    }
}

struct ArtworkError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
