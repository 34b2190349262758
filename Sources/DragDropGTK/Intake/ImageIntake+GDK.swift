import CGtk4
import DragDrop
import Foundation

extension ImageIntake {
    /// An intake for a GTK destination that shows `images`: web addresses downloaded by a
    /// ``WebFetcher``, and bytes accepted only when ``DroppedImage`` would decode them (PNG or
    /// JPEG, whole, declaring at most ``DroppedImage/maximumPixels``: checked without decoding,
    /// so a form holding a "decompression bomb" is passed over before anything decodes it).
    /// When no form holds such a picture, the load fails with ``DroppedImage/Problem``'s reason
    /// ("it is damaged: its IDAT chunk is corrupt"), not a vaguer one. The destination then
    /// decodes with ``DroppedImage/decode(_:type:)``, off the main loop.
    public static func gdk(
        images: [ContentType], limit: Int64 = LoadOptions.defaultMemoryLimit, fetcher: WebFetcher = WebFetcher()
    )
        -> ImageIntake
    {
        ImageIntake(images: images, limit: limit, fetcher: fetcher) { type, data in
            DroppedImage.problem(data, type: type)?.clause
        }
    }
}

extension GtkDragHost {
    /// The destination of the deferred drop `token` read everything it needs from the other app
    /// the drop came from (an address, before downloading it): the other app is told now that
    /// its drop was taken, instead of when the placeholder resolves, so it stops waiting and
    /// gives the pointer back (X11 sources hold it until then) while the download goes on.
    /// Nothing happens for drops from this app, or when the other app was already told.
    public func otherAppDone(with token: DropToken) { otherApps.finishedEarly(token) }
}
