import CDragDropGTKSupport
import CGtk4

/// The display's default seat, its pointer and its keyboard, asked of GDK once.
///
/// On X11 `gdk_display_get_default_seat` asks the X server which pointer is the client's
/// (`XIGetClientPointer`, a round trip) on every call. A drag reads the keyboard's modifiers on
/// every motion, and the pointer watch reads the pointer ten times a second: two round trips a
/// move for an answer that does not change while the seat stays. The seat is kept until the
/// display adds or removes one.
@MainActor
enum DefaultSeat {
    private static var cached: (display: UnsafeMutableRawPointer, seat: UnsafeMutablePointer<GdkSeat>)?
    private static var watched: Set<UnsafeMutableRawPointer> = []

    /// The default display's default seat.
    static var seat: UnsafeMutablePointer<GdkSeat>? {
        guard let display = gdk_display_get_default() else { return nil }
        let key = UnsafeMutableRawPointer(display)
        if let cached, cached.display == key { return cached.seat }
        guard let seat = gdk_display_get_default_seat(display) else { return nil }
        cached = (key, seat)
        if watched.insert(key).inserted {
            for signal in ["seat-added", "seat-removed"] {
                GSignal.connect(key, signal, pointer: { _ in DefaultSeat.cached = nil })
            }
        }
        return seat
    }

    /// The default seat's pointer.
    static var pointer: OpaquePointer? { seat.flatMap { gdk_seat_get_pointer($0) } }

    /// The default seat's keyboard.
    static var keyboard: OpaquePointer? { seat.flatMap { gdk_seat_get_keyboard($0) } }

    /// The modifiers the keyboard holds now (none without a keyboard). On X11 followed from the
    /// server's keyboard-state events (CDragDropGTKSupport's `dd_x11_modifiers`): GDK's own
    /// reading reaches its keymap through the default seat, one round trip a call.
    static var modifiers: GdkModifierType {
        var followed = GdkModifierType(0)
        if let display = gdk_display_get_default(), dd_x11_modifiers(display, &followed) != 0 { return followed }
        return keyboard.map { gdk_device_get_modifier_state($0) } ?? GdkModifierType(0)
    }
}
