import CGtk4
import DragDrop

/// The drag image: a translucent live rendering of the dragged widget (F2), stacked when several
/// items fly together (M3), with a count and a badge that says what a drop would do (S3).
@MainActor
final class DragIconView {
    /// Room left above and right of the image for the badge, in pixels (none without a
    /// compositor, where the room would show black).
    let inset: Int32

    private let root: GObjectRef
    private let picture: GObjectRef
    private let badge: GObjectRef
    private let count: GObjectRef

    /// The icon's root widget, to put inside the `GtkDragIcon`.
    var widget: UnsafeMutablePointer<GtkWidget> { root.widget }

    /// An image of `source` as it looks now, for a drag of `itemCount` items.
    init(showing source: UnsafeMutablePointer<GtkWidget>, count itemCount: Int) {
        // Without a compositing manager the drag surface cannot be translucent: transparent
        // pixels show black and a translucent image turns grey. Stay opaque and compact there.
        let composited = gtk_widget_get_display(source).map { gdk_display_is_composited($0) != 0 } ?? false
        inset = composited ? 10 : 0
        let paintable = gtk_widget_paintable_new(source)
        let picture = GObjectRef(newWidget: gtk_picture_new_for_paintable(paintable))
        if let paintable { g_object_unref(UnsafeMutableRawPointer(paintable)) }
        gtk_widget_set_size_request(picture.widget, gtk_widget_get_width(source), gtk_widget_get_height(source))
        gtk_widget_set_opacity(picture.widget, composited ? 0.8 : 1)
        gtk_widget_add_css_class(picture.widget, "dd-drag-image")
        if !composited { gtk_widget_add_css_class(picture.widget, "dd-opaque") }
        gtk_widget_set_margin_top(picture.widget, inset)
        gtk_widget_set_margin_end(picture.widget, inset)
        self.picture = picture

        badge = GObjectRef(newWidget: gtk_label_new(""))
        gtk_widget_add_css_class(badge.widget, "dd-badge")
        gtk_widget_set_visible(badge.widget, 0)
        count = GObjectRef(newWidget: gtk_label_new(""))
        gtk_widget_add_css_class(count.widget, "dd-count")

        // Count and badge sit together at the top-right corner.
        let corner = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 2)
        gtk_widget_set_halign(corner, GTK_ALIGN_END)
        gtk_widget_set_valign(corner, GTK_ALIGN_START)
        gtk_widget_set_can_target(corner, 0)
        gtk_box_append(dd_box(UnsafeMutableRawPointer(corner)), count.widget)
        gtk_box_append(dd_box(UnsafeMutableRawPointer(corner)), badge.widget)

        root = GObjectRef(newWidget: gtk_overlay_new())
        gtk_overlay_set_child(dd_overlay(root.raw), picture.widget)
        gtk_overlay_add_overlay(dd_overlay(root.raw), corner)
        update(PreviewState(count: itemCount, badge: .none))
    }

    /// Shows the engine's preview: count and flocking for several items, the copy or
    /// not-allowed badge.
    func update(_ state: PreviewState) {
        gtk_label_set_text(dd_label(count.raw), state.showsCount ? "\(state.count)" : "")
        gtk_widget_set_visible(count.widget, state.showsCount ? 1 : 0)
        if state.isFlocked {
            gtk_widget_add_css_class(picture.widget, "dd-flocked")
        } else {
            gtk_widget_remove_css_class(picture.widget, "dd-flocked")
        }
        switch state.badge {
        case .none:
            gtk_widget_set_visible(badge.widget, 0)
        case .copy:
            gtk_label_set_text(dd_label(badge.raw), "+")
            gtk_widget_remove_css_class(badge.widget, "dd-forbidden")
            gtk_widget_set_visible(badge.widget, 1)
        case .forbidden:
            gtk_label_set_text(dd_label(badge.raw), "\u{2298}")
            gtk_widget_add_css_class(badge.widget, "dd-forbidden")
            gtk_widget_set_visible(badge.widget, 1)
        }
    }
}
