import CGtk4
import DragDrop

/// Links in a ``DragTextView``: dropped addresses and `<a href>` become blue, underlined text
/// that a person opens with Ctrl+click (a plain click places the caret, as in every editor), or
/// with Open Link in the edit menu when the caret is on it (C4, K2).
extension DragTextView {
    /// The address of the link at the caret (or the selection's start), if any.
    public var linkAtCursor: String? {
        let offset = styled.selection?.start ?? styled.cursor
        return styled.link(at: offset) ?? (offset > 0 ? styled.link(at: offset - 1) : nil)
    }

    /// Every link of the text: its characters and address, in order.
    public var links: [(text: String, address: String)] {
        var result: [(String, String)] = []
        var offset = 0
        while offset < styled.count {
            if let range = styled.linkRange(at: offset) {
                result.append((styled.text(from: range.start, to: range.end), range.address))
                offset = range.end
            } else {
                offset += 1
            }
        }
        return result
    }

    /// Opens `address` with ``onOpenLink``, else the desktop's handler.
    public func openLink(_ address: String) {
        if let onOpenLink {
            onOpenLink(address)
            return
        }
        let window = gtk_widget_get_root(view.widget).map { UnsafeMutableRawPointer($0) }
        gtk_show_uri(
            window.map { dd_window($0.assumingMemoryBound(to: GtkWidget.self)) }, address, guint32(GDK_CURRENT_TIME))
    }

    /// Ctrl+click on a link opens it (and does nothing else).
    func trackLinkClicks() {
        guard let click = gtk_gesture_click_new() else { return }
        gtk_gesture_single_set_button(dd_gesture_single(UnsafeMutableRawPointer(click)), guint(GDK_BUTTON_PRIMARY))
        gtk_event_controller_set_propagation_phase(click, GTK_PHASE_CAPTURE)
        let clickBits = PointerBits(UnsafeMutableRawPointer(click))
        GSignal.connect(
            UnsafeMutableRawPointer(click), "pressed",
            click: { [weak self] presses, x, y in
                guard let self, presses == 1, let raw = clickBits.pointer else { return }
                let controller = OpaquePointer(raw)
                let state = gtk_event_controller_get_current_event_state(controller).rawValue
                guard state & GDK_CONTROL_MASK.rawValue != 0 else { return }
                let character = self.characterOffset(atWidgetX: x, y: y)
                guard let address = self.styled.link(at: character) else { return }
                gtk_gesture_set_state(OpaquePointer(raw), GTK_EVENT_SEQUENCE_CLAIMED)
                self.openLink(address)
            })
        gtk_widget_add_controller(view.widget, click)
    }
}
