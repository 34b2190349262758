import CGtk4
import DragDrop
import Foundation

extension ImageIntake {
    /// An intake for a GTK destination taking `images`: web addresses downloaded by a
    /// ``WebFetcher``, and bytes accepted only when GDK decodes them (`gdk_texture_new_from_bytes`,
    /// safe off the main thread), so a destination never shows a broken picture.
    public static func gdk(
        images: [ContentType], limit: Int64 = LoadOptions.defaultMemoryLimit, fetcher: WebFetcher = WebFetcher()
    )
        -> ImageIntake
    {
        ImageIntake(images: images, limit: limit, fetcher: fetcher, decodes: { _, data in GDKImage.decodes(data) })
    }
}

/// GDK's image decoder.
public enum GDKImage {
    /// Whether GDK decodes `data` as an image (PNG, JPEG, GIF, WebP, BMP... as gdk-pixbuf can).
    public static func decodes(_ data: Data) -> Bool {
        guard !data.isEmpty else { return false }
        let bytes = data.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
        defer { g_bytes_unref(bytes) }
        guard let texture = gdk_texture_new_from_bytes(bytes, nil) else { return false }
        g_object_unref(UnsafeMutableRawPointer(texture))
        return true
    }
}

extension GtkDragHost {
    /// The destination of the deferred drop `token` read everything it needs from the other app
    /// the drop came from (an address, before downloading it): the other app is told now that
    /// its drop was taken, instead of when the placeholder resolves, so it stops waiting and
    /// gives the pointer back (X11 sources hold it until then) while the download goes on.
    /// Nothing happens for drops from this app, or when the other app was already told.
    public func otherAppDone(with token: DropToken) {
        guard let external = otherApps.loading.removeValue(forKey: token) else { return }
        diagnose("external drop finished early accepted=true")
        external.finish(accepted: true)
    }
}
