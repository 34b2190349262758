import CGtk4
import DragDrop
import DragDropGTK
import Foundation
import ShowcaseModel

/// A list of one store collection's items (reminders, messages): rows drag out (the selection
/// when the pressed row is selected, M1), and, when the list accepts drops, rows make room where
/// a drop lands (F8) and the drop is one store transaction with its undo (S4, U1).
///
/// Unlike `DragListView`, which keeps its rows in memory, the rows here are the database's:
/// the list never edits them itself. A drop goes to ``ShowcaseStore/perform(_:app:newItems:)``
/// (the move of both sides in one transaction), and the pane reloads every list it shows from
/// the store afterwards, so what is on screen is what is saved.
///
/// Rows are the targets `item-<id>` (ids survive moves, undo and redo); the list is
/// `collection-<id>` unless the pane names it otherwise.
@MainActor
final class StoreListView {
    struct Options {
        /// The list's target id; nil: the collection's (`collection-7`).
        var containerID: TargetID? = nil
        /// The type rows offer and the list accepts.
        var itemType: ContentType
        /// How announcements and undo names count the rows ("Move 2 Reminders").
        var noun: Noun
        /// Whether the list is a drop destination (with rows making room).
        var acceptsDrops = true
        /// Whether rows can be dragged out.
        var draggable = true
        /// What drops from other lists do (S2): reminders move between lists.
        var operationPolicy: OperationPolicy = .preferMove
        /// Shown when the list is empty.
        var emptyText = "Nothing Here"
    }

    let store: ShowcaseStore
    let options: Options
    private(set) var collection: ShowcaseCollection
    /// The rows, in order, as last read from the store.
    private(set) var items: [ShowcaseItem] = []
    /// The selected rows' item ids, in list order.
    private(set) var selection: [ItemID] = []
    /// A drop on this list committed; the pane reloads its lists and selects `ids` where they are.
    var onDropCommitted: (@MainActor (_ ids: [ItemID]) -> Void)?
    /// The selection changed (by a click).
    var onSelectionChanged: (@MainActor () -> Void)?
    /// A problem to show the user (the store could not be read).
    var onError: (@MainActor (String) -> Void)?

    private unowned let host: GtkDragHost
    private let root: GObjectRef
    private let heading: UnsafeMutablePointer<GtkWidget>
    private let listBox: GObjectRef
    private var rows: [(id: ItemID, row: GObjectRef)] = []
    private var window: TargetID?
    private var rowsRegistered = false
    private var rebuilding = false
    private var insertionShown: (row: GObjectRef, cssClass: String)?

    /// The list's root widget (title and rows).
    var widget: UnsafeMutablePointer<GtkWidget> { root.widget }
    /// The list's target id.
    var containerID: TargetID { options.containerID ?? collection.targetID }
    /// Whether the list's targets are registered with the host.
    var isRegistered: Bool { window != nil }

    init(collection: ShowcaseCollection, store: ShowcaseStore, host: GtkDragHost, options: Options) {
        self.collection = collection
        self.store = store
        self.host = host
        self.options = options
        root = GObjectRef(newWidget: UI.box(GTK_ORIENTATION_VERTICAL, spacing: 6))
        heading = UI.label(collection.name, selectable: true, css: ["sc-list-title"])
        UI.append(root.widget, heading)
        listBox = GObjectRef(newWidget: gtk_list_box_new())
        let list = dd_list_box(listBox.raw)
        gtk_list_box_set_selection_mode(list, GTK_SELECTION_MULTIPLE)
        // A click selects one row, Ctrl-click toggles, Shift-click extends (as in DragListView).
        gtk_list_box_set_activate_on_single_click(list, 0)
        gtk_list_box_set_placeholder(list, UI.label(options.emptyText, xalign: 0.5, css: ["dim-label"]))
        gtk_widget_add_css_class(listBox.widget, "boxed-list")
        gtk_widget_set_vexpand(listBox.widget, 1)
        gtk_widget_set_valign(listBox.widget, GTK_ALIGN_FILL)
        dd_accessible_set_label(dd_accessible(listBox.raw), collection.name)
        UI.append(root.widget, listBox.widget)
        gtk_widget_set_hexpand(root.widget, 1)
        GSignal.connect(listBox.raw, "selected-rows-changed") { [weak self] in self?.selectionChanged() }
    }

    // MARK: Registration and reloading

    /// Registers the list inside the window target `window`, then reads and registers its rows.
    func register(in window: TargetID) {
        guard self.window == nil else { return }
        var container = DragTarget(id: containerID, name: collection.name, frame: .zero, parent: window)
        if options.acceptsDrops {
            container.accepts = [options.itemType]
            container.insertion = .vertical
            container.operationPolicy =
                collection.flags.contains(.readOnly)
                ? .forbidden(reason: "\(collection.name) is read-only.") : options.operationPolicy
        }
        container.clipsChildren = true
        do {
            try host.register(listBox.widget, as: container, delegate: self)
        } catch {
            onError?("\(error)")
            return
        }
        self.window = window
        reloadAndRegisterRows(selecting: nil)
    }

    /// Unregisters the list and its rows.
    func unregister() {
        guard window != nil else { return }
        host.unregister(containerID)
        window = nil
        rowsRegistered = false
    }

    /// Unregisters the rows only: the first half of a reload. A pane unregisters the rows of all
    /// its lists before any list registers again, because a moved item keeps its target id.
    func unregisterRows() {
        guard rowsRegistered else { return }
        for (id, _) in rows { host.unregister(ShowcaseTargets.item(id)) }
        rowsRegistered = false
    }

    /// Reads the rows from the store, rebuilds them and registers them again (when the list is
    /// registered). `selecting`: the ids to select (nil keeps the selection).
    func reloadAndRegisterRows(selecting ids: [ItemID]?) {
        unregisterRows()
        do {
            items = try store.items(in: collection.id ?? 0)
        } catch {
            onError?("Could not read \(collection.name): \(error)")
        }
        let wanted = Set(ids ?? selection)
        selection = items.compactMap(\.id).filter(wanted.contains)
        buildRows()
        guard window != nil else { return }
        for (item, (_, row)) in zip(items, rows) {
            var target = DragTarget(id: item.targetID, name: item.title, frame: .zero, parent: containerID)
            target.kind = options.noun
            if options.draggable && !collection.flags.contains(.readOnly) {
                target.offers = [options.itemType, .utf8PlainText]
            }
            do { try host.register(row.widget, as: target, delegate: self) } catch { onError?("\(error)") }
        }
        rowsRegistered = true
    }

    /// Shows another collection in this list (a mailbox picked in the sidebar).
    func show(_ collection: ShowcaseCollection) {
        let window = self.window
        unregister()
        self.collection = collection
        selection = []
        UI.setText(heading, collection.name)
        dd_accessible_set_label(dd_accessible(listBox.raw), collection.name)
        if let window { register(in: window) } else { reloadAndRegisterRows(selecting: []) }
    }

    // MARK: Rows

    private func buildRows() {
        rebuilding = true
        defer { rebuilding = false }
        let list = dd_list_box(listBox.raw)
        for (_, row) in rows { gtk_list_box_remove(list, row.widget) }
        insertionShown = nil
        rows = items.map { item in
            let row = GObjectRef(newWidget: gtk_list_box_row_new())
            let label = UI.label(item.title)
            UI.margins(label, 10)
            gtk_widget_set_margin_start(label, 12)
            gtk_list_box_row_set_child(dd_list_box_row(row.raw), label)
            gtk_widget_add_css_class(row.widget, "dd-row")
            gtk_list_box_append(list, row.widget)
            if let id = item.id, selection.contains(id) {
                gtk_list_box_select_row(list, dd_list_box_row(row.raw))
            }
            return (item.id ?? 0, row)
        }
    }

    private func selectionChanged() {
        guard !rebuilding else { return }
        var selected: Set<ItemID> = []
        for (id, row) in rows where gtk_list_box_row_is_selected(dd_list_box_row(row.raw)) != 0 { selected.insert(id) }
        selection = items.compactMap(\.id).filter(selected.contains)
        onSelectionChanged?()
    }

    /// Row frames in window coordinates, in order (nil before layout).
    func rowFrames() -> [(title: String, frame: Rect)]? {
        var frames: [(String, Rect)] = []
        for item in items {
            guard let frame = host.frameInWindow(of: item.targetID), frame.height > 0 else { return nil }
            frames.append((item.title, frame))
        }
        return frames
    }

    /// The list's frame in window coordinates.
    func frame() -> Rect? { host.frameInWindow(of: containerID) }
}

extension StoreListView: GtkDragHostDelegate {
    func dragHost(_ host: GtkDragHost, itemsForDragStartingAt item: TargetID) -> [TargetID] {
        guard let id = ShowcaseTargets.itemID(item), selection.contains(id) else { return [item] }
        return selection.map(ShowcaseTargets.item)
    }

    func dragHost(_ host: GtkDragHost, insertionIndexIn container: TargetID, at point: Point?) -> Int? {
        guard let point else { return items.count }
        let frames = items.map { host.engine.registry.target($0.targetID)?.frame ?? .zero }
        return InsertionIndex.compute(layout: .vertical, frames: frames, point: point)
    }

    func dragHost(_ host: GtkDragHost, perform drop: DropRequest) -> DropResult {
        ShowcaseDrops.perform(drop, store: store, host: host) { [weak self] ids in self?.onDropCommitted?(ids) }
    }

    func dragHost(_ host: GtkDragHost, removeMovedItems items: [DragItem], after drop: DropRequest)
        -> UndoableAction?
    {
        // The store moved both sides in the drop's one transaction (S4 without a window where
        // the item is in both places); its undo restores both.
        store.removeMovedItems(items, after: drop)
    }

    func dragHost(_ host: GtkDragHost, itemProviderFor item: TargetID) -> ItemProvider? {
        guard let title = items.first(where: { $0.targetID == item })?.title else { return nil }
        return ItemProvider(app: host.engine.app, representations: [.text(.utf8PlainText, title)])
    }

    func dragHost(_ host: GtkDragHost, exportedRepresentationsFor ids: [TargetID]) -> [ExportedRepresentation] {
        let titles = ids.compactMap { id in items.first { $0.targetID == id }?.title }
        return [.text(titles.joined(separator: "\n"))]
    }

    func dragHost(_ host: GtkDragHost, showInsertionAt index: Int?, in container: TargetID) {
        if let shown = insertionShown {
            gtk_widget_remove_css_class(shown.row.widget, shown.cssClass)
            insertionShown = nil
        }
        guard let index, !rows.isEmpty else { return }
        let shown =
            index < rows.count ? (rows[index].row, "dd-insert-before") : (rows[rows.count - 1].row, "dd-insert-after")
        gtk_widget_add_css_class(shown.0.widget, shown.1)
        insertionShown = shown
    }
}

/// Drops into the store, shared by the panes.
@MainActor
enum ShowcaseDrops {
    /// Performs `drop` in one store transaction. On commit, `committed` gets the ids of the
    /// app's own items that were dropped (a move keeps them; the pane selects them).
    static func perform(
        _ drop: DropRequest, store: ShowcaseStore, host: GtkDragHost, committed: @escaping @MainActor ([ItemID]) -> Void
    ) -> DropResult {
        let result = store.perform(drop, app: host.engine.app)
        if case .committed = result {
            let ids = drop.operation == .move ? drop.items.compactMap { ShowcaseTargets.itemID($0.id) } : []
            // After the engine call returns: the engine may still read its registry now.
            host.scheduleUpdate(key: ShowcaseDropsKey.shared) { committed(ids) }
        }
        return result
    }
}

/// The coalescing key of the reload scheduled after a drop.
final class ShowcaseDropsKey: Sendable {
    static let shared = ShowcaseDropsKey()
}
