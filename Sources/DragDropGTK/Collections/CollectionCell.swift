import CGtk4
import DragDrop

/// One row (or tile) widget of a ``DragCollectionView``, recycled by GTK: it shows whichever
/// item is bound to it now (a title, an optional detail line, a folder's look) or a placeholder
/// with progress (A4). Rows have one fixed height, so the view can place rows it has not laid
/// out yet from the model (``DragCollectionView/modelFrame(ofPosition:)``).
@MainActor
final class CollectionCell {
    private let root: GObjectRef
    private let titleLabel: GObjectRef
    /// The detail line and the placeholder's progress bar, made when first shown: a row is
    /// made for every item that comes on screen (30 of them when 10,000 files arrive at the top
    /// of a folder, in one turn of the main loop), and most rows show neither.
    private var detailLabel: GObjectRef?
    private var bar: GObjectRef?
    /// The tile's picture (made when a thumbnail first shows; grids only).
    private var picture: GObjectRef?
    private let layout: DragCollectionView.Layout

    /// The GTK list item this widget belongs to.
    var listItem: UnsafeMutableRawPointer?
    /// The item shown (nil for a placeholder or while unbound).
    var itemID: TargetID? { didSet { Self.generation &+= 1 } }
    /// The display position bound (nil while unbound).
    var position: Int? { didSet { Self.generation &+= 1 } }
    /// Whether the row is registered with the host as the item's target.
    var registered = false { didSet { Self.generation &+= 1 } }
    /// Counts changes of any cell's item, position or registration: what a view works out from
    /// its cells (the row it places the others from) stands while this and GTK's layouts stand.
    static var generation = 0
    private(set) var title = ""
    private(set) var detail: String?
    private(set) var isFolder = false
    private var insertionClass: String?
    private var shownTooltip: String?

    var widget: UnsafeMutablePointer<GtkWidget> { root.widget }

    init(layout: DragCollectionView.Layout, tileSize: (width: Int32, height: Int32)) {
        self.layout = layout
        root = GObjectRef(newWidget: gtk_box_new(GTK_ORIENTATION_VERTICAL, 2))
        titleLabel = GObjectRef(newWidget: gtk_label_new(""))
        let title = dd_label(titleLabel.raw)
        switch layout {
        case .list:
            // A name from another app may be 255 bytes long: the middle gives way, not the row.
            gtk_label_set_ellipsize(title, PANGO_ELLIPSIZE_MIDDLE)
            gtk_label_set_xalign(title, 0)
            // Padding, not margins: the row's whole surface is the widget, so a press anywhere
            // on it starts a drag and its frame is the row's.
            gtk_widget_add_css_class(root.widget, "dd-row")
            gtk_widget_add_css_class(root.widget, "dd-cell")
        case .grid:
            gtk_label_set_ellipsize(title, PANGO_ELLIPSIZE_END)
            gtk_label_set_max_width_chars(title, 12)
            // The tile's size as a CSS minimum (GTK 4.8's grid view gave a tile with a size
            // request the height of its content), one style class per size; the tiles of a row
            // fill its height, as a homogeneous flow box's do.
            let sizeClass = "dd-tile-\(tileSize.width)x\(tileSize.height)"
            GtkWidgetSupport.installCSS(
                ".\(sizeClass) { min-width: \(max(0, tileSize.width - 2))px; min-height: \(max(0, tileSize.height - 2))px; }",
                key: sizeClass, for: root.widget)
            gtk_widget_add_css_class(root.widget, sizeClass)
            gtk_widget_set_valign(root.widget, GTK_ALIGN_FILL)
            gtk_widget_add_css_class(root.widget, "dd-tile")
            gtk_widget_add_css_class(root.widget, "dd-grid-tile")
        }
        gtk_box_append(dd_box(root.raw), titleLabel.widget)
        if case .grid = layout {
            gtk_widget_set_valign(titleLabel.widget, GTK_ALIGN_CENTER)
            gtk_widget_set_vexpand(titleLabel.widget, 1)
        }
    }

    /// The detail line, made on first use, under the title.
    private func makeDetailLabel() -> GObjectRef {
        if let detailLabel { return detailLabel }
        let label = GObjectRef(newWidget: gtk_label_new(""))
        gtk_widget_add_css_class(label.widget, "dim-label")
        if case .list = layout { gtk_label_set_xalign(dd_label(label.raw), 0) }
        gtk_box_insert_child_after(dd_box(root.raw), label.widget, titleLabel.widget)
        detailLabel = label
        return label
    }

    /// The placeholder's progress bar, made on first use, at the bottom.
    private func makeBar() -> GObjectRef {
        if let bar { return bar }
        let bar = GObjectRef(newWidget: gtk_progress_bar_new())
        if case .grid = layout {
            for margin in [gtk_widget_set_margin_start, gtk_widget_set_margin_end] { margin(bar.widget, 8) }
        }
        gtk_box_append(dd_box(root.raw), bar.widget)
        self.bar = bar
        return bar
    }

    /// Shows an item.
    func show(title: String, detail: String?, isFolder: Bool) {
        self.title = title
        self.detail = detail
        self.isFolder = isFolder
        gtk_label_set_text(dd_label(titleLabel.raw), title)
        // Setting a tooltip costs even when it is nil (GTK 4.8 updates the widget's tooltip
        // state; it was 7 % of the CPU of an autoscroll over 100,000 rows): only on a change.
        let tooltip = title.count > 40 ? title : nil
        if tooltip != shownTooltip {
            gtk_widget_set_tooltip_text(titleLabel.widget, tooltip)
            shownTooltip = tooltip
        }
        if let detail {
            let label = makeDetailLabel()
            gtk_label_set_text(dd_label(label.raw), detail)
            gtk_widget_set_visible(label.widget, 1)
        } else if let detailLabel {
            gtk_widget_set_visible(detailLabel.widget, 0)
        }
        if let bar { gtk_widget_set_visible(bar.widget, 0) }
        gtk_widget_remove_css_class(root.widget, "dd-placeholder")
        if isFolder {
            gtk_widget_add_css_class(root.widget, "dd-folder")
        } else {
            gtk_widget_remove_css_class(root.widget, "dd-folder")
        }
        let name = isFolder ? "\(title) folder" : title
        dd_accessible_set_label(dd_accessible(root.raw), name)
        if let row = gtk_widget_get_parent(root.widget) {
            dd_accessible_set_label(dd_accessible(UnsafeMutableRawPointer(row)), name)
        }
    }

    /// Shows `thumbnail` above the title (a grid's tile), or no picture.
    func setThumbnail(_ thumbnail: DragCollectionView.Thumbnail?) {
        guard case .grid = layout else { return }
        let texture = thumbnail?.texture()
        defer { if let texture { g_object_unref(UnsafeMutableRawPointer(texture)) } }
        if texture == nil, picture == nil { return }
        let picture = self.picture ?? makePicture()
        gtk_picture_set_paintable(dd_picture(picture.raw), texture)
        gtk_widget_set_visible(picture.widget, texture == nil ? 0 : 1)
        // With a picture the title sits under it; alone it is centred in the tile.
        gtk_widget_set_vexpand(titleLabel.widget, texture == nil ? 1 : 0)
    }

    private func makePicture() -> GObjectRef {
        // Decoration: the tile's accessible name says what it is.
        let picture = GObjectRef(newWidget: dd_picture_new_decorative())
        gtk_picture_set_can_shrink(dd_picture(picture.raw), 1)
        gtk_picture_set_content_fit(dd_picture(picture.raw), GTK_CONTENT_FIT_CONTAIN)
        gtk_widget_set_vexpand(picture.widget, 1)
        gtk_widget_add_css_class(picture.widget, "dd-thumbnail")
        gtk_box_prepend(dd_box(root.raw), picture.widget)
        self.picture = picture
        return picture
    }

    /// Shows a placeholder for content still loading, with its progress (A4).
    func showPlaceholder(title: String, fraction: Double?) {
        self.title = title
        detail = nil
        isFolder = false
        gtk_label_set_text(dd_label(titleLabel.raw), title)
        if let detailLabel { gtk_widget_set_visible(detailLabel.widget, 0) }
        gtk_widget_set_visible(makeBar().widget, 1)
        gtk_widget_remove_css_class(root.widget, "dd-folder")
        gtk_widget_add_css_class(root.widget, "dd-placeholder")
        setThumbnail(nil)
        setProgress(fraction)
        dd_accessible_set_label(dd_accessible(root.raw), title)
    }

    /// Moves a placeholder's progress bar: a fraction, or a pulse when the total is unknown.
    func setProgress(_ fraction: Double?) {
        if let fraction {
            gtk_progress_bar_set_fraction(dd_progress_bar(makeBar().raw), fraction)
        } else {
            gtk_progress_bar_pulse(dd_progress_bar(makeBar().raw))
        }
    }

    // MARK: Outlines (T1)

    /// The row's depth in an outline, nil outside one.
    private(set) var depth: Int?
    /// Whether the row holds children and shows them (nil: it holds none).
    private(set) var isExpanded: Bool?
    /// Where the disclosure triangle ends, from the row's left edge (a press before it toggles).
    private(set) var disclosureEnd = 0.0
    /// Called when a press lands on the disclosure triangle.
    var onDisclosure: (@MainActor () -> Void)?
    /// A plain click on the row, not on its triangle, with no modifier held (an outline whose
    /// rows open something: ``DragOutlineView/onOpen``).
    var onRowClick: (@MainActor () -> Void)?
    private var disclosureClick = false

    /// Shows the row as an outline's: indented `depth` levels of `indent` pixels, after a
    /// disclosure triangle (▸ closed, ▾ open) when it holds children (`expanded` nil: it holds
    /// none). The accessible row says its level and whether it is open (what a screen reader
    /// says of a tree item).
    func setOutline(depth: Int, indent: Double, expanded: Bool?) {
        self.depth = depth
        isExpanded = expanded
        let start = Int32(Double(depth) * indent)
        // A closed row's triangle points along the reading direction: ◂ right to left (L3).
        let closed = GtkWidgetSupport.layoutDirection(of: root.widget) == .rightToLeft ? "\u{25C2}" : "\u{25B8}"
        let triangle = expanded.map { $0 ? "\u{25BE}" : closed } ?? ""
        // Right to left the triangle stays at the reading edge, whatever script the title is
        // in: a right-to-left mark makes the line's direction the row's.
        let mark = GtkWidgetSupport.layoutDirection(of: root.widget) == .rightToLeft ? "\u{200F}" : ""
        gtk_label_set_text(
            dd_label(titleLabel.raw), expanded == nil ? title : "\(mark)\(triangle)\u{2002}\(title)")
        // Rows that hold nothing line their titles up with the titles after a triangle.
        gtk_widget_set_margin_start(titleLabel.widget, expanded == nil ? start + 16 : start)
        if let detailLabel { gtk_widget_set_margin_start(detailLabel.widget, start + 16) }
        disclosureEnd = Double(start) + 12 + 16
        if let row = gtk_widget_get_parent(root.widget) {
            let accessible = dd_accessible(UnsafeMutableRawPointer(row))
            dd_accessible_set_int(accessible, GTK_ACCESSIBLE_PROPERTY_LEVEL, Int32(depth + 1))
            if let expanded {
                dd_accessible_set_expanded(accessible, expanded ? 1 : 0)
            } else {
                dd_accessible_reset_expanded(accessible)
            }
        }
        guard !disclosureClick, let click = gtk_gesture_click_new() else { return }
        disclosureClick = true
        gtk_gesture_single_set_button(dd_gesture_single(UnsafeMutableRawPointer(click)), guint(GDK_BUTTON_PRIMARY))
        let gesture = PointerBits(UnsafeMutableRawPointer(click))
        GSignal.connect(
            UnsafeMutableRawPointer(click), "released",
            click: { [weak self] presses, x, _ in
                guard let self, presses == 1 else { return }
                // The triangle is at the row's reading edge: the right one right to left (L3).
                let rightToLeft = GtkWidgetSupport.layoutDirection(of: self.root.widget) == .rightToLeft
                let inset = rightToLeft ? Double(gtk_widget_get_width(self.root.widget)) - x : x
                if self.isExpanded != nil, inset < self.disclosureEnd {
                    self.onDisclosure?()
                    return
                }
                guard let controller = gesture.pointer else { return }
                let state = GtkWidgetSupport.currentState(of: controller)
                let modifiers = GDK_CONTROL_MASK.rawValue | GDK_SHIFT_MASK.rawValue | GDK_ALT_MASK.rawValue
                if state & modifiers == 0 { self.onRowClick?() }
            })
        gtk_widget_add_controller(root.widget, click)
    }

    /// The insertion shown on this row (F8): a style class, or nil.
    func setInsertion(_ cssClass: String?) {
        guard cssClass != insertionClass else { return }
        if let insertionClass { gtk_widget_remove_css_class(root.widget, insertionClass) }
        if let cssClass { gtk_widget_add_css_class(root.widget, cssClass) }
        insertionClass = cssClass
    }
}
