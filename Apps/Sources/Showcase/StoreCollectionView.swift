import CGtk4
import DragDrop
import DragDropGTK
import Foundation
import ShowcaseModel

/// One store collection in a ``DragCollectionView``: the view does the list or grid (selection
/// and several-item drags, M1; rows making room and insertion, F8; spring-loaded folders, SP1;
/// autoscroll, A1; the edit menu, C1, C4, K2; keyboard dragging), and this adapter is its data
/// source over ``ShowcaseStore``: every drop one store transaction with its undo (S4, U1).
///
/// The items are the database's: the adapter reads the collection's ids (one small query, even
/// for 100,000 items) and the rows on screen a page at a time, never the whole collection as
/// objects. A drop goes to ``ShowcaseStore/perform(_:app:newItems:)``, Delete to the store, and
/// the pane reloads every view it shows afterwards, so what is on screen is what is saved.
/// Items are the targets `item-<id>` (ids survive moves, undo and redo).
///
/// ``StoreListView`` (rows) and ``StoreGridView`` (tiles) choose the layout.
@MainActor
class StoreCollectionView: DragCollectionDataSource {
    let store: ShowcaseStore
    /// The type items offer and the collection accepts.
    let itemType: ContentType
    /// How announcements and undo names count the items ("Move 2 Reminders").
    let noun: Noun
    private(set) var collection: ShowcaseCollection
    /// The store changed through this view (a drop on it, an edit from its menu); the pane
    /// reloads its views and selects `ids` where they are.
    var onStoreChanged: (@MainActor (_ ids: [ItemID]) -> Void)?
    /// The selection changed (by a click or a key).
    var onSelectionChanged: (@MainActor () -> Void)?
    /// A problem to show the user (the store could not be read or written).
    var onError: (@MainActor (String) -> Void)?
    /// An item's data for drags, when the pane has more than its title (a photo's image).
    var makeProvider: (@MainActor (ShowcaseItem) -> ItemProvider?)?
    /// An item's picture on its tile (a photo's thumbnail), when the pane has one.
    var makeThumbnail: (@MainActor (ShowcaseItem) -> DragCollectionView.Thumbnail?)?
    /// A folder tile opened: `duringDrag` when it sprang open under a drag (SP1), else by a
    /// double click or Return (SP2).
    var onOpenFolder: (@MainActor (_ folder: ShowcaseItem, _ duringDrag: Bool) -> Void)?
    /// Selection mode (Photos' Select button): a plain click toggles an item (M1).
    var isSelectionMode = false {
        didSet { view?.isSelectionMode = isSelectionMode }
    }

    unowned let host: GtkDragHost
    private let root: GObjectRef
    private let heading: UnsafeMutablePointer<GtkWidget>
    /// The list or grid showing the collection (made by ``start()``, once the subclass can say
    /// its options).
    private(set) var view: DragCollectionView!
    private var window: TargetID?
    /// The items' ids in order, as last read from the store.
    private(set) var ids: [ItemID] = []
    /// Items read for the rows on screen, by page of ``pageSize`` positions.
    private var pages: [Int: [ShowcaseItem]] = [:]
    private let pageSize = 128

    /// The view's root widget (title and items).
    var widget: UnsafeMutablePointer<GtkWidget> { root.widget }
    /// The container's target id.
    var containerID: TargetID { view.id }
    /// Whether the view's targets are registered with the host.
    var isRegistered: Bool { window != nil }
    /// The number of items.
    var count: Int { ids.count }
    /// The selected items' ids, in collection order.
    var selection: [ItemID] { view.selection.compactMap(ShowcaseTargets.itemID) }
    /// The selected items' titles, in collection order.
    var selectedTitles: [String] { view.selection.compactMap { view.dragHost(host, nameOfItem: $0, in: view.id) } }
    /// Every item, read from the store now (for small collections).
    var items: [ShowcaseItem] { (try? store.items(in: collection.id ?? 0)) ?? [] }
    /// The titles of the items as last reloaded, in order: what the view shows (a pane's state
    /// line; a change in the store shows once the pane reloaded).
    var shownTitles: [String] { ids.indices.map(title(at:)) }

    init(collection: ShowcaseCollection, store: ShowcaseStore, host: GtkDragHost, itemType: ContentType, noun: Noun) {
        self.collection = collection
        self.store = store
        self.host = host
        self.itemType = itemType
        self.noun = noun
        root = GObjectRef(newWidget: UI.box(GTK_ORIENTATION_VERTICAL, spacing: 6))
        heading = UI.label(collection.name, selectable: true, css: ["sc-list-title"])
        UI.append(root.widget, heading)
        gtk_widget_set_hexpand(root.widget, 1)
    }

    /// Builds the first view: call at the end of a subclass's `init`.
    func start() {
        view = makeView()
    }

    // MARK: What subclasses provide

    /// The container's target id for `collection`.
    func containerID(for collection: ShowcaseCollection) -> TargetID { collection.targetID }

    /// The view's options for `collection`.
    func options(for collection: ShowcaseCollection) -> DragCollectionView.Options {
        var options = DragCollectionView.Options(itemType: itemType, kind: noun)
        options.showsHeading = false
        options.operationPolicy = .preferMove
        options.itemsMovable = !collection.flags.contains(.readOnly)
        return options
    }

    private func makeView() -> DragCollectionView {
        let view = DragCollectionView(
            id: containerID(for: collection), title: collection.name, host: host, options: options(for: collection))
        view.dataSource = self
        view.isSelectionMode = isSelectionMode
        view.editing.delete = !collection.flags.contains(.readOnly)
        view.onSelectionChanged = { [weak self] in self?.onSelectionChanged?() }
        UI.append(root.widget, view.widget)
        return view
    }

    // MARK: Registration and reloading

    /// Registers the collection inside the window target `window` and reads its items.
    func register(in window: TargetID) {
        guard self.window == nil else { return }
        do {
            try view.register(in: window)
        } catch {
            onError?("\(error)")
            return
        }
        self.window = window
        reload(selecting: nil)
    }

    /// Unregisters the collection and its rows.
    func unregister() {
        guard window != nil else { return }
        view.unregister()
        window = nil
    }

    /// Reads the items from the store and shows what changed. `selecting`: the ids to select
    /// (nil keeps the selection).
    func reload(selecting ids: [ItemID]?) {
        let old = self.ids
        do {
            self.ids = try store.itemIDs(in: collection.id ?? 0)
        } catch {
            onError?(Sentence.explaining("Could not read \(collection.name)", error))
        }
        pages = [:]
        let selecting = ids?.map(ShowcaseTargets.item)
        if viewShowsIDs {
            // What changed, from the database's ids (integers): the view splices only that,
            // without reading 100,000 target ids and comparing them (All Mail).
            view.applyChanges(DragCollectionView.changes(from: old, to: self.ids), selecting: selecting)
        } else {
            view.reloadData(selecting: selecting)
            viewShowsIDs = true
        }
    }

    /// Whether the view's rows are ``ids`` (not since ``show(_:)`` switched collections).
    private var viewShowsIDs = false

    /// Shows another collection in this view (a mailbox picked in the sidebar, a folder opened).
    func show(_ collection: ShowcaseCollection) {
        let window = self.window
        unregister()
        self.collection = collection
        UI.setText(heading, collection.name)
        ids = []
        pages = [:]
        viewShowsIDs = false
        view.show(id: containerID(for: collection), title: collection.name, options: options(for: collection))
        view.editing.delete = !collection.flags.contains(.readOnly)
        if let window { register(in: window) } else { reload(selecting: []) }
    }

    /// Selects exactly `ids`.
    func select(_ ids: Set<ItemID>) { view.select(ids.map(ShowcaseTargets.item)) }

    /// Scrolls so the item `id` shows.
    func scrollTo(_ id: ItemID) { view.scrollTo(ShowcaseTargets.item(id)) }

    // MARK: Frames

    /// The frames of the items on screen (rows GTK made a widget for, inside the view), in
    /// window coordinates and collection order; nil before layout. Rows scrolled away have no
    /// widget and no frame: scroll to an item first to point at it.
    func elementFrames() -> [(title: String, frame: Rect)]? {
        guard let container = frame(), container.height > 0 else { return nil }
        var frames: [(position: Int, title: String, frame: Rect)] = []
        for (position, id) in view.boundItems {
            guard let frame = host.frameInWindow(of: id), frame.height > 0,
                frame.midY > container.minY, frame.midY < container.maxY,
                let title = title(ofItemAt: position)
            else { continue }
            frames.append((position, title, frame))
        }
        if frames.isEmpty && !ids.isEmpty { return nil }
        return frames.sorted { $0.position < $1.position }.map { ($0.title, $0.frame) }
    }

    /// The container's frame in window coordinates.
    func frame() -> Rect? { host.frameInWindow(of: containerID) }

    // MARK: DragCollectionDataSource

    var numberOfItems: Int { ids.count }

    func itemID(at index: Int) -> TargetID { ShowcaseTargets.item(ids[index]) }

    func title(at index: Int) -> String { item(at: index)?.title ?? "" }

    /// The item at `index`, read with its page.
    func item(at index: Int) -> ShowcaseItem? {
        guard index >= 0, index < ids.count else { return nil }
        let page = index / pageSize
        if pages[page] == nil {
            if pages.count > 64 { pages = [:] }
            // By id: the page's ids are known, and a read by key costs the same far down a
            // collection of 100,000 as at its top.
            let start = page * pageSize
            pages[page] = (try? store.items(Array(ids[start..<min(ids.count, start + pageSize)]))) ?? []
        }
        let items = pages[page] ?? []
        let offset = index - page * pageSize
        guard offset < items.count, items[offset].id == ids[index] else {
            // The store changed under the page: read the one item.
            return (try? store.item(ids[index])) ?? nil
        }
        return items[offset]
    }

    private func title(ofItemAt index: Int) -> String? { item(at: index)?.title }

    func collectionView(_ view: DragCollectionView, perform drop: DropRequest, at index: Int) -> DropResult {
        ShowcaseDrops.perform(drop, store: store, host: host) { [weak self] ids in self?.onStoreChanged?(ids) }
    }

    func collectionView(_ view: DragCollectionView, removeMovedItems items: [DragItem], after drop: DropRequest)
        -> UndoableAction?
    {
        // The store moved both sides in the drop's one transaction (S4 without a moment where
        // the item is in both places); its undo restores both.
        store.removeMovedItems(items, after: drop)
    }

    /// Another app took items with a move (the person held Shift, S2): they leave the store, in
    /// one transaction. Not undoable (the engine's history says so): the other app owns them.
    func collectionView(_ view: DragCollectionView, itemsMovedToOtherApp items: [DragItem], app: AppID?)
        -> [TargetID]
    {
        let itemIDs = items.compactMap { ShowcaseTargets.itemID($0.id) }
        guard !itemIDs.isEmpty, !collection.flags.contains(.readOnly) else { return [] }
        do {
            _ = try store.remove(itemIDs)
        } catch {
            onError?(Sentence.explaining("Could not take out what moved to \(app?.rawValue ?? "the other app")", error))
            return []
        }
        host.scheduleUpdate(key: ShowcaseDropsKey.shared) { [weak self] in self?.onStoreChanged?([]) }
        return items.filter { ShowcaseTargets.itemID($0.id) != nil }.map(\.id)
    }

    func collectionView(_ view: DragCollectionView, itemProviderAt index: Int) -> ItemProvider? {
        guard let item = item(at: index) else { return nil }
        if let provider = makeProvider?(item) { return provider }
        return ItemProvider(app: host.engine.app, representations: [.text(.utf8PlainText, item.title)])
    }

    /// No detail line (grids show a folder's count).
    func detail(at index: Int) -> String? { nil }
    func thumbnail(at index: Int) -> DragCollectionView.Thumbnail? {
        guard let makeThumbnail, let item = item(at: index) else { return nil }
        return makeThumbnail(item)
    }
    /// No folders (grids have folder tiles).
    func isFolder(at index: Int) -> Bool { false }
    /// No folders (``StoreGridView`` has them).
    func indexOfFolder(after index: Int?, forward: Bool) -> Int? { nil }
    func collectionView(_ view: DragCollectionView, perform drop: DropRequest, intoFolderAt index: Int)
        -> DropResult
    {
        .failed(DropFailure(.forbidden, "\(title(at: index)) takes nothing."))
    }
    func collectionView(_ view: DragCollectionView, openFolderAt index: Int, duringDrag: Bool) {}

    /// Deletes the items in one store transaction: one undo step ("Delete 2 Reminders").
    func collectionView(_ view: DragCollectionView, deleteItems ids: [TargetID]) -> (
        name: String, action: UndoableAction
    )? {
        let itemIDs = ids.compactMap(ShowcaseTargets.itemID)
        guard !itemIDs.isEmpty, !collection.flags.contains(.readOnly) else { return nil }
        do {
            let edit = try store.remove(itemIDs)
            host.scheduleUpdate(key: ShowcaseDropsKey.shared) { [weak self] in self?.onStoreChanged?([]) }
            return (edit.name, edit.action)
        } catch {
            onError?(Sentence.explaining(words("Could not delete"), error))
            return nil
        }
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
