import CDragDropGTKSupport
import CGtk4

/// Which windowing system a GDK display speaks, worked out once per display.
///
/// The drag code asks several times a motion (how to offer actions, read modifiers, finish a
/// drop); naming the display's GType builds a string each time.
@MainActor
enum DisplayBackend {
    private static var known: (display: UnsafeMutableRawPointer, isWayland: Bool)?

    /// Whether `display` is a Wayland display (a `GdkWaylandDisplay`); false without one.
    static func isWayland(_ display: OpaquePointer?) -> Bool {
        guard let display else { return false }
        let key = UnsafeMutableRawPointer(display)
        if let known, known.display == key { return known.isWayland }
        let isWayland = String(cString: dd_type_name(key)) == "GdkWaylandDisplay"
        known = (key, isWayland)
        return isWayland
    }
}
