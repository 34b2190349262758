import CGtk4
import DragDrop

/// The drag image: a translucent rendering of the dragged widget (F2); for several items a
/// flock of up to ``maximumCards`` stacked, offset and slightly rotated renderings of the dragged
/// widgets (M3); a count and a badge that says what a drop would do (S3).
///
/// Without a compositing manager the drag surface cannot be translucent (transparent pixels
/// show black, a translucent image turns grey): the cards stay opaque and the flock sits on an
/// opaque backdrop (`dd-flock.dd-opaque`), so the stack reads without transparency.
@MainActor
final class DragIconView {
    /// The most cards stacked under the pointer, whatever the number of items.
    static let maximumCards = 3
    /// How far each card behind sits right of (left of, right to left) and below the one in
    /// front, in pixels.
    static let cardOffset: Float = 6
    /// The rotation of the cards behind, alternating sign, in degrees.
    static let cardRotation: Float = 2

    /// Where the front card's top-left corner sits in the icon: add it to the grab point to get
    /// the drag hotspot.
    let origin: (x: Int32, y: Int32)
    /// A still image of the front card as it looked at drag start, for the animations that play
    /// after GTK's drag image is gone (evaporate, F7). Nil if GTK could not render it.
    let snapshot: GObjectRef?
    /// The front card's size in pixels.
    let cardSize: (width: Int32, height: Int32)
    /// Whether the flock trails to the left (GTK lays the dragged widget out right to left, L3):
    /// the cards behind sit left of the front card, and the count and badge at its top left.
    let mirrored: Bool
    /// Right to left, the room left of the front card for the cards behind, in pixels: as many
    /// as the drag began with (items added later stack within it).
    private let trailRoom: Float

    private let composited: Bool
    private let root: GObjectRef
    private let stage: GObjectRef
    private let badge: GObjectRef
    private let count: GObjectRef
    /// The widgets shown, front first (to add each at most once).
    private var sources: [GObjectRef] = []
    private var cards: [GObjectRef] = []

    /// The icon's root widget, to put inside the `GtkDragIcon`.
    var widget: UnsafeMutablePointer<GtkWidget> { root.widget }

    /// An image of `front` (the widget under the pointer) stacked on `others` (more dragged
    /// widgets, in drag order), for a drag of `itemCount` items.
    init(
        showing front: UnsafeMutablePointer<GtkWidget>, others: [UnsafeMutablePointer<GtkWidget>] = [],
        count itemCount: Int
    ) {
        composited = gtk_widget_get_display(front).map { gdk_display_is_composited($0) != 0 } ?? false
        // Room above and right of the image for the badge (none without a compositor, where it
        // would show black: the badges then sit inside the image).
        let inset: Int32 = composited ? 10 : 0
        // Right to left the corner (its margin at the end, GTK's start and end) and the cards
        // behind are on the left, so the front card sits right of them (L3).
        mirrored = gtk_widget_get_direction(front) == GTK_TEXT_DIR_RTL
        let behind = min(max(1, itemCount), Self.maximumCards) - 1
        trailRoom = mirrored && behind > 0 ? Float(behind) * Self.cardOffset + 4 : 0
        origin = (mirrored ? inset + Int32(trailRoom) : 0, inset)
        let image = Self.image(of: front)
        snapshot = image.picture
        cardSize = image.size

        stage = GObjectRef(newWidget: gtk_fixed_new())
        gtk_widget_add_css_class(stage.widget, "dd-flock")
        gtk_widget_set_margin_end(stage.widget, inset)

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
        gtk_overlay_set_child(dd_overlay(root.raw), stage.widget)
        gtk_overlay_add_overlay(dd_overlay(root.raw), corner)

        add([front] + others)
        update(PreviewState(count: itemCount, badge: .none))
    }

    /// Adds the renderings of more dragged widgets behind the cards shown, up to
    /// ``maximumCards`` (items joined the drag, M2).
    func add(_ widgets: [UnsafeMutablePointer<GtkWidget>]) {
        let room = Self.maximumCards - sources.count
        guard room > 0 else { return }
        let known = Set(sources.map(\.raw))
        let new = widgets.filter { !known.contains(UnsafeMutableRawPointer($0)) }.prefix(room)
        guard !new.isEmpty else { return }
        sources += new.map { GObjectRef(raw: UnsafeMutableRawPointer($0)) }
        layOutCards()
    }

    /// Rebuilds the stack: the cards behind first (painted below), the front card last.
    private func layOutCards() {
        for card in cards { gtk_fixed_remove(dd_fixed(stage.raw), card.widget) }
        cards = []
        for (depth, source) in sources.enumerated().reversed() {
            let card = makeCard(for: source.widget, behind: depth > 0)
            gtk_fixed_put(dd_fixed(stage.raw), card.widget, 0, 0)
            let shift = Float(depth) * Self.cardOffset
            // In the stage (which starts after the corner's margin): right of the front card,
            // or right to left left of it, within the room kept for them.
            let x = mirrored ? max(0, trailRoom - shift) : shift
            var transform = gsk_transform_translate(nil, [graphene_point_t(x: x, y: Float(origin.y) + shift)])
            if depth > 0 {
                // Turn each card behind a little about its centre, alternately left and right.
                let centre = graphene_point_t(x: Float(cardSize.width) / 2, y: Float(cardSize.height) / 2)
                transform = gsk_transform_translate(transform, [centre])
                transform = gsk_transform_rotate(transform, depth % 2 == 1 ? Self.cardRotation : -Self.cardRotation)
                transform = gsk_transform_translate(transform, [graphene_point_t(x: -centre.x, y: -centre.y)])
            }
            gtk_fixed_set_child_transform(dd_fixed(stage.raw), card.widget, transform)
            gsk_transform_unref(transform)
            cards.append(card)
        }
        // The opaque backdrop only where cards behind leave gaps (M3 without a compositor).
        if !composited, sources.count > 1 { gtk_widget_add_css_class(stage.widget, "dd-opaque") }
        let depth = Int32(Float(sources.count - 1) * Self.cardOffset) + (sources.count > 1 ? 4 : 0)
        let width = mirrored ? Int32(trailRoom) : depth
        gtk_widget_set_size_request(stage.widget, cardSize.width + width, cardSize.height + origin.y + depth)
    }

    /// A still image of `widget` as it looks now, and its size. Still, not live: the image must
    /// survive its widget being hidden (a spring-loaded control switched the page) or rebuilt
    /// during the drag, and it should not change while dragging (F3).
    private static func image(of source: UnsafeMutablePointer<GtkWidget>) -> (
        picture: GObjectRef?, size: (Int32, Int32)
    ) {
        let widget = pictured(source)
        guard let live = gtk_widget_paintable_new(widget) else {
            return (nil, (max(1, gtk_widget_get_width(widget)), max(1, gtk_widget_get_height(widget))))
        }
        defer { g_object_unref(UnsafeMutableRawPointer(live)) }
        let still = GObjectRef(adopting: gdk_paintable_get_current_image(live).map(UnsafeMutableRawPointer.init))
        // The paintable's own size (it can exceed the widget's by what it draws outside), so
        // each card's minimum and natural sizes agree and GtkFixed leaves no gap around it.
        let size = (
            max(1, gdk_paintable_get_intrinsic_width(live)), max(1, gdk_paintable_get_intrinsic_height(live))
        )
        return (still, size)
    }

    /// What the card of `widget` pictures: the widget, or the selected row holding it (a
    /// virtualized list's cell sits in a row that draws the selection). A selected row's
    /// text takes the selection's colour (white, in the default theme) from the row, which
    /// draws the background behind it: pictured alone on the card's white, the text of
    /// selected rows vanished, and a flock of them flew as blank cards.
    static func pictured(_ widget: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<GtkWidget> {
        var current = widget
        for _ in 0...1 {
            if gtk_widget_get_state_flags(current).rawValue & GTK_STATE_FLAG_SELECTED.rawValue != 0 { return current }
            guard let parent = gtk_widget_get_parent(current) else { break }
            current = parent
        }
        return widget
    }

    private func makeCard(for source: UnsafeMutablePointer<GtkWidget>, behind: Bool) -> GObjectRef {
        let image = Self.image(of: source).picture
        let card = GObjectRef(newWidget: gtk_picture_new_for_paintable(image.map { dd_paintable($0.raw) }))
        // Every card has the front card's size, so the stack reads as one pile.
        gtk_widget_set_size_request(card.widget, cardSize.width, cardSize.height)
        gtk_picture_set_can_shrink(dd_picture(card.raw), 1)
        gtk_picture_set_content_fit(dd_picture(card.raw), GTK_CONTENT_FIT_FILL)
        gtk_widget_set_opacity(card.widget, composited ? 0.8 : 1)
        gtk_widget_add_css_class(card.widget, "dd-drag-image")
        if behind { gtk_widget_add_css_class(card.widget, "dd-flock-card") }
        if !composited { gtk_widget_add_css_class(card.widget, "dd-opaque") }
        return card
    }

    /// Shows the engine's preview: count and flocking for several items, the copy or
    /// not-allowed badge.
    func update(_ state: PreviewState) {
        gtk_label_set_text(dd_label(count.raw), state.showsCount ? "\(state.count)" : "")
        gtk_widget_set_visible(count.widget, state.showsCount ? 1 : 0)
        if state.isFlocked {
            gtk_widget_add_css_class(stage.widget, "dd-flocked")
        } else {
            gtk_widget_remove_css_class(stage.widget, "dd-flocked")
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
