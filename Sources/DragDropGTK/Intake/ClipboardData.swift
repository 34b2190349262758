import CGtk4
import DragDrop

/// Another app's clipboard read as a drop from it: one item offering the clipboard's types
/// (richest first), each read only when a destination asks for it, through the same streams,
/// checks and fallbacks as a drop (``DroppedText``). Paste and drop therefore read other apps'
/// data one way and can never disagree: LibreOffice's HTML that ends with a NUL byte is taken
/// the same whether it was dragged or copied.
@MainActor
final class ClipboardData {
    private let clipboard: GObjectRef
    private let readTimeout: Double

    private init(clipboard: GObjectRef, readTimeout: Double) {
        self.clipboard = clipboard
        self.readTimeout = readTimeout
    }

    /// The clipboard of `widget` as data to load, opened; nil when it holds nothing. Call
    /// `finish()` on it when done.
    static func access(for widget: UnsafeMutablePointer<GtkWidget>, host: GtkDragHost) -> DropDataAccess? {
        guard let raw = gtk_widget_get_clipboard(widget), let formats = gdk_clipboard_get_formats(raw) else {
            return nil
        }
        let types = StandardMimeTypes.received(formats)
        guard !types.isEmpty else { return nil }
        let reader = ClipboardData(clipboard: GObjectRef(raw: UnsafeMutableRawPointer(raw)), readTimeout: host.otherAppReadTimeout)
        let provider = ItemProvider(
            app: GtkDragHost.unknownOtherApp,
            representations: types.map { type in
                Representation(type) { OtherAppText.content(type, stream: await reader.stream(type.mimeType)) }
            })
        let access = DropDataAccess(providers: [provider], requester: host.engine.app, chooser: host.engine.chooser)
        access.open()
        return access
    }

    private func stream(_ mimeType: String) -> any ByteSource {
        GdkDropStream(drop: clipboard, mimeType: mimeType, timeout: readTimeout, origin: .clipboard)
    }
}
