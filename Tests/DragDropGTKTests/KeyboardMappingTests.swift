import DragDrop
import Testing

@testable import DragDropGTK

/// The keys of a keyboard drag (C4), as GDK key values; no display needed.
@Suite("GTK: keyboard drag key bindings")
@MainActor
struct KeyboardMappingTests {
    @Test("Tab/Down next, Shift+Tab/Up previous, Return/Enter drop, Escape cancel, Space activate; others pass")
    func bindings() {
        let cases: [(keyval: UInt32, shift: Bool, key: DragKey?)] = [
            (0xff09, false, .nextDropPoint),  // Tab
            (0xff09, true, .previousDropPoint),  // Tab with Shift (some keymaps)
            (0xfe20, true, .previousDropPoint),  // ISO_Left_Tab (Shift+Tab on X11)
            (0xff54, false, .nextDropPoint),  // Down
            (0xff52, false, .previousDropPoint),  // Up
            (0xff0d, false, .drop),  // Return
            (0xff8d, false, .drop),  // KP_Enter
            (0xff1b, false, .cancel),  // Escape
            (0x0020, false, .activate),  // space
            (0x0061, false, nil),  // a
            (0xff51, false, nil),  // Left
        ]
        for c in cases {
            #expect(KeyboardDragging.dragKey(for: c.keyval, shift: c.shift) == c.key, "keyval \(c.keyval) shift \(c.shift)")
        }
        #expect(GtkDragHost.pickUpAccelerator == "<Control><Shift>d")
    }
}
