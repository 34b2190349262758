import CGtk4

/// The layer a ``GtkDragHost`` paints over a window's content: images that animate after GTK's
/// drag image is gone (evaporate, F7), notices that say why a drop failed (F7, A6), and the
/// confirmation of an irreversible drop (U2).
///
/// It is a `GtkOverlay` between the window and its content: made around the content when the
/// app sets it with ``GtkDragHost/setContent(_:of:)`` (cheap: the content is rooted once), or
/// put between the window and content it already has when the window is added to the host
/// (the window's child becomes the overlay; the content lives on inside it).
@MainActor
final class FeedbackLayer {
    private let overlay: GObjectRef
    /// Where animated images are put (never takes input).
    private let stage: GObjectRef
    /// The notices, stacked at the bottom centre (never takes input).
    private let notices: GObjectRef
    /// The confirmation sheet while one is shown: a scrim over the window with a card.
    private var confirmation: GObjectRef?

    /// Wraps `window`'s content; nil if the window has no content yet. GTK takes the content
    /// out of the window and roots it again under the overlay: with a big widget tree that is
    /// most of the cost of adding a window (``init(window:content:)`` avoids it).
    convenience init?(wrapping window: UnsafeMutablePointer<GtkWidget>) {
        guard let child = gtk_window_get_child(dd_window(window)) else { return nil }
        let content = GObjectRef(raw: UnsafeMutableRawPointer(child))  // alive while it moves
        self.init(window: window, content: nil)
        gtk_overlay_set_child(dd_overlay(overlay.raw), content.widget)
    }

    /// Makes the overlay `window`'s child, with `content` (if any) inside it: the content is
    /// put in the overlay before the overlay is rooted, so GTK roots it once.
    init(window: UnsafeMutablePointer<GtkWidget>, content: UnsafeMutablePointer<GtkWidget>?) {
        overlay = GObjectRef(newWidget: gtk_overlay_new())
        if let content { gtk_overlay_set_child(dd_overlay(overlay.raw), content) }

        stage = GObjectRef(newWidget: gtk_fixed_new())
        gtk_widget_set_can_target(stage.widget, 0)
        gtk_overlay_add_overlay(dd_overlay(overlay.raw), stage.widget)

        notices = GObjectRef(newWidget: gtk_box_new(GTK_ORIENTATION_VERTICAL, 4))
        gtk_widget_set_halign(notices.widget, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(notices.widget, GTK_ALIGN_END)
        gtk_widget_set_can_target(notices.widget, 0)
        gtk_overlay_add_overlay(dd_overlay(overlay.raw), notices.widget)

        gtk_window_set_child(dd_window(window), overlay.widget)
    }

    /// Whether the overlay is still `window`'s child (an app may have replaced it since).
    func isChild(of window: UnsafeMutablePointer<GtkWidget>) -> Bool {
        gtk_window_get_child(dd_window(window)) == overlay.widget
    }

    /// Replaces the content under the feedback (nil removes it).
    func setContent(_ content: UnsafeMutablePointer<GtkWidget>?) {
        gtk_overlay_set_child(dd_overlay(overlay.raw), content)
    }

    // MARK: Notices

    /// Shows `message` at the bottom of the window for `seconds` (F7, A6).
    func showNotice(_ message: String, seconds: Double) {
        let label = GObjectRef(newWidget: gtk_label_new(message))
        gtk_widget_add_css_class(label.widget, "dd-notice")
        gtk_label_set_wrap(dd_label(label.raw), 1)
        gtk_label_set_max_width_chars(dd_label(label.raw), 60)
        gtk_box_append(dd_box(notices.raw), label.widget)
        GLibSource.once(afterMilliseconds: UInt32(max(0, seconds) * 1000)) { [notices] in
            gtk_box_remove(dd_box(notices.raw), label.widget)
        }
    }

    // MARK: Evaporate

    /// Plays the evaporate animation of a failed drop whose source is not visible (F7): the
    /// image at `frame` (window coordinates) scales up and fades out over `seconds`.
    func evaporate(
        _ image: UnsafeMutableRawPointer, frame: (x: Double, y: Double, width: Double, height: Double), seconds: Double
    ) {
        let picture = GObjectRef(newWidget: gtk_picture_new_for_paintable(dd_paintable(image)))
        gtk_widget_set_size_request(picture.widget, Int32(frame.width), Int32(frame.height))
        gtk_widget_add_css_class(picture.widget, "dd-evaporating")
        gtk_fixed_put(dd_fixed(stage.raw), picture.widget, 0, 0)
        let stage = self.stage
        let place: @MainActor (Double) -> Void = { progress in
            // Ease out: quick at first, gentle at the end.
            let t = 1 - (1 - progress) * (1 - progress)
            let scale = Float(1 + 0.6 * t)
            let centre = graphene_point_t(x: Float(frame.width / 2), y: Float(frame.height / 2))
            var transform = gsk_transform_translate(
                nil, [graphene_point_t(x: Float(frame.x) + centre.x, y: Float(frame.y) + centre.y)])
            transform = gsk_transform_scale(transform, scale, scale)
            transform = gsk_transform_translate(transform, [graphene_point_t(x: -centre.x, y: -centre.y)])
            gtk_fixed_set_child_transform(dd_fixed(stage.raw), picture.widget, transform)
            gsk_transform_unref(transform)
            gtk_widget_set_opacity(picture.widget, 1 - t)
        }
        place(0)
        FrameAnimation.run(on: picture.widget, seconds: seconds, step: place) {
            gtk_fixed_remove(dd_fixed(stage.raw), picture.widget)
        }
    }

    // MARK: Confirmation

    /// Whether a confirmation sheet is shown.
    var isConfirming: Bool { confirmation != nil }

    /// Shows a sheet over the window asking `message`, with Cancel (focused: the safe choice)
    /// and `confirmTitle`. `answer` runs once with the choice; Escape cancels (U2).
    func askConfirmation(_ message: String, confirmTitle: String, answer: @escaping @MainActor (Bool) -> Void) {
        dismissConfirmation()
        let scrim = GObjectRef(newWidget: gtk_box_new(GTK_ORIENTATION_VERTICAL, 0))
        gtk_widget_add_css_class(scrim.widget, "dd-scrim")
        let card = gtk_box_new(GTK_ORIENTATION_VERTICAL, 12)
        gtk_widget_add_css_class(card, "dd-confirm")
        gtk_widget_set_halign(card, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(card, GTK_ALIGN_CENTER)
        gtk_widget_set_vexpand(card, 1)
        let label = gtk_label_new(message)
        gtk_label_set_wrap(dd_label(UnsafeMutableRawPointer(label)), 1)
        gtk_label_set_max_width_chars(dd_label(UnsafeMutableRawPointer(label)), 40)
        gtk_box_append(dd_box(UnsafeMutableRawPointer(card)), label)
        let buttons = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8)
        gtk_widget_set_halign(buttons, GTK_ALIGN_END)
        let cancel = gtk_button_new_with_label(Localization.command("Cancel"))
        let confirm = gtk_button_new_with_label(confirmTitle)
        if let confirm { gtk_widget_add_css_class(confirm, "destructive-action") }
        gtk_box_append(dd_box(UnsafeMutableRawPointer(buttons)), cancel)
        gtk_box_append(dd_box(UnsafeMutableRawPointer(buttons)), confirm)
        gtk_box_append(dd_box(UnsafeMutableRawPointer(card)), buttons)
        gtk_box_append(dd_box(scrim.raw), card)

        var answered = false
        let reply: @MainActor (Bool) -> Void = { [weak self] ok in
            guard !answered else { return }
            answered = true
            self?.dismissConfirmation()
            answer(ok)
        }
        if let cancel { GSignal.connect(UnsafeMutableRawPointer(cancel), "clicked") { reply(false) } }
        if let confirm { GSignal.connect(UnsafeMutableRawPointer(confirm), "clicked") { reply(true) } }
        if let keys = gtk_event_controller_key_new() {
            GSignal.connect(
                UnsafeMutableRawPointer(keys), "key-pressed",
                key: { keyval, _, _ in
                    guard keyval == UInt32(GDK_KEY_Escape) else { return false }
                    reply(false)
                    return true
                })
            gtk_widget_add_controller(scrim.widget, keys)
        }
        gtk_overlay_add_overlay(dd_overlay(overlay.raw), scrim.widget)
        confirmation = scrim
        if let cancel { gtk_widget_grab_focus(cancel) }
        // A drop from another app leaves that app's window in front, possibly over ours: the
        // question comes to the front with its window, or the person sees nothing happen.
        if let root = gtk_widget_get_root(overlay.widget) { gtk_window_present(dd_window(UnsafeMutableRawPointer(root))) }
    }

    /// Removes the confirmation sheet, if one is shown.
    func dismissConfirmation() {
        guard let scrim = confirmation else { return }
        confirmation = nil
        gtk_overlay_remove_overlay(dd_overlay(overlay.raw), scrim.widget)
    }
}
