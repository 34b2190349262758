import CGtk4
import DragDrop
import Foundation

/// The clipboard behind the edit menus: text everywhere, styled text as HTML then plain text
/// (P1). Styled text copied in this process is pasted back with its styles without a round
/// trip through the bytes.
@MainActor
public enum EditClipboard {
    /// Styled text this process put on the clipboard, with the provider that holds it.
    private static var rich: (provider: UInt, runs: [StyledRun])?

    /// The MIME types that paste as text.
    static let textTypes = ["text/plain;charset=utf-8", "text/plain", "UTF8_STRING", "STRING", "TEXT"]

    private static func clipboard(for widget: UnsafeMutablePointer<GtkWidget>) -> OpaquePointer? {
        gtk_widget_get_clipboard(widget)
    }

    /// Puts `text` on `widget`'s clipboard (an app's own Copy command).
    public static func copy(text: String, from widget: UnsafeMutablePointer<GtkWidget>) {
        set([.text(text)], runs: nil, on: widget)
    }

    /// Puts `representations` (richest first) on `widget`'s clipboard: an app's own Copy of
    /// an image or a document, read by other apps only when they paste.
    public static func copy(_ representations: [ExportedRepresentation], from widget: UnsafeMutablePointer<GtkWidget>) {
        set(representations, runs: nil, on: widget)
    }

    /// Whether the clipboard holds an image (any `image/*` GDK can read, or a texture).
    public static func hasImage(for widget: UnsafeMutablePointer<GtkWidget>) -> Bool {
        guard let clipboard = clipboard(for: widget), let formats = gdk_clipboard_get_formats(clipboard) else {
            return false
        }
        if gdk_content_formats_contain_gtype(formats, gdk_texture_get_type()) != 0 { return true }
        var count: gsize = 0
        guard let types = gdk_content_formats_get_mime_types(formats, &count) else { return false }
        return (0..<Int(count)).contains { types[$0].map { String(cString: $0).hasPrefix("image/") } ?? false }
    }

    /// Reads the clipboard's image, decoded by GDK and handed over as PNG bytes (data from
    /// another app is never used as it came); `completion` gets nil when there is none or it
    /// could not be decoded.
    public static func readImage(
        for widget: UnsafeMutablePointer<GtkWidget>, _ completion: @escaping @MainActor (Data?) -> Void
    ) {
        guard let clipboard = clipboard(for: widget) else { return completion(nil) }
        let clipboardBits = PointerBits(UnsafeMutableRawPointer(clipboard))
        Task { @MainActor in
            let bits = try? await GAsync.call(
                start: { callback, data in
                    gdk_clipboard_read_texture_async(OpaquePointer(clipboardBits.pointer), nil, callback, data)
                },
                finish: { source, result in
                    guard let texture = gdk_clipboard_read_texture_finish(OpaquePointer(source), result, nil) else {
                        return .failure(GIOFailure(message: Localization.format(.clipboardNoPicture)))
                    }
                    defer { g_object_unref(UnsafeMutableRawPointer(texture)) }
                    guard let bytes = gdk_texture_save_to_png_bytes(texture) else {
                        return .failure(GIOFailure(message: Localization.format(.pictureNotSaved)))
                    }
                    return .success(UInt(bitPattern: UnsafeMutableRawPointer(bytes)))
                })
            completion(bits.flatMap { OpaquePointer(bitPattern: $0) }.map(takeBytes))
        }
    }

    /// The contents of a `GBytes`, which it releases.
    private static func takeBytes(_ bytes: OpaquePointer) -> Data {
        defer { g_bytes_unref(bytes) }
        var size: gsize = 0
        return g_bytes_get_data(bytes, &size).map { Data(bytes: $0, count: Int(size)) } ?? Data()
    }

    /// Whether the clipboard holds HTML from another app (this process's own styled text is
    /// pasted from ``localRuns(for:)`` without a round trip).
    static func hasForeignHTML(for widget: UnsafeMutablePointer<GtkWidget>) -> Bool {
        guard let clipboard = clipboard(for: widget), gdk_clipboard_is_local(clipboard) == 0,
            let formats = gdk_clipboard_get_formats(clipboard)
        else { return false }
        return gdk_content_formats_contain_mime_type(formats, "text/html") != 0
    }

    /// Reads the clipboard's `text/html` (another app's, untrusted: at most `limit` bytes, and
    /// invalid UTF-8 is replaced); nil when there is none or the read failed.
    static func readHTML(for widget: UnsafeMutablePointer<GtkWidget>, limit: Int = 4 << 20) async -> String? {
        guard let clipboard = clipboard(for: widget) else { return nil }
        let clipboardBits = PointerBits(UnsafeMutableRawPointer(clipboard))
        let opened = try? await GAsync.call(
            start: { callback, data in
                "text/html".withCString { html in
                    var types: [UnsafePointer<CChar>?] = [html, nil]
                    gdk_clipboard_read_async(
                        OpaquePointer(clipboardBits.pointer), &types, Int32(G_PRIORITY_DEFAULT), nil, callback, data)
                }
            },
            finish: { source, result in
                var error: UnsafeMutablePointer<GError>?
                guard let stream = gdk_clipboard_read_finish(OpaquePointer(source), result, nil, &error) else {
                    return .failure(GIOFailure(error, fallback: Localization.format(.clipboardUnreadable)))
                }
                return .success(UInt(bitPattern: UnsafeMutableRawPointer(stream)))
            })
        guard let opened, let streamRaw = UnsafeMutableRawPointer(bitPattern: opened) else { return nil }
        let stream = streamRaw.assumingMemoryBound(to: GInputStream.self)
        defer {
            g_input_stream_close(stream, nil, nil)
            g_object_unref(streamRaw)
        }
        var html = Data()
        while html.count <= limit {
            let streamBits = PointerBits(streamRaw)
            guard
                let bits = try? await GAsync.call(
                    start: { callback, data in
                        g_input_stream_read_bytes_async(
                            streamBits.pointer?.assumingMemoryBound(to: GInputStream.self), 65536,
                            Int32(G_PRIORITY_DEFAULT), nil, callback, data)
                    },
                    finish: { source, result in
                        var error: UnsafeMutablePointer<GError>?
                        guard
                            let bytes = g_input_stream_read_bytes_finish(
                                source?.assumingMemoryBound(to: GInputStream.self), result, &error)
                        else { return .failure(GIOFailure(error, fallback: Localization.format(.clipboardUnreadable))) }
                        return .success(UInt(bitPattern: UnsafeMutableRawPointer(bytes)))
                    }),
                let bytes = OpaquePointer(bitPattern: bits)
            else { return nil }
            let chunk = takeBytes(bytes)
            if chunk.isEmpty { return String(decoding: html, as: UTF8.self) }
            html.append(chunk)
        }
        return nil
    }

    /// Puts styled `runs` on the clipboard as HTML, then plain text.
    static func copy(runs: [StyledRun], from widget: UnsafeMutablePointer<GtkWidget>) {
        let html = ExportedRepresentation(mimeType: "text/html", bytes: Array(StyledHTML.exportedHTML(from: runs).utf8))
        set([html, .text(StyledHTML.plainText(of: runs))], runs: runs, on: widget)
    }

    private static func set(
        _ representations: [ExportedRepresentation], runs: [StyledRun]?, on widget: UnsafeMutablePointer<GtkWidget>
    ) {
        guard let clipboard = clipboard(for: widget), let provider = GtkDragHost.contentProvider(representations)
        else { return }
        gdk_clipboard_set_content(clipboard, provider.assumingMemoryBound(to: GdkContentProvider.self))
        rich = runs.map { (UInt(bitPattern: provider), $0) }
        g_object_unref(provider)
    }

    /// Whether the clipboard holds text that can be pasted.
    static func hasText(for widget: UnsafeMutablePointer<GtkWidget>) -> Bool {
        guard let clipboard = clipboard(for: widget), let formats = gdk_clipboard_get_formats(clipboard) else {
            return false
        }
        if gdk_content_formats_contain_gtype(formats, dd_type_string()) != 0 { return true }
        return textTypes.contains { gdk_content_formats_contain_mime_type(formats, $0) != 0 }
    }

    /// The styled text this process copied, while it is still on the clipboard.
    static func localRuns(for widget: UnsafeMutablePointer<GtkWidget>) -> [StyledRun]? {
        guard let rich, let clipboard = clipboard(for: widget), gdk_clipboard_is_local(clipboard) != 0,
            let content = gdk_clipboard_get_content(clipboard),
            UInt(bitPattern: UnsafeMutableRawPointer(content)) == rich.provider
        else { return nil }
        return rich.runs
    }

    /// Reads the clipboard's text; `completion` gets nil when there is none.
    static func readText(
        for widget: UnsafeMutablePointer<GtkWidget>, _ completion: @escaping @MainActor (String?) -> Void
    ) {
        guard let clipboard = clipboard(for: widget) else { return completion(nil) }
        let clipboardBits = PointerBits(UnsafeMutableRawPointer(clipboard))
        Task { @MainActor in
            let bits = try? await GAsync.call(
                start: { callback, data in
                    gdk_clipboard_read_text_async(OpaquePointer(clipboardBits.pointer), nil, callback, data)
                },
                finish: { source, result in
                    guard let raw = gdk_clipboard_read_text_finish(OpaquePointer(source), result, nil) else {
                        return .failure(GIOFailure(message: Localization.format(.clipboardNoText)))
                    }
                    return .success(UInt(bitPattern: UnsafeMutableRawPointer(raw)))
                })
            let text = bits.flatMap { UnsafeMutablePointer<CChar>(bitPattern: $0) }.map { raw in
                defer { g_free(raw) }
                return String(cString: raw)
            }
            completion(text)
        }
    }

}
