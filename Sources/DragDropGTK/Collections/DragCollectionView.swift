import CDragDropGTKSupport
import CGtk4
import DragDrop

/// A virtualized list or grid over the app's own storage (``DragCollectionDataSource``): a
/// `GtkListView` or `GtkGridView` whose rows exist only for the items on screen, with every drag
/// and drop behaviour of ``DragListView`` and ``DragGridView``, for collections of any size (a
/// folder of 100,000 files, a mailbox of 100,000 messages).
///
/// How the engine sees it: the view is one container target (insertion layout, autoscroll,
/// `DragTarget/modelItems`), and only the rows on screen are registered, as GTK binds them to
/// items and unregistered as it unbinds them; a recycled row's drag source drags the item bound
/// now. A selection reaching rows scrolled out of view still drags whole (M1): those items are
/// named and typed through the container. Insertion indexes, rows making room, keyboard drop
/// points and announcements come from the model (positions and the row pitch), not from
/// widgets, and the selection lives in the view by item identifier, so it survives scrolling.
///
/// - Selection (M1): click, Ctrl-click, Shift-click, the arrow keys; ``isSelectionMode`` makes
///   a plain click toggle (grids). A drag from a selected row carries the whole selection.
/// - Drops (F8): between rows (a list) or tiles (a grid), where rows make room; on folder tiles,
///   which spring open (SP1) or open on a double click (SP2); placeholders with progress while
///   a deferred drop loads (A4).
/// - Autoscroll (A1) near the top and bottom edges, faster nearer the edge.
/// - Edit menu (C1, C4, K2): Undo, Redo, Cut, Copy, Paste, Delete, Move To…, Copy To…, Select
///   All, each only when it applies; one Tab stop, arrows inside (C4).
///
/// ```swift
/// let files = DragCollectionView(
///     id: "archive", title: "Archive", host: host,
///     options: .init(itemType: "application/x-file", kind: Noun("file")))
/// files.dataSource = folder          // a DragCollectionDataSource over the folder's listing
/// gtk_box_append(box, files.widget)
/// try files.register(in: "main")
/// ```
@MainActor
public final class DragCollectionView: GtkDragRegistering {
    /// How the items are laid out.
    public enum Layout: Sendable, Equatable {
        /// Rows from top to bottom (`GtkListView`).
        case list
        /// Tiles in reading order, `columns` a row at most (`GtkGridView`).
        case grid(columns: Int)
    }

    /// What the collection is and does.
    public struct Options {
        /// The type items offer and the collection accepts.
        public var itemType: ContentType
        /// More types the items offer after ``itemType`` (plain text, for other apps).
        public var extraOffers: [ContentType] = [.utf8PlainText]
        /// More types the collection accepts besides ``itemType`` (drops from other apps).
        public var extraAccepts: [ContentType] = []
        /// How announcements and undo names count the items ("Move 2 Files").
        public var kind: Noun = .item
        /// Rows or tiles.
        public var layout: Layout = .list
        /// Whether the collection takes drops (between its items; into folder tiles).
        public var acceptsDrops = true
        /// Whether items can be dragged out.
        public var draggable = true
        /// Whether items may leave the collection: false for read-only content (Sent), whose
        /// items drag out as copies (S2, S4).
        public var itemsMovable = true
        /// What drops from elsewhere do (S2).
        public var operationPolicy: OperationPolicy = .automatic
        /// Whether the data source carries out another app's move itself (a folder renaming the
        /// other app's files into place), so that Shift moves what another app drags here
        /// (`DragTarget.takesMovesFromOtherApps`); the drop request's operation is then
        /// `.move` and the other app is told it moved.
        public var takesMovesFromOtherApps = false
        /// The question to confirm before a drop that cannot be undone (U2).
        public var confirmation: String?
        /// Whether a heading with the title shows above the items.
        public var showsHeading = true
        /// Shown when the collection is empty.
        public var emptyText = WidgetText.nothingHere
        /// The edit menu offers Move To… and Copy To… (keyboard drags of the selection, C4).
        public var offersMoveAndCopyTo = true
        /// A tile's size in a grid, in pixels.
        public var tileSize: (width: Int32, height: Int32) = (96, 64)
        /// The view is as tall as its rows and does not scroll itself: for a short collection
        /// inside an outer scroll view (every row then has a widget; keep it for small
        /// collections).
        public var growsWithContent = false
        /// Set for an outline's rows (``DragOutlineView``): drops land between rows at a depth or
        /// on a row that holds children (T1).
        public var outline: OutlineLayout?

        /// Options for a collection of items of `itemType`, counted as `kind`.
        public init(itemType: ContentType, kind: Noun = .item) {
            self.itemType = itemType
            self.kind = kind
        }
    }

    /// The container's target identifier.
    public private(set) var id: TargetID
    /// The heading and the collection's accessible name.
    public private(set) var title: String
    /// What the collection is and does.
    public private(set) var options: Options
    /// The storage behind the items (held weakly: the app owns it).
    public weak var dataSource: (any DragCollectionDataSource)? {
        // Another source: the rows still to show of the last one's change are its business no
        // more; the next reload compares the rows shown with the new source's.
        didSet { abandonPublishing() }
    }
    /// Selection mode (M1): a plain click toggles an item instead of selecting only it.
    public var isSelectionMode = false
    /// Called after the selection changed (by a click, a key, or a reload).
    public var onSelectionChanged: (@MainActor () -> Void)?
    /// Called after the rows changed (a reload, placeholders coming and going).
    public var onChange: (@MainActor () -> Void)?
    /// Called when a drag of the view's items is about to start (a grid watching Alt, M2).
    var onDragPrepared: (@MainActor () -> Void)?
    /// The outline this view shows the rows of (``Options/outline``).
    weak var outlineView: DragOutlineView?
    /// The row an outline's drop would go into (T1), highlighted.
    var outlineInto: TargetID?
    /// Whether the outline is the drop's destination now (its highlight shows unless a row takes the drop).
    var outlineTargeted = false
    /// The depth of the line an outline's drop between rows shows at.
    var outlineDepth = 0

    unowned let host: GtkDragHost
    let root: GObjectRef
    let scroller: GObjectRef
    /// The `GtkListView` or `GtkGridView`: the container target's widget.
    let itemsView: GObjectRef
    private let heading: UnsafeMutablePointer<GtkWidget>?
    private let emptyLabel: GObjectRef
    var model: OpaquePointer!

    /// The displayed rows: the data source's items with the placeholders of deferred drops
    /// among them (``rows`` is what the GTK model shows).
    var rows: [Row] = [] {
        // In place (no copy: the observer does not read the old value).
        didSet {
            positionCache = nil
            placeholderCache = nil
        }
    }
    /// A big change GTK has only partly been told of (DragCollectionView+Publishing.swift).
    var lag: Lag?
    /// The tick callback showing its next slice.
    var lagSource: guint = 0
    /// Where each item is in ``rows`` (built when first needed after a change).
    var positionCache: [TargetID: Int]?
    /// Where the placeholder rows are in ``rows``, in order (built when first needed after a
    /// change, while drops are pending).
    private var placeholderCache: [Int]?
    /// The selected items' identifiers.
    var selected: Set<TargetID> = []
    private var registeredParent: TargetID?
    /// The target the view is registered under; nil once it is unregistered, by
    /// ``unregister()`` or by the host (its window closed, its widget taken out of the window).
    var window: TargetID? { host.registered[id] != nil ? registeredParent : nil }
    /// The row widgets GTK made, by list item and by widget.
    var cells: [UInt: CollectionCell] = [:]
    var cellsByWidget: [UInt: CollectionCell] = [:]
    /// The bound row widgets showing items, by item.
    var boundByID: [TargetID: CollectionCell] = [:]
    /// The insertion shown (F8): a display position, or nil.
    var insertionShown: Int?
    /// Distance between two rows (lists) or two rows and two columns of tiles (grids), measured
    /// from the rows on screen outside drags: what places rows bound during a drag.
    var pitch = (x: 0.0, y: 0.0)
    /// The row other rows are placed from, and what it was found under (the cells' and GTK's
    /// layout generations): see `frameReference()`.
    var frameReferenceCache: (cells: Int, layout: Int, position: Int, itemID: TargetID)?
    /// The direction the view was registered with (L3): GTK mirrors a grid in a right-to-left
    /// layout, and the engine must read it the same way. Checked after each paint.
    var registeredDirection: LayoutDirection = .leftToRight
    /// Deferred drops and their placeholder rows (DragCollectionView+Placeholders.swift).
    var pending: [PendingDrop] = []
    /// Decides whether a drop between the items loads later (see ``defersDrop``).
    var deferral: (@MainActor (DropRequest) -> Bool)?
    var editMenu: EditMenu?
    /// What the edit menu offers besides Copy and Select All (see ``EditingOptions``).
    public var editing = EditingOptions()
    /// Whether the primary button is down on the items, and the item a press selected whose
    /// selection change waits for the release (a press on the selection may start a drag).
    var pointerDown = false
    var deferredClick: TargetID?
    /// The item whose row had the keyboard focus last, kept while the focus is in a menu (the
    /// toolbar's Move To… acts on it).
    var lastFocusedItem: TargetID?
    private var watchingFocus = false
    /// Rows waiting for another view to let their item's identifier go.
    /// Rows to register once GTK's pass is over (``registerLater(_:retrying:)``).
    private var laterCells: [(cell: CollectionCell, retrying: Bool)] = []
    private let laterKey = RetryKey()
    private final class RetryKey {}

    /// One displayed row.
    struct Row {
        /// The item's identifier, or a placeholder's (``placeholderID(_:_:)``).
        var id: TargetID
        /// The deferred drop a placeholder stands for (nil for an item).
        var placeholder: DropToken?
        /// Which of the drop's arriving items a placeholder stands for.
        var arriving: Int
    }

    /// The view's root widget (heading and items), to put in a window.
    public var widget: UnsafeMutablePointer<GtkWidget> { root.widget }
    /// Whether the view's targets are registered with the host.
    public var isRegistered: Bool { window != nil }
    /// The `GtkListView` or `GtkGridView` showing the items (the container target's widget, its
    /// own scrollable): for an app's styling, focus and measurements.
    public var itemsWidget: UnsafeMutablePointer<GtkWidget> { itemsView.widget }

    /// Creates an empty view; give it a ``dataSource`` and call ``reloadData(selecting:)``.
    public init(id: TargetID? = nil, title: String, host: GtkDragHost, options: Options) {
        self.id = id ?? GtkDragHost.uniqueID(title)
        self.title = title
        self.host = host
        self.options = options
        root = GObjectRef(newWidget: gtk_box_new(GTK_ORIENTATION_VERTICAL, 6))
        if options.showsHeading {
            let label = GtkWidgetSupport.heading(title)
            gtk_box_append(dd_box(root.raw), label)
            heading = label
        } else {
            heading = nil
        }
        scroller = GObjectRef(newWidget: gtk_scrolled_window_new())
        emptyLabel = GObjectRef(newWidget: gtk_label_new(options.emptyText))
        gtk_widget_add_css_class(emptyLabel.widget, "dim-label")
        // Selectable like every label (K3); it lets the pointer through to the list (drops).
        gtk_label_set_selectable(dd_label(emptyLabel.raw), 1)
        gtk_widget_set_visible(emptyLabel.widget, 0)
        let factory = gtk_signal_list_item_factory_new()!
        let weakSelf = WeakView()
        let box = Unmanaged.passRetained(weakSelf).toOpaque()
        var callbacks = DDCollectionModelCallbacks(
            n_items: { data in
                MainActor.assumeIsolated { WeakView.view(data)?.rows.count ?? 0 }.clamped
            },
            is_selected: { data, position in
                MainActor.assumeIsolated { WeakView.view(data)?.isSelected(position: Int(position)) ?? false } ? 1 : 0
            },
            change_selection: { data, change, position, count, unselectRest in
                MainActor.assumeIsolated {
                    WeakView.view(data)?.changeSelection(
                        change, position: Int(position), count: Int(count), unselectRest: unselectRest != 0) ?? false
                } ? 1 : 0
            },
            item_key: { data, position in
                let key = MainActor.assumeIsolated { () -> UInt in
                    guard let view = WeakView.view(data), Int(position) < view.rows.count else { return 0 }
                    // A key is a C string: an identifier holding NUL (a placeholder's) gets a
                    // new object every time.
                    let id = view.rows[Int(position)].id.rawValue
                    return id.utf8.contains(0) ? 0 : UInt(bitPattern: g_strdup(id))
                }
                return UnsafeMutablePointer(bitPattern: key)
            },
            bind: { data, item in MainActor.assumeIsolated { WeakView.view(data)?.bind(item) } },
            unbind: { data, item in MainActor.assumeIsolated { WeakView.view(data)?.unbind(item) } })
        let model: OpaquePointer = dd_collection_model_new(&callbacks, box) { data in
            guard let data else { return }
            Unmanaged<WeakView>.fromOpaque(data).release()
        }
        self.model = model
        // The views take the model's and the factory's references.
        switch options.layout {
        case .list:
            // The list draws the lines between its rows itself, all in one snapshot
            // (RowLines.c): a border drawn by every row cost GTK 4.8's cairo renderer 2-3 ms a
            // frame while scrolling. The rows keep a 1 px padding where the border was.
            var drawsLines: gboolean = 0
            itemsView = GObjectRef(
                newWidget: dd_list_view_new(model, factory, &drawsLines))
            gtk_widget_add_css_class(itemsView.widget, "dd-collection-list")
            if drawsLines != 0 { gtk_widget_add_css_class(itemsView.widget, "dd-drawn-lines") }
        case .grid(let columns):
            let grid = gtk_grid_view_new(model, factory)!
            itemsView = GObjectRef(newWidget: grid)
            gtk_grid_view_set_max_columns(OpaquePointer(grid), guint(max(1, columns)))
            gtk_grid_view_set_min_columns(OpaquePointer(grid), guint(max(1, columns)))
            gtk_widget_add_css_class(itemsView.widget, "dd-collection-grid")
        }
        gtk_widget_add_css_class(itemsView.widget, "dd-collection")
        // GtkListBase's own drag autoscroll (a drop motion controller scrolling while a drag is
        // within 15 px of an edge) ran on top of the engine's, and stops only on a drag-leave,
        // which a drop never sends: after a drop near the edge the list kept scrolling at about
        // 550 px/s, binding rows at 20 % CPU, until it hit the end (A1: scrolling stops when the
        // drag leaves). The engine does the scrolling.
        for controller in GtkWidgetSupport.controllers(of: itemsView.widget)
        where GtkWidgetSupport.isInstance(controller.raw, of: gtk_drop_controller_motion_get_type()) {
            gtk_widget_remove_controller(itemsView.widget, OpaquePointer(controller.raw))
        }
        dd_accessible_set_label(dd_accessible(itemsView.raw), title)
        let scrolled = dd_scrolled_window(scroller.raw)
        gtk_scrolled_window_set_child(scrolled, itemsView.widget)
        // Growing with its rows, the view asks for their whole height as its minimum (an outer
        // scroll view's viewport gives its child the minimum height; the natural one alone left
        // the rows scrolling inside and the outer view still).
        gtk_scrolled_window_set_policy(
            scrolled, GTK_POLICY_NEVER, options.growsWithContent ? GTK_POLICY_NEVER : GTK_POLICY_AUTOMATIC)
        if options.growsWithContent {
            gtk_scrolled_window_set_propagate_natural_height(scrolled, 1)
            // Nothing to scroll here: the wheel goes on to the outer scroll view (the scrolled
            // window's scroll controller took it even with nothing to scroll).
            for controller in GtkWidgetSupport.controllers(of: scroller.widget)
            where GtkWidgetSupport.isInstance(controller.raw, of: gtk_event_controller_scroll_get_type()) {
                gtk_widget_remove_controller(scroller.widget, OpaquePointer(controller.raw))
            }
        }
        gtk_widget_set_vexpand(scroller.widget, 1)
        gtk_widget_set_hexpand(scroller.widget, 1)
        let overlay = gtk_overlay_new()!
        gtk_overlay_set_child(dd_overlay(UnsafeMutableRawPointer(overlay)), scroller.widget)
        gtk_overlay_add_overlay(dd_overlay(UnsafeMutableRawPointer(overlay)), emptyLabel.widget)
        gtk_widget_set_can_target(emptyLabel.widget, 0)
        gtk_widget_set_vexpand(overlay, 1)
        gtk_box_append(dd_box(root.raw), overlay)
        gtk_widget_set_hexpand(root.widget, 1)
        gtk_widget_set_vexpand(root.widget, 1)
        GtkWidgetSupport.installCSS(Self.css, key: "dd-collection", for: root.widget)
        if let outline = options.outline {
            GtkWidgetSupport.installCSS(
                Self.outlineCSS(outline), key: "dd-outline-\(outline.indent)-\(outline.origin)", for: root.widget)
        }
        connectFactory(UnsafeMutableRawPointer(factory))
        GSignal.connect(itemsView.raw, "activate", uint: { [weak self] position in self?.activated(Int(position)) })
        weakSelf.view = self
        FocusNavigation.tabLeaves(itemsView.widget)
        installEditMenu()
        installPressTracking()
        GSignal.connect(itemsView.raw, "realize") { [weak self] in self?.watchFocus() }
        if id == nil { host.registerWhenPlaced(self) }
    }

    /// The model outlives the view when the list view does (a window closing releases the view
    /// before GTK disposes its widgets): it says its rows are gone, as it will count none from
    /// now on, so GTK takes its row widgets down in order (GTK 4.8 asserts when a list view is
    /// disposed while rows its model no longer counts still have widgets).
    isolated deinit {
        if let model, !rows.isEmpty { dd_collection_model_items_changed(model, 0, guint(rows.count), 0) }
    }

    // MARK: Registration

    /// Registers the collection inside the registered target `parent` (a window), then the rows
    /// on screen.
    public func register(in parent: TargetID) throws(GtkDragHostError) {
        guard window == nil else { return }
        // Rows the host unregistered with the view (out of the window) register again below.
        for cell in cells.values { cell.registered = false }
        registeredDirection = layoutDirection
        try host.register(itemsView.widget, as: containerTarget(in: parent), delegate: self)
        registeredParent = parent
        host.afterEachPaint(of: id) { [weak self] in self?.afterPaint() }
        for cell in cells.values where cell.itemID != nil { registerRow(cell) }
    }

    /// Unregisters the collection and its rows.
    public func unregister() {
        guard window != nil else { return }
        host.unregister(id)
        for cell in cells.values { cell.registered = false }
        registeredParent = nil
    }

    /// The container target: the list or grid view, which is its own scrollable.
    private func containerTarget(in parent: TargetID) -> DragTarget {
        var container = DragTarget(id: id, name: title, frame: .zero, parent: parent)
        if options.acceptsDrops {
            container.accepts = [options.itemType] + options.extraAccepts
            container.insertion = options.layout == .list ? .vertical : .grid
            container.layoutDirection = layoutDirection
            container.outline = options.outline
            container.operationPolicy = options.operationPolicy
            container.takesMovesFromOtherApps = options.takesMovesFromOtherApps
            container.confirmation = options.confirmation
        }
        container.clipsChildren = true
        // Growing with its rows, the view has nothing to scroll: the scroll view around it
        // scrolls near its edges (A1).
        if !options.growsWithContent { container.autoscroll = AutoscrollConfiguration() }
        if options.draggable {
            container.modelItems = ModelItems(offers: itemOffers, kind: options.kind, isMovable: options.itemsMovable)
        }
        return container
    }

    var itemOffers: [ContentType] { [options.itemType] + options.extraOffers }

    /// The target of the row showing the item at display position `position`.
    func rowTarget(for cell: CollectionCell, id itemID: TargetID, position: Int) -> DragTarget {
        var target = DragTarget(
            id: itemID, name: cell.title, frame: host.framesFrozen ? modelFrame(ofPosition: position) ?? .zero : .zero,
            parent: id)
        if options.draggable { target.offers = itemOffers }
        target.kind = options.kind
        target.isMovable = options.itemsMovable
        if cell.isFolder, options.acceptsDrops {
            target.accepts = [options.itemType]
            target.operationPolicy = .preferMove
            target.springLoading = SpringLoadingConfiguration()
        }
        // An outline's closed row that holds children springs open under a held drag (T2); its
        // rows are no destinations of their own (the outline places drops on them, T1).
        if options.acceptsDrops, cell.isExpanded == false { target.springLoading = SpringLoadingConfiguration() }
        return target
    }

    func registerRow(_ cell: CollectionCell, retrying: Bool = true) {
        guard window != nil, !cell.registered, let itemID = cell.itemID, let position = cell.position else { return }
        if retrying, host.engine.registry.target(itemID) != nil {
            // Still registered by another view of the app: an item that moved between two
            // views keeps its identifier, and the view it left has not reloaded yet. Registered
            // once the app's reloads are done.
            registerLater(cell, retrying: false)
            return
        }
        do {
            let target = rowTarget(for: cell, id: itemID, position: position)
            if target.springLoading != nil {
                try host.register(cell.widget, as: target, springLoadedBy: self)  // a folder (SP1)
            } else {
                try host.register(cell.widget, as: target, delegate: self)
            }
            cell.registered = true
        } catch {
            host.onDiagnostic?("error: \(error)")
        }
    }

    /// Registers a row once GTK's pass is over, with the others queued in it: a row GTK bound
    /// outside a drag (when 10,000 files arrived at the top of a folder, GTK bound every row on
    /// screen in one `items-changed`, and registering each there too held the main loop past
    /// 50 ms in a debug build; during a drag rows register at once, they are drop targets at
    /// once), or a row whose item another view still has registered (`retrying` false: the
    /// app's reloads are done by then).
    private func registerLater(_ cell: CollectionCell, retrying: Bool) {
        laterCells.append((cell, retrying))
        host.scheduleUpdate(key: laterKey) { [weak self] in
            guard let self else { return }
            let queued = self.laterCells
            self.laterCells = []
            for (cell, retrying) in queued where cell.itemID != nil { self.registerRow(cell, retrying: retrying) }
        }
    }

    func unregisterRow(_ cell: CollectionCell) {
        guard cell.registered, let itemID = cell.itemID else { return }
        cell.registered = false
        if window != nil { host.unregister(itemID) }
    }

    // MARK: Reloading

    /// Reads the data source again and shows what changed: rows are inserted, removed and moved
    /// one splice at a time (`CollectionDiff`), so the rows on screen stay put. `selecting`:
    /// the items to select (nil keeps the selection, minus the items gone).
    public func reloadData(selecting ids: [TargetID]? = nil) {
        finishPublishing()
        let new = displayRows()
        let old = rows
        let splices = CollectionDiff.splices(from: old.map(\.id), to: new.map(\.id))
        for splice in splices {
            let added = splice.added.map { new[$0] }
            forgetItems(rowRange: splice.position..<(splice.position + splice.removed))
            rows.replaceSubrange(splice.position..<(splice.position + splice.removed), with: added)
            dd_collection_model_items_changed(
                model, guint(splice.position), guint(splice.removed), guint(splice.added.count))
        }
        positionCache = nil
        let before = selected
        if let ids { selected = Set(ids) }
        if !selected.isEmpty {
            let present = positions
            selected = selected.filter { present[$0] != nil }
        }
        finishUpdate(selectionBefore: before, selecting: ids != nil)
    }

    /// Makes GTK's next request for the items at display positions `range` give new objects
    /// (they leave, or their content changed), so the rows showing them are bound again:
    /// other rows keep their binding however they move (CollectionModel.c). Reads the rows
    /// GTK keeps (a few hundred), not the range; a row GTK has not told its new position yet is
    /// forgotten too (binding it again costs little, stale content would not).
    func forgetItems(rowRange range: Range<Int>) {
        guard !range.isEmpty, dd_collection_model_held_items(model) > 0 else { return }
        for cell in cells.values {
            guard let itemID = cell.itemID, let item = cell.listItem else { continue }
            let position = Int(gtk_list_item_get_position(OpaquePointer(item)))
            if range.contains(position) || position >= rows.count || rows[position].id != itemID {
                dd_collection_model_forget(model, itemID.rawValue)
            }
        }
    }

    /// After the rows changed: rebinds the rows on screen whose item kept its place but not its
    /// content, shows the empty text, tells GTK and the app about the selection and the change.
    func finishUpdate(selectionBefore before: Set<TargetID>, selecting: Bool) {
        dd_collection_model_flush_unbinds(model)
        refreshBoundContent()
        gtk_widget_set_visible(emptyLabel.widget, rows.isEmpty ? 1 : 0)
        if selected != before || selecting {
            dd_collection_model_selection_changed(model, 0, guint(rows.count))
            onSelectionChanged?()
        }
        onChange?()
    }

    /// Makes the view show another collection (a mailbox picked in a sidebar, a folder opened):
    /// its target identifier, title and options (the layout stays). The view unregisters and
    /// forgets its selection; register it again and call ``reloadData(selecting:)`` once the
    /// data source serves the new collection. One view for every collection: a `GtkListView`
    /// destroyed while it holds rows trips an assertion in GTK 4.8.
    public func show(id newID: TargetID, title newTitle: String, options newOptions: Options) {
        precondition(newOptions.layout == options.layout, "A view keeps its layout.")
        abandonPublishing()
        unregister()
        id = newID
        options = newOptions
        selected = []
        lastFocusedItem = nil
        deferredClick = nil
        gtk_label_set_text(dd_label(emptyLabel.raw), newOptions.emptyText)
        setTitle(newTitle)
    }

    /// Shows the collection under another title (a mailbox picked in a sidebar).
    public func setTitle(_ newTitle: String) {
        title = newTitle
        if let heading { gtk_label_set_text(dd_label(UnsafeMutableRawPointer(heading)), newTitle) }
        dd_accessible_set_label(dd_accessible(itemsView.raw), newTitle)
        // The container's name is its target's: registered again under the new one.
        if let parent = window {
            unregister()
            do { try register(in: parent) } catch { host.onDiagnostic?("error: \(error)") }
        }
    }

    /// The data source's items with the placeholders among them.
    private func displayRows() -> [Row] {
        guard let dataSource else { return [] }
        let count = dataSource.numberOfItems
        var result: [Row] = []
        result.reserveCapacity(count + pending.reduce(0) { $0 + $1.rowCount })
        var ids: [TargetID] = []
        ids.reserveCapacity(count)
        for index in 0..<count { ids.append(dataSource.itemID(at: index)) }
        let placed = placeholderPlacement(in: ids)
        var next = 0
        for (index, itemID) in ids.enumerated() {
            while next < placed.count, placed[next].index <= index {
                result.append(contentsOf: placed[next].rows)
                next += 1
            }
            result.append(Row(id: itemID, placeholder: nil, arriving: 0))
        }
        while next < placed.count {
            result.append(contentsOf: placed[next].rows)
            next += 1
        }
        return result
    }

    /// Where each item is among the displayed rows.
    var positions: [TargetID: Int] {
        if let positionCache { return positionCache }
        var map: [TargetID: Int] = [:]
        map.reserveCapacity(rows.count)
        for (position, row) in rows.enumerated() where row.placeholder == nil { map[row.id] = position }
        positionCache = map
        return map
    }

    /// The data source index of the item at display position `position` (placeholders take no
    /// index), or nil for a placeholder.
    func dataIndex(ofPosition position: Int) -> Int? {
        guard position >= 0, position < rows.count, rows[position].placeholder == nil else { return nil }
        if let lag { return lag.dataIndex(ofPosition: position) }
        return position - placeholdersBefore(position)
    }

    /// The display position a drop landing at data index `index` shows at: the position of the
    /// item at `index` now (after the placeholders before it), or the end.
    func position(ofDataIndex index: Int) -> Int {
        if let lag { return min(lag.position(ofDataIndex: index), rows.count) }
        guard !pending.isEmpty else { return index }
        var position = index
        for placeholder in placeholderPositions {
            guard placeholder <= position else { break }
            position += 1
        }
        return min(position, rows.count)
    }

    /// How many placeholder rows are before display position `position`.
    func placeholdersBefore(_ position: Int) -> Int {
        guard !pending.isEmpty else { return 0 }
        let placeholders = placeholderPositions
        var low = 0
        var high = placeholders.count
        while low < high {
            let mid = (low + high) / 2
            if placeholders[mid] < position { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// The display positions of the placeholder rows, in order. Read once per change of the rows
    /// while drops are pending: binding a row far down a long list asks for its data index, and
    /// counting placeholders row by row each time cost a drop into 100,000 rows 0.3 to 0.6 s.
    var placeholderPositions: [Int] {
        if let placeholderCache { return placeholderCache }
        var result: [Int] = []
        rows.withUnsafeBufferPointer { buffer in
            for position in buffer.indices where buffer[position].placeholder != nil { result.append(position) }
        }
        placeholderCache = result
        return result
    }

    /// The items that have a row widget now, with their data source indexes, in no particular
    /// order: the rows on screen and the few GTK keeps bound around them. Their frames are the
    /// host's (``GtkDragHost/frameInWindow(of:)``); items scrolled away have none.
    public var boundItems: [(index: Int, id: TargetID)] {
        cells.values.compactMap { cell in
            guard cell.registered, let itemID = cell.itemID, let position = cell.position,
                let index = dataIndex(ofPosition: position)
            else { return nil }
            return (index, itemID)
        }
    }

    /// The data source index of the item `itemID`, or nil.
    func dataIndex(of itemID: TargetID) -> Int? { positions[itemID].flatMap(dataIndex(ofPosition:)) }

    /// The number of items (placeholders left out).
    var itemCount: Int { dataSource?.numberOfItems ?? 0 }

    // MARK: Selection (M1)

    /// The selected items' identifiers, in collection order.
    public var selection: [TargetID] {
        guard !selected.isEmpty else { return [] }
        if selected.count == 1 { return Array(selected) }
        if lag != nil, let dataSource {
            // The data source's order (rows shown a slice at a time lag behind it).
            return (0..<dataSource.numberOfItems).lazy.map(dataSource.itemID(at:)).filter(selected.contains)
        }
        return rows.lazy.filter { $0.placeholder == nil && self.selected.contains($0.id) }.map(\.id)
    }

    /// How many items are selected (without listing them: ``selection`` reads every row).
    public var selectionCount: Int { selected.count }

    /// The data source indexes of the first `limit` selected items, in collection order,
    /// reading the rows only until they are found.
    public func selectedIndexes(limit: Int) -> [Int] {
        guard !selected.isEmpty, limit > 0 else { return [] }
        var found: [Int] = []
        if lag != nil, let dataSource {
            for index in 0..<dataSource.numberOfItems where selected.contains(dataSource.itemID(at: index)) {
                found.append(index)
                if found.count == limit { break }
            }
            return found
        }
        var index = 0
        for row in rows where row.placeholder == nil {
            if selected.contains(row.id) {
                found.append(index)
                if found.count == limit { break }
            }
            index += 1
        }
        return found
    }

    /// Selects exactly `ids`.
    public func select(_ ids: [TargetID]) {
        finishPublishing()
        selected = Set(ids).filter { positions[$0] != nil }
        dd_collection_model_selection_changed(model, 0, guint(rows.count))
        onSelectionChanged?()
    }

    /// Selects every item.
    public func selectAll() {
        finishPublishing()
        selected = Set(rows.lazy.filter { $0.placeholder == nil }.map(\.id))
        dd_collection_model_selection_changed(model, 0, guint(rows.count))
        onSelectionChanged?()
    }

    private func isSelected(position: Int) -> Bool {
        guard position < rows.count, rows[position].placeholder == nil else { return false }
        return selected.contains(rows[position].id)
    }

    /// GTK's selection requests (clicks, keys), applied to ``selected``.
    private func changeSelection(_ change: DDSelectionChange, position: Int, count: Int, unselectRest: Bool) -> Bool {
        func items(_ range: Range<Int>) -> [TargetID] {
            let clamped = range.clamped(to: 0..<rows.count)
            // While a removal is shown a slice at a time, the rows still shown for gone items
            // take no selection.
            if lag != nil { return clamped.filter { dataIndex(ofPosition: $0) != nil }.map { rows[$0].id } }
            return rows[clamped].filter { $0.placeholder == nil }.map(\.id)
        }
        switch change {
        case DD_SELECT_ITEM:
            guard let itemID = items(position..<(position + 1)).first else { return false }
            if unselectRest, pointerDown, selected.contains(itemID), selected.count > 1 || isSelectionMode {
                // GTK selects as the button goes down: on a selected item that may be the start
                // of a drag of the whole selection (M1), so the click's selection waits for the
                // release, and a drag leaves the selection as it was.
                deferredClick = itemID
                return true
            }
            if isSelectionMode && unselectRest {
                // Selection mode: a plain click toggles the item (M1).
                if selected.contains(itemID) { selected.remove(itemID) } else { selected.insert(itemID) }
            } else if unselectRest {
                selected = [itemID]
            } else {
                selected.insert(itemID)
            }
        case DD_UNSELECT_ITEM:
            guard let itemID = items(position..<(position + 1)).first else { return false }
            selected.remove(itemID)
        case DD_SELECT_RANGE:
            let range = items(position..<(position + count))
            if unselectRest { selected = Set(range) } else { selected.formUnion(range) }
        case DD_UNSELECT_RANGE:
            selected.subtract(items(position..<(position + count)))
        case DD_SELECT_ALL:
            selected = Set(items(0..<rows.count))
        case DD_UNSELECT_ALL:
            selected = []
        default:
            return false
        }
        dd_collection_model_selection_changed(model, 0, guint(rows.count))
        onSelectionChanged?()
        return true
    }

    /// Watches the primary button on the items (before the rows see it), for clicks on the
    /// selection (``deferredClick``).
    private func installPressTracking() {
        // A legacy controller: it sees the button whatever the rows' gestures claim.
        guard let legacy = gtk_event_controller_legacy_new() else { return }
        gtk_event_controller_set_propagation_phase(legacy, GTK_PHASE_CAPTURE)
        GSignal.connect(
            UnsafeMutableRawPointer(legacy), "event",
            pointerReturningBool: { [weak self] event in
                guard let self, let event else { return false }
                let gdkEvent = OpaquePointer(event)
                let type = gdk_event_get_event_type(gdkEvent)
                guard type == GDK_BUTTON_PRESS || type == GDK_BUTTON_RELEASE,
                    gdk_button_event_get_button(gdkEvent) == guint(GDK_BUTTON_PRIMARY)
                else { return false }
                if type == GDK_BUTTON_PRESS {
                    self.pointerDown = true
                    self.deferredClick = nil
                } else {
                    self.pointerDown = false
                    self.applyDeferredClick()
                }
                return false
            })
        gtk_widget_add_controller(itemsView.widget, legacy)
    }

    /// Follows the window's focus: a row of this view focused, or the focus gone elsewhere in
    /// the window (not into a menu, a popover with its own surface).
    private func watchFocus() {
        guard !watchingFocus, let root = gtk_widget_get_root(itemsView.widget) else { return }
        watchingFocus = true
        let window = UnsafeMutableRawPointer(root)
        GSignal.connect(
            window, "notify::focus-widget",
            pointer: { [weak self] _ in
                guard let self, let focus = gtk_root_get_focus(OpaquePointer(window)) else { return }
                if let item = self.focusedItem {
                    self.lastFocusedItem = item
                } else if let native = gtk_widget_get_native(focus), UnsafeMutableRawPointer(native) == window {
                    self.lastFocusedItem = nil
                }
            })
    }

    /// A click on a selected item, released without a drag: the selection it asked for.
    private func applyDeferredClick() {
        guard let itemID = deferredClick else { return }
        deferredClick = nil
        guard !host.engine.isDragging else { return }
        if isSelectionMode {
            select(selection.filter { $0 != itemID })
        } else {
            select([itemID])
        }
    }

    // MARK: Scrolling

    /// The vertical scroll offset, in pixels from the top of the content.
    public var verticalOffset: Double { verticalAdjustment.map(gtk_adjustment_get_value) ?? 0 }

    var verticalAdjustment: UnsafeMutablePointer<GtkAdjustment>? {
        gtk_scrollable_get_vadjustment(OpaquePointer(itemsView.raw))
    }

    /// Scrolls so the item `itemID` shows (the keyboard, a reload selecting it).
    public func scrollTo(_ itemID: TargetID) {
        finishPublishing()
        guard let position = positions[itemID] else { return }
        let before = modelFrame(ofPosition: position)
        guard let adjustment = verticalAdjustment, let frame = before, let container = containerFrame else {
            return
        }
        let value = gtk_adjustment_get_value(adjustment)
        let page = gtk_adjustment_get_page_size(adjustment)
        let top = frame.minY - container.minY + value
        if top < value {
            gtk_adjustment_set_value(adjustment, top)
        } else if top + frame.height > value + page {
            gtk_adjustment_set_value(adjustment, top + frame.height - page)
        }
    }

    /// The container's frame in engine coordinates (nil before layout).
    var containerFrame: Rect? { host.engine.registry.target(id)?.frame }

    // MARK: Rows GTK makes and binds

    private func connectFactory(_ factory: UnsafeMutableRawPointer) {
        GSignal.connect(factory, "setup", pointer: { [weak self] item in self?.setUp(item) })
        // Bind and unbind come through the model, which leaves out a row bound again to the
        // item it showed (CollectionModel.c).
        dd_collection_model_connect_factory(model, factory)
        GSignal.connect(factory, "teardown", pointer: { [weak self] item in self?.tearDown(item) })
    }

    private func setUp(_ item: UnsafeMutableRawPointer?) {
        guard let item else { return }
        let cell = CollectionCell(layout: options.layout, tileSize: options.tileSize)
        gtk_list_item_set_child(OpaquePointer(item), cell.widget)
        cells[UInt(bitPattern: item)] = cell
        cellsByWidget[UInt(bitPattern: cell.widget)] = cell
    }

    private func bind(_ item: UnsafeMutableRawPointer?) {
        guard let item, let cell = cells[UInt(bitPattern: item)] else { return }
        let position = Int(gtk_list_item_get_position(OpaquePointer(item)))
        guard position < rows.count else { return }
        cell.listItem = item
        configure(cell, position: position)
    }

    /// Shows the row at display position `position` in `cell`, and registers it.
    private func configure(_ cell: CollectionCell, position: Int) {
        let row = rows[position]
        cell.position = position
        if let token = row.placeholder {
            let drop = pending.first { $0.token == token }
            cell.showPlaceholder(
                title: "Loading \u{201C}\(drop?.names[safe: row.arriving] ?? "")\u{201D}\u{2026}",
                fraction: drop?.fraction)
            cell.itemID = nil
        } else if let dataSource, let index = dataIndex(ofPosition: position) {
            let isFolder = dataSource.isFolder(at: index)
            cell.show(title: dataSource.title(at: index), detail: dataSource.detail(at: index), isFolder: isFolder)
            if case .grid = options.layout { cell.setThumbnail(dataSource.thumbnail(at: index)) }
            // Only folders activate (SP2): GTK claims a second press on an activatable row as
            // a double click, which would stop a drag started right after a click (M1).
            if let item = cell.listItem { gtk_list_item_set_activatable(OpaquePointer(item), isFolder ? 1 : 0) }
            describeRow(of: cell)
            if let outline = outlineView, let shown = outline.row(at: index) {
                // A triangle only on rows with rows inside (an empty mailbox reads as one);
                // an empty container still takes drops into it, in its middle (T1).
                let holdsRows = shown.canHoldChildren && shown.childCount > 0
                cell.setOutline(
                    depth: shown.depth, indent: outline.indent, expanded: holdsRows ? shown.isExpanded : nil)
                let item = shown.id
                cell.onDisclosure = { [weak outline] in outline?.toggle(item) }
                let opens = outline.onOpen != nil
                if opens {
                    cell.onRowClick = { [weak outline] in outline?.onOpen?(item) }
                } else {
                    cell.onRowClick = nil
                }
                if let listItem = cell.listItem {
                    gtk_list_item_set_activatable(OpaquePointer(listItem), shown.canHoldChildren || opens ? 1 : 0)
                }
            }
            cell.itemID = row.id
            boundByID[row.id] = cell
            if host.framesFrozen { registerRow(cell) } else { registerLater(cell, retrying: true) }
        }
        applyInsertion(to: cell)
    }

    /// GTK focuses the row widget around the cell: it gets the item's name and, when items
    /// drag, the keyboard-dragging shortcut and description the host gives drag sources (what
    /// a screen reader says when the row is focused).
    private func describeRow(of cell: CollectionCell) {
        guard let row = gtk_widget_get_parent(cell.widget) else { return }
        let accessible = dd_accessible(UnsafeMutableRawPointer(row))
        dd_accessible_set_string(accessible, GTK_ACCESSIBLE_PROPERTY_LABEL, cell.title)
        guard options.draggable else { return }
        dd_accessible_set_string(accessible, GTK_ACCESSIBLE_PROPERTY_KEY_SHORTCUTS, "Control+Shift+D")
        dd_accessible_set_string(
            accessible, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, GtkDragHost.sourceAccessibleDescription)
    }

    private func unbind(_ item: UnsafeMutableRawPointer?) {
        guard let item, let cell = cells[UInt(bitPattern: item)] else { return }
        release(cell)
    }

    private func release(_ cell: CollectionCell) {
        unregisterRow(cell)
        if let itemID = cell.itemID, boundByID[itemID] === cell { boundByID[itemID] = nil }
        cell.itemID = nil
        cell.position = nil
        cell.setInsertion(nil)
    }

    private func tearDown(_ item: UnsafeMutableRawPointer?) {
        guard let item, let cell = cells.removeValue(forKey: UInt(bitPattern: item)) else { return }
        release(cell)
        cellsByWidget[UInt(bitPattern: cell.widget)] = nil
    }

    /// Rebinds the bound rows whose content may have changed in place (a reload). A row whose
    /// item only moved (rows inserted or removed before it) keeps its widget and its target: GTK
    /// keeps the widget with its item and only its position changes, so unregistering and
    /// registering it again (every row on screen under an insertion at the top) was most of
    /// what 10,000 files arriving cost the main loop.
    func refreshBoundContent() {
        for cell in cells.values {
            guard let item = cell.listItem else { continue }
            let position = Int(gtk_list_item_get_position(OpaquePointer(item)))
            guard position < rows.count, cell.position != nil else { continue }
            let row = rows[position]
            if row.placeholder == nil, row.id == cell.itemID, let dataSource,
                let index = dataIndex(ofPosition: position),
                cell.title == dataSource.title(at: index), cell.detail == dataSource.detail(at: index),
                cell.isFolder == dataSource.isFolder(at: index), showsOutlineRow(cell, index),
                // During a drag frames are the model's, placed by position: registered again.
                cell.position == position || !host.framesFrozen
            {
                if cell.position != position {
                    cell.position = position
                    applyInsertion(to: cell)
                }
                continue
            }
            release(cell)
            configure(cell, position: position)
        }
    }

    /// Whether `cell` shows the outline row at data index `index` as it is (its depth, whether
    /// it is open): true outside an outline.
    private func showsOutlineRow(_ cell: CollectionCell, _ index: Int) -> Bool {
        guard let outline = outlineView, let row = outline.row(at: index) else { return true }
        return cell.depth == row.depth
            && cell.isExpanded == (row.canHoldChildren && row.childCount > 0 ? row.isExpanded : nil)
    }

    /// A double click or Return on an item: folders open (SP2).
    private func activated(_ position: Int) {
        if let outline = outlineView {
            if let index = dataIndex(ofPosition: position), let row = outline.row(at: index) {
                outline.activate(row.id)
            }
            return
        }
        guard let dataSource, let index = dataIndex(ofPosition: position), dataSource.isFolder(at: index) else {
            return
        }
        dataSource.collectionView(self, openFolderAt: index, duringDrag: false)
    }

    // MARK: Frames from the model

    /// The bounds of the row (or tile) widget holding `cell`, in the items view's coordinates,
    /// when GTK laid it out where it shows (nil for a row bound around the visible ones).
    func rowBounds(of cell: CollectionCell) -> graphene_rect_t? {
        guard let row = gtk_widget_get_parent(cell.widget), gtk_widget_get_mapped(row) != 0 else { return nil }
        var bounds = graphene_rect_t()
        guard gtk_widget_compute_bounds(row, itemsView.widget, &bounds) != 0, bounds.size.height > 0,
            bounds.size.width > 0
        else { return nil }
        let height = Float(gtk_widget_get_height(itemsView.widget))
        let width = Float(gtk_widget_get_width(itemsView.widget))
        guard bounds.origin.y < height, bounds.origin.y + bounds.size.height > 0, bounds.origin.x < width,
            bounds.origin.x + bounds.size.width > 0
        else { return nil }
        return bounds
    }

    /// After every frame GTK paints: outside drags, measures the row pitch from the rows on
    /// screen (a row's height in a list, a tile's width and height in a grid); during a drag,
    /// keeps the registered rows' frames where GTK laid them out (it may correct its scroll
    /// position as it measures rows), leaving out what rows making room do (a transform, not
    /// layout), so the insertion point never moves under a still pointer.
    func afterPaint() {
        guard window != nil else { return }
        if layoutDirection != registeredDirection {
            // The app (or the person, switching the language) changed the direction (L3).
            registeredDirection = layoutDirection
            do { try host.engine.setLayoutDirection(registeredDirection, for: id) } catch {
                host.onDiagnostic?("error: \(error)")
            }
        }
        if !host.framesFrozen {
            var width = Float.infinity
            var height = Float.infinity
            for cell in cells.values where cell.position != nil {
                guard let bounds = rowBounds(of: cell) else { continue }
                height = min(height, bounds.size.height)
                width = min(width, bounds.size.width)
            }
            if height.isFinite { pitch.y = Double(height) }
            if width.isFinite { pitch.x = Double(width) }
            return
        }
        guard let container = containerFrame, let inWindow = host.frameInWindow(of: id),
            let root = gtk_widget_get_root(itemsView.widget)
        else { return }
        let window = UnsafeMutableRawPointer(root).assumingMemoryBound(to: GtkWidget.self)
        let origin = (x: container.minX - inWindow.minX, y: container.minY - inWindow.minY)
        var moved = false
        // The registry is read where it is used: a copy held across `setFrame` made the engine
        // copy its whole index (100,000 targets) in every paint where a row moved.
        for cell in cells.values where cell.registered {
            guard let itemID = cell.itemID, rowBounds(of: cell) != nil, let row = gtk_widget_get_parent(cell.widget)
            else { continue }
            var bounds = graphene_rect_t()
            guard gtk_widget_compute_bounds(row, window, &bounds) != 0 else { continue }
            let frame = Rect(
                x: origin.x + Double(bounds.origin.x), y: origin.y + Double(bounds.origin.y),
                width: Double(bounds.size.width), height: Double(bounds.size.height))
            guard host.engine.registry.target(itemID)?.frame != frame else { continue }
            do { try host.engine.setFrame(frame, for: itemID) } catch { host.onDiagnostic?("error: \(error)") }
            moved = true
        }
        if moved { host.reschedule() }
    }

    /// The direction GTK lays the items out in (L3): a right-to-left grid starts each row on the
    /// right.
    var layoutDirection: LayoutDirection { GtkWidgetSupport.layoutDirection(of: itemsView.widget) }

    /// The number of tiles a row of the grid holds now.
    var columns: Int {
        guard case .grid(let most) = options.layout else { return 1 }
        guard pitch.x > 0, let width = containerFrame?.width, width > 0 else { return most }
        return max(1, min(most, Int((width / pitch.x).rounded(.down))))
    }

    /// Where the row (or tile) at display position `position` lies, in engine coordinates,
    /// worked out from a row on screen and the pitch: nil when no row is on screen yet.
    func modelFrame(ofPosition position: Int) -> Rect? { modelFrameFunction()?(position) }

    /// How many depths an outline's drop line is drawn at (deeper ones at the deepest).
    static let outlineDepths = 24

    /// An outline's drop line at each depth (from where that depth's rows start), over the gap
    /// where the rows made room (`dd-outline-gap-N`: the top of the row below the gap) or under
    /// the last row (`dd-outline-end-N`), and the row a drop would go into (`dd-outline-into`).
    static func outlineCSS(_ layout: OutlineLayout) -> String {
        let blue = "rgb(53, 132, 228)"
        var css = """
            .dd-collection-list .dd-cell.dd-outline-into { background-color: \(DragStyles.rgb(DragStyles.highlightFill)); box-shadow: inset 0 0 0 2px \(blue); }

            """
        for depth in 0..<outlineDepths {
            let x = Int(layout.origin + Double(depth) * layout.indent)
            // From the left, or in a right-to-left outline from the right (L3).
            let line =
                "background-image: linear-gradient(to right, transparent \(x)px, \(blue) \(x)px); background-size: 100% 3px; background-repeat: no-repeat;"
            let mirrored =
                "background-image: linear-gradient(to left, transparent \(x)px, \(blue) \(x)px);"
            css += """
                .dd-collection-list .dd-cell.dd-outline-gap-\(depth) { transform: translateY(28px); \(line) background-position: 0 0; }
                .dd-collection-list .dd-cell.dd-outline-end-\(depth) { \(line) background-position: 0 100%; }
                .dd-collection-list .dd-cell.dd-outline-gap-\(depth):dir(rtl), .dd-collection-list .dd-cell.dd-outline-end-\(depth):dir(rtl) { \(mirrored) }

                """
        }
        return css
    }

    static let css = """
        .dd-collection-list > row { padding: 0; }
        .dd-collection-list .dd-cell { padding: 10px 12px; transition: transform 120ms ease-out; }
        .dd-collection-list .dd-cell.dd-make-room, .dd-collection-list .dd-cell.dd-make-room-first { transform: translateY(28px); }
        .dd-collection-list .dd-cell.dd-insert-end { box-shadow: inset 0 -3px 0 0 rgb(53, 132, 228); }
        .dd-keyboard-focus .dd-cell.dd-make-room-first { box-shadow: inset 0 4px 0 0 \(KeyboardStyles.outlineCSS); }
        .dd-keyboard-focus .dd-cell.dd-insert-end { box-shadow: inset 0 -4px 0 0 \(KeyboardStyles.outlineCSS); }
        .dd-collection-list > row:not(:last-child) { border-bottom: 1px solid rgba(0, 0, 0, 0.08); }
        .dd-collection-list.dd-drawn-lines > row:not(:last-child):not(:focus-visible) { border-bottom: none; padding-bottom: 1px; }
        .dd-collection-grid > child { padding: 4px; }
        .dd-collection-grid > child > box.dd-tile { margin: 0; border-spacing: 2px; }
        .dd-tile { border-radius: 8px; border: 1px solid rgba(0, 0, 0, 0.15); background-color: rgb(250, 250, 250); }
        .dd-tile.dd-folder { background-color: rgb(252, 238, 190); }
        .dd-collection-grid > child:selected > .dd-tile { background-color: rgb(53, 132, 228); color: white; }
        .dd-collection-grid > child:selected { background-color: transparent; }
        .dd-grid-insert-before { box-shadow: -6px 0 0 0 rgb(230, 97, 0); }
        .dd-grid-insert-after { box-shadow: 6px 0 0 0 rgb(230, 97, 0); }
        .dd-grid-insert-before:dir(rtl) { box-shadow: 6px 0 0 0 rgb(230, 97, 0); }
        .dd-grid-insert-after:dir(rtl) { box-shadow: -6px 0 0 0 rgb(230, 97, 0); }
        """
}

/// A weak reference to a view for the C model's callbacks (the model may outlive the view).
/// The model holds it (released when the model is finalized with the list view).
private final class WeakView {
    weak var view: DragCollectionView?

    @MainActor static func view(_ data: UnsafeMutableRawPointer?) -> DragCollectionView? {
        data.flatMap { Unmanaged<WeakView>.fromOpaque($0).takeUnretainedValue().view }
    }
}

extension Int {
    /// The count as a `guint` (clamped).
    fileprivate var clamped: guint { guint(clamping: Swift.max(0, self)) }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
