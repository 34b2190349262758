import CGtk4
import DragDrop
import DragDropGTK
import Foundation
import ShowcaseModel

/// A grid of one store collection's items (home-screen icons): the `StoreListView` of tiles.
/// Tiles drag out with the selection (M1, Ctrl-click adds), drops land between tiles (F8) or on
/// a folder tile, which takes them into its collection and springs open while content hovers
/// (SP1) or on a double click (SP2). Every drop is one store transaction with its undo.
@MainActor
final class StoreGridView {
    let store: ShowcaseStore
    let itemType: ContentType
    let noun: Noun
    private(set) var collection: ShowcaseCollection
    private(set) var items: [ShowcaseItem] = []
    private(set) var selection: [ItemID] = []
    /// Selection mode (Photos' Select button): a plain click toggles a tile (M1).
    var isSelectionMode = false
    var onDropCommitted: (@MainActor (_ ids: [ItemID]) -> Void)?
    var onSelectionChanged: (@MainActor () -> Void)?
    var onError: (@MainActor (String) -> Void)?
    /// A folder tile opened: `duringDrag` when it sprang open under a drag.
    var onOpenFolder: (@MainActor (_ folder: ShowcaseItem, _ duringDrag: Bool) -> Void)?

    private unowned let host: GtkDragHost
    private let root: GObjectRef
    private let heading: UnsafeMutablePointer<GtkWidget>
    private let flowBox: GObjectRef
    private var tiles: [(id: ItemID, child: GObjectRef)] = []
    private var window: TargetID?
    private var tilesRegistered = false
    private var rebuilding = false
    private var insertionShown: (child: GObjectRef, cssClass: String)?

    var widget: UnsafeMutablePointer<GtkWidget> { root.widget }
    var containerID: TargetID { collection.targetID }
    private var box: OpaquePointer { OpaquePointer(flowBox.raw) }

    init(
        collection: ShowcaseCollection, store: ShowcaseStore, host: GtkDragHost, itemType: ContentType, noun: Noun,
        columns: UInt32 = 5
    ) {
        self.collection = collection
        self.store = store
        self.host = host
        self.itemType = itemType
        self.noun = noun
        root = GObjectRef(newWidget: UI.box(GTK_ORIENTATION_VERTICAL, spacing: 6))
        heading = UI.label(collection.name, selectable: true, css: ["sc-list-title"])
        UI.append(root.widget, heading)
        flowBox = GObjectRef(newWidget: gtk_flow_box_new())
        gtk_flow_box_set_selection_mode(box, GTK_SELECTION_MULTIPLE)
        gtk_flow_box_set_activate_on_single_click(box, 0)
        gtk_flow_box_set_homogeneous(box, 1)
        gtk_flow_box_set_min_children_per_line(box, columns)
        gtk_flow_box_set_max_children_per_line(box, columns)
        gtk_flow_box_set_row_spacing(box, 8)
        gtk_flow_box_set_column_spacing(box, 8)
        gtk_widget_set_valign(flowBox.widget, GTK_ALIGN_START)
        dd_accessible_set_label(dd_accessible(flowBox.raw), collection.name)
        UI.append(root.widget, flowBox.widget)
        gtk_widget_set_hexpand(root.widget, 1)
        Self.installCSS(root.widget)
        GSignal.connect(flowBox.raw, "selected-children-changed") { [weak self] in self?.selectionChanged() }
        GSignal.connect(flowBox.raw, "child-activated", pointer: { [weak self] child in self?.activated(child) })
    }

    private static var cssInstalled = false

    /// The tiles' style, once per process (the showcase has one display).
    private static func installCSS(_ widget: UnsafeMutablePointer<GtkWidget>) {
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

    func register(in window: TargetID) {
        guard self.window == nil else { return }
        var container = DragTarget(id: containerID, name: collection.name, frame: .zero, parent: window)
        container.accepts = [itemType]
        container.insertion = .grid
        container.operationPolicy = .preferMove
        container.clipsChildren = true
        do {
            try host.register(flowBox.widget, as: container, delegate: self)
        } catch {
            onError?("\(error)")
            return
        }
        self.window = window
        reloadAndRegisterTiles(selecting: nil)
    }

    func unregister() {
        guard window != nil else { return }
        host.unregister(containerID)
        window = nil
        tilesRegistered = false
    }

    func unregisterTiles() {
        guard tilesRegistered else { return }
        for (id, _) in tiles { host.unregister(ShowcaseTargets.item(id)) }
        tilesRegistered = false
    }

    func reloadAndRegisterTiles(selecting ids: [ItemID]?) {
        unregisterTiles()
        do {
            items = try store.items(in: collection.id ?? 0)
        } catch {
            onError?("Could not read \(collection.name): \(error)")
        }
        let wanted = Set(ids ?? selection)
        selection = items.compactMap(\.id).filter(wanted.contains)
        buildTiles()
        guard window != nil else { return }
        for (item, (_, child)) in zip(items, tiles) {
            var target = DragTarget(id: item.targetID, name: item.title, frame: .zero, parent: containerID)
            target.kind = noun
            target.offers = [itemType, .utf8PlainText]
            if item.kind == .folder {
                target.accepts = [itemType]
                target.operationPolicy = .preferMove
                target.springLoading = SpringLoadingConfiguration()
            }
            do { try host.register(child.widget, as: target, delegate: self) } catch { onError?("\(error)") }
        }
        tilesRegistered = true
    }

    /// Shows another collection (the folder opened).
    func show(_ collection: ShowcaseCollection) {
        let window = self.window
        unregister()
        self.collection = collection
        selection = []
        UI.setText(heading, collection.name)
        dd_accessible_set_label(dd_accessible(flowBox.raw), collection.name)
        if let window { register(in: window) } else { reloadAndRegisterTiles(selecting: []) }
    }

    private func buildTiles() {
        rebuilding = true
        defer { rebuilding = false }
        for (_, child) in tiles { gtk_flow_box_remove(box, child.widget) }
        insertionShown = nil
        tiles = items.map { item in
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
            gtk_flow_box_append(box, child.widget)
            if let id = item.id, selection.contains(id) {
                gtk_flow_box_select_child(box, child.pointer(to: GtkFlowBoxChild.self))
            }
            return (item.id ?? 0, child)
        }
    }

    private func selectionChanged() {
        guard !rebuilding else { return }
        var selected: Set<ItemID> = []
        for (id, child) in tiles where gtk_flow_box_child_is_selected(child.pointer(to: GtkFlowBoxChild.self)) != 0 {
            selected.insert(id)
        }
        if isSelectionMode, selected.count == 1, let clicked = selected.first {
            // A plain click replaced the selection: in selection mode it toggles the tile instead.
            var toggled = Set(selection)
            if toggled.contains(clicked) { toggled.remove(clicked) } else { toggled.insert(clicked) }
            selected = toggled
            applySelection(selected)
        }
        selection = items.compactMap(\.id).filter(selected.contains)
        onSelectionChanged?()
    }

    private func applySelection(_ ids: Set<ItemID>) {
        rebuilding = true
        defer { rebuilding = false }
        for (id, child) in tiles {
            if ids.contains(id) {
                gtk_flow_box_select_child(box, child.pointer(to: GtkFlowBoxChild.self))
            } else {
                gtk_flow_box_unselect_child(box, child.pointer(to: GtkFlowBoxChild.self))
            }
        }
    }

    private func activated(_ child: UnsafeMutableRawPointer?) {
        guard let child, let index = tiles.firstIndex(where: { $0.child.raw == child }) else { return }
        let item = items[index]
        if item.kind == .folder { onOpenFolder?(item, false) }
    }

    func tileFrames() -> [(title: String, frame: Rect)]? {
        var frames: [(String, Rect)] = []
        for item in items {
            guard let frame = host.frameInWindow(of: item.targetID), frame.height > 0 else { return nil }
            frames.append((item.title, frame))
        }
        return frames
    }

    func frame() -> Rect? { host.frameInWindow(of: containerID) }
}

extension StoreGridView: GtkSpringLoadingDelegate {
    func dragHost(_ host: GtkDragHost, itemsForDragStartingAt item: TargetID) -> [TargetID] {
        guard let id = ShowcaseTargets.itemID(item), selection.contains(id) else { return [item] }
        return selection.map(ShowcaseTargets.item)
    }

    func dragHost(_ host: GtkDragHost, insertionIndexIn container: TargetID, at point: Point?) -> Int? {
        guard container == containerID else { return nil }
        guard let point else { return items.count }
        let frames = items.map { host.engine.registry.target($0.targetID)?.frame ?? .zero }
        return InsertionIndex.compute(layout: .grid, frames: frames, point: point)
    }

    func dragHost(_ host: GtkDragHost, perform drop: DropRequest) -> DropResult {
        if let folder = ShowcaseTargets.itemID(drop.destination),
            drop.items.contains(where: { ShowcaseTargets.itemID($0.id) == folder })
        {
            return .failed(DropFailure(.failed, "A folder cannot go into itself."))
        }
        return ShowcaseDrops.perform(drop, store: store, host: host) { [weak self] ids in self?.onDropCommitted?(ids) }
    }

    func dragHost(_ host: GtkDragHost, removeMovedItems items: [DragItem], after drop: DropRequest)
        -> UndoableAction?
    {
        store.removeMovedItems(items, after: drop)
    }

    func dragHost(_ host: GtkDragHost, itemProviderFor item: TargetID) -> ItemProvider? {
        guard let title = items.first(where: { $0.targetID == item })?.title else { return nil }
        return ItemProvider(app: host.engine.app, representations: [.text(.utf8PlainText, title)])
    }

    func dragHost(_ host: GtkDragHost, exportedRepresentationsFor ids: [TargetID]) -> [ExportedRepresentation] {
        [.text(ids.compactMap { id in items.first { $0.targetID == id }?.title }.joined(separator: "\n"))]
    }

    func dragHost(_ host: GtkDragHost, showInsertionAt index: Int?, in container: TargetID) {
        if let shown = insertionShown {
            gtk_widget_remove_css_class(shown.child.widget, shown.cssClass)
            insertionShown = nil
        }
        guard container == containerID, let index, !tiles.isEmpty else { return }
        let shown =
            index < tiles.count
            ? (tiles[index].child, "dd-grid-insert-before") : (tiles[tiles.count - 1].child, "dd-grid-insert-after")
        gtk_widget_add_css_class(shown.0.widget, shown.1)
        insertionShown = shown
    }

    func dragHost(_ host: GtkDragHost, activate target: TargetID, explicit: Bool) {
        guard let item = items.first(where: { $0.targetID == target }), item.kind == .folder else { return }
        onOpenFolder?(item, true)
    }
}
