import CGtk4
import DragDrop
import DragDropGTK
import Foundation
import ShowcaseModel

/// A grid of one store collection's items (home-screen icons, photos): a
/// ``StoreCollectionView`` whose elements are flow-box tiles. Tiles drag out with the selection
/// (M1, Ctrl-click adds), drops land between tiles (F8) or on a folder tile, which takes them
/// into its collection and springs open while content hovers (SP1) or on a double click (SP2).
@MainActor
final class StoreGridView: StoreCollectionView {
    /// Selection mode (Photos' Select button): a plain click toggles a tile (M1).
    var isSelectionMode = false
    /// A folder tile opened: `duringDrag` when it sprang open under a drag.
    var onOpenFolder: (@MainActor (_ folder: ShowcaseItem, _ duringDrag: Bool) -> Void)?

    private var box: OpaquePointer { OpaquePointer(elementsWidget.raw) }

    init(
        collection: ShowcaseCollection, store: ShowcaseStore, host: GtkDragHost, itemType: ContentType, noun: Noun,
        columns: UInt32 = 5
    ) {
        let flowBox = gtk_flow_box_new()!
        super.init(
            collection: collection, store: store, host: host, itemType: itemType, noun: noun, elementsWidget: flowBox)
        gtk_flow_box_set_selection_mode(box, GTK_SELECTION_MULTIPLE)
        gtk_flow_box_set_activate_on_single_click(box, 0)
        gtk_flow_box_set_homogeneous(box, 1)
        gtk_flow_box_set_min_children_per_line(box, columns)
        gtk_flow_box_set_max_children_per_line(box, columns)
        gtk_flow_box_set_row_spacing(box, 8)
        gtk_flow_box_set_column_spacing(box, 8)
        gtk_widget_set_valign(flowBox, GTK_ALIGN_START)
        Self.installCSS()
        GSignal.connect(elementsWidget.raw, "selected-children-changed") { [weak self] in self?.tilesSelected() }
        GSignal.connect(elementsWidget.raw, "child-activated", pointer: { [weak self] child in self?.activated(child) })
    }

    private static var cssInstalled = false

    /// The tiles' style, once per process (the showcase has one display).
    private static func installCSS() {
        guard !cssInstalled, let display = gdk_display_get_default(), let provider = gtk_css_provider_new() else {
            return
        }
        cssInstalled = true
        let css = """
            .sc-tile { border-radius: 8px; border: 1px solid rgba(0,0,0,0.15); background-color: rgb(250,250,250); }
            .sc-tile.sc-folder { background-color: rgb(252,238,190); }
            .sc-tile:selected { background-color: rgb(53,132,228); color: white; }
            .dd-grid-insert-before { box-shadow: -6px 0 0 0 rgb(230,97,0); }
            .dd-grid-insert-after { box-shadow: 6px 0 0 0 rgb(230,97,0); }
            """
        gtk_css_provider_load_from_data(provider, css, -1)
        gtk_style_context_add_provider_for_display(
            display, dd_style_provider(UnsafeMutableRawPointer(provider)),
            guint(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
    }

    // MARK: Targets

    override var insertionLayout: InsertionLayout { .grid }
    override var insertionClasses: (before: String, after: String) {
        ("dd-grid-insert-before", "dd-grid-insert-after")
    }

    override func containerTarget(in window: TargetID) -> DragTarget {
        var container = super.containerTarget(in: window)
        container.insertion = .grid
        return container
    }

    override func elementTarget(for item: ShowcaseItem) -> DragTarget {
        var target = super.elementTarget(for: item)
        if item.kind == .folder {
            target.accepts = [itemType]
            target.operationPolicy = .preferMove
            target.springLoading = SpringLoadingConfiguration()
        }
        return target
    }

    // MARK: Tiles

    override func makeElement(for item: ShowcaseItem) -> GObjectRef {
        let child = GObjectRef(newWidget: gtk_flow_box_child_new())
        let content = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 2)
        let title = UI.label(item.title, xalign: 0.5)
        gtk_label_set_ellipsize(dd_label(UnsafeMutableRawPointer(title)), PANGO_ELLIPSIZE_END)
        gtk_label_set_max_width_chars(dd_label(UnsafeMutableRawPointer(title)), 12)
        UI.append(content, title)
        if item.kind == .folder, let folder = item.payload(as: FolderPayload.self) {
            let count = (try? store.items(in: folder.opens).count) ?? 0
            UI.append(content, UI.label("Folder · \(count)", xalign: 0.5, css: ["dim-label"]))
            gtk_widget_add_css_class(child.widget, "sc-folder")
        }
        gtk_widget_set_valign(content, GTK_ALIGN_CENTER)
        gtk_flow_box_child_set_child(child.pointer(to: GtkFlowBoxChild.self), content)
        gtk_widget_set_size_request(child.widget, 96, 56)
        gtk_widget_add_css_class(child.widget, "sc-tile")
        dd_accessible_set_label(dd_accessible(child.raw), item.kind == .folder ? "\(item.title) folder" : item.title)
        gtk_flow_box_append(box, child.widget)
        return child
    }

    override func removeElement(_ element: GObjectRef) { gtk_flow_box_remove(box, element.widget) }

    override func isSelected(_ element: GObjectRef) -> Bool {
        gtk_flow_box_child_is_selected(element.pointer(to: GtkFlowBoxChild.self)) != 0
    }

    override func setSelected(_ element: GObjectRef, _ selected: Bool) {
        if selected {
            gtk_flow_box_select_child(box, element.pointer(to: GtkFlowBoxChild.self))
        } else {
            gtk_flow_box_unselect_child(box, element.pointer(to: GtkFlowBoxChild.self))
        }
    }

    override func element(atX x: Double, y: Double) -> GObjectRef? {
        guard let child = gtk_flow_box_get_child_at_pos(box, Int32(x.rounded()), Int32(y.rounded())) else {
            return nil
        }
        return elements.first { $0.widget.raw == UnsafeMutableRawPointer(child) }?.widget
    }

    /// In selection mode a plain click, which makes the clicked tile the only one selected,
    /// toggles that tile in the selection instead.
    private func tilesSelected() {
        guard !rebuilding else { return }
        let selected = elements.filter { isSelected($0.widget) }.map(\.id)
        if isSelectionMode, selected.count == 1, let clicked = selected.first {
            var toggled = Set(selection)
            if toggled.contains(clicked) { toggled.remove(clicked) } else { toggled.insert(clicked) }
            select(toggled)
            return
        }
        selectionChanged()
    }

    private func activated(_ child: UnsafeMutableRawPointer?) {
        guard let child, let index = elements.firstIndex(where: { $0.widget.raw == child }) else { return }
        let item = items[index]
        if item.kind == .folder { onOpenFolder?(item, false) }
    }

    // MARK: Drops

    override func dragHost(_ host: GtkDragHost, perform drop: DropRequest) -> DropResult {
        if let folder = ShowcaseTargets.itemID(drop.destination),
            drop.items.contains(where: { ShowcaseTargets.itemID($0.id) == folder })
        {
            return .failed(DropFailure(.failed, "A folder cannot go into itself."))
        }
        return super.dragHost(host, perform: drop)
    }

    override func dragHost(_ host: GtkDragHost, activate control: TargetID, explicit: Bool) {
        guard let item = items.first(where: { $0.targetID == control }), item.kind == .folder else { return }
        onOpenFolder?(item, true)
    }
}
