import CGtk4

/// Where a screen reader's attention is: the widget with the keyboard focus.
enum AccessibleFocus {
    /// The focused widget (or the window when nothing in it has the focus).
    case widget(UnsafeMutablePointer<GtkWidget>)
    /// The focus still points at a widget that left the window (a row removed by the drop):
    /// GTK moves it shortly.
    case unsettled
    /// No window to speak in.
    case none
}

/// Speaks sentences to screen readers on GTK 4.8 through the accessible description of the
/// widget that has the keyboard focus (C4).
///
/// GTK 4.8 has no call to make a screen reader speak (`gtk_accessible_announce` came with 4.14),
/// and its AT-SPI backend sends nothing when a label's text changes. What it does send is an
/// `object:property-change:accessible-description` event when a widget's description changes,
/// and a screen reader presents that change when it comes from the object that has the focus
/// (Orca's advice for text that is not focusable: make it the focused object's description).
/// So each sentence becomes, for a while, the description of the focused widget:
///
/// - Sentences wait until the main loop is idle, then go to the widget that has the focus then:
///   the event that announced them may also have rebuilt the rows (a drop, an undo), and a
///   sentence given to a row that GTK removes a moment later is never sent. When the focus
///   still points at a widget that left the window, they wait for GTK to move the focus.
/// - The description is cleared before each sentence, so a screen reader that skips a
///   description equal to the last one it saw (Orca does) still speaks a repeated sentence.
/// - The widget keeps the sentence until the focus leaves it; then it gets its own description
///   back. That change comes from a widget without the focus, which a screen reader does not
///   present, so it is not heard.
@MainActor
final class FocusDescriptionAnnouncer {
    /// The widget whose description holds a sentence, with what it had before.
    private struct Borrowed {
        let widget: GObjectRef
        /// Its own description, nil when it had none.
        let original: String?
        /// The sentence it holds now.
        var sentence: String
    }

    private var borrowed: Borrowed?
    /// Sentences not spoken yet, in order.
    private var queue: [String] = []
    private var idleScheduled = false
    /// Where the focus is when the queue is spoken.
    private let focus: @MainActor () -> AccessibleFocus

    /// An announcer speaking on the widget `focus` gives (the focused widget of the active
    /// window).
    init(focus: @escaping @MainActor () -> AccessibleFocus) { self.focus = focus }

    /// Speaks `sentence` on the focused widget once the main loop is idle.
    func announce(_ sentence: String) {
        queue.append(sentence)
        scheduleFlush()
    }

    /// Called when a window's focus widget changed: gives a widget that held a sentence its own
    /// description back once the focus is elsewhere, and speaks sentences that waited for the
    /// focus to settle.
    func focusMoved(to focus: UnsafeMutablePointer<GtkWidget>?) {
        if let borrowed, borrowed.widget.raw != focus.map(UnsafeMutableRawPointer.init) { restore() }
        if !queue.isEmpty { scheduleFlush() }
    }

    private func scheduleFlush() {
        guard !idleScheduled else { return }
        idleScheduled = true
        // G_PRIORITY_LOW: after GTK's layout and the app's own idle work.
        GLibSource.idle(priority: 300) { [weak self] in
            guard let self else { return }
            self.idleScheduled = false
            self.flush()
        }
    }

    private func flush() {
        switch focus() {
        case .none:
            queue = []
        case .unsettled:
            break  // focusMoved(to:) tries again
        case .widget(let widget):
            let sentences = queue
            queue = []
            for sentence in sentences { speak(sentence, on: widget) }
        }
    }

    /// Makes `sentence` the accessible description of `widget`.
    private func speak(_ sentence: String, on widget: UnsafeMutablePointer<GtkWidget>) {
        let raw = UnsafeMutableRawPointer(widget)
        if let borrowed, borrowed.widget.raw != raw { restore() }
        let accessible = dd_accessible(raw)
        if borrowed == nil {
            borrowed = Borrowed(
                widget: GObjectRef(raw: raw), original: Self.description(of: accessible), sentence: sentence)
        }
        borrowed?.sentence = sentence
        dd_accessible_set_string(accessible, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, "")
        dd_accessible_set_string(accessible, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, sentence)
    }

    /// Puts the borrowed widget's own description back, unless something else replaced the
    /// sentence meanwhile.
    private func restore() {
        guard let borrowed else { return }
        self.borrowed = nil
        let accessible = dd_accessible(borrowed.widget.raw)
        guard Self.description(of: accessible) == borrowed.sentence else { return }
        if let original = borrowed.original {
            dd_accessible_set_string(accessible, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, original)
        } else {
            gtk_accessible_reset_property(accessible, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION)
        }
    }

    private static func description(of accessible: OpaquePointer?) -> String? {
        guard let value = dd_accessible_copy_string(accessible, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION) else {
            return nil
        }
        defer { g_free(value) }
        return String(cString: value)
    }
}
