import CDragDropGTKSupport
import CGtk4
import DragDrop
import Foundation

extension DragCollectionView {
    /// A small picture shown on an item's tile (``DragCollectionDataSource/thumbnail(at:)``):
    /// pixels the app made (a generated preview), or the bytes of an image file (PNG, JPEG),
    /// decoded by GDK. Bad bytes show no picture; they never stop the tile from showing.
    public struct Thumbnail: Sendable, Equatable {
        enum Pixels: Sendable, Equatable {
            case rgba(width: Int, height: Int, bytes: [UInt8])
            case encoded(Data)
        }

        let pixels: Pixels

        /// A picture `width` × `height` pixels of straight (not premultiplied) RGBA bytes, four per
        /// pixel, row after row; nil when the sizes are not positive or `rgba` does not hold
        /// exactly `width × height × 4` bytes.
        public init?(width: Int, height: Int, rgba: [UInt8]) {
            guard width > 0, height > 0, width <= 4096, height <= 4096, rgba.count == width * height * 4 else {
                return nil
            }
            pixels = .rgba(width: width, height: height, bytes: rgba)
        }

        /// A picture from the bytes of an image file (PNG, JPEG, TIFF: what GDK decodes). Keep
        /// it about the tile's size: it is decoded each time a tile shows it.
        public init(encoded data: Data) {
            pixels = .encoded(data)
        }

        /// The picture as a GDK texture (a new reference), or nil when GDK cannot read it.
        func texture() -> OpaquePointer? {
            switch pixels {
            case .rgba(let width, let height, let bytes):
                let gbytes = bytes.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
                defer { g_bytes_unref(gbytes) }
                return gdk_memory_texture_new(
                    Int32(width), Int32(height), GDK_MEMORY_R8G8B8A8, gbytes, gsize(width * 4))
            case .encoded(let data):
                guard !data.isEmpty else { return nil }
                let gbytes = data.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
                defer { g_bytes_unref(gbytes) }
                var error: UnsafeMutablePointer<GError>?
                let texture = gdk_texture_new_from_bytes(gbytes, &error)
                if let error { g_error_free(error) }
                return texture
            }
        }
    }
}
