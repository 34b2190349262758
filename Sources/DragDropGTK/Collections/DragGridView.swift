import CGtk4
import DragDrop

/// A grid of tiles in reading order, some of them folders: a convenience over
/// ``DragCollectionView`` (a grid layout) for tiles that are a title, or a folder of titles (a
/// home screen's apps). Everything is the collection view's: only the tiles on screen have
/// widgets, selection, tiles making room, folders springing open, the edit menu, placeholders,
/// undo.
///
/// - Selection (M1): click selects one tile, Ctrl-click toggles, Shift-click extends from the
///   last clicked tile; in ``isSelectionMode`` a plain click toggles, so people select first and
///   drag after. A drag from a selected tile carries the whole selection.
/// - Drops land between tiles in reading order, shown by a bar before the tile the drop would
///   precede (F8, insertion layout `.grid`); moved tiles leave after the commit (S4).
/// - Folder tiles take tiles dropped on them (moved in, like icons into a home-screen folder)
///   and spring open when content hovers over them (SP1): ``onOpenFolder`` tells the app, which
///   also hears of a double click on a folder (SP2).
/// - While dragging, pressing Alt over another tile adds it to the drag (M2, see
///   ``addTileUnderPointerToDrag()``).
/// - The edit menu lists only the commands that apply (C1, K2); every change is an undo step.
///
/// ```swift
/// let home = DragGridView(id: "home", title: "Home", tiles: [.item("Mail"), .folder("Work", ["Slides"])], host: host)
/// gtk_box_append(box, home.widget)
/// try home.register(in: "main")
/// ```
///
/// The window keeps a registered grid alive until it closes or the grid is unregistered.
@MainActor
public final class DragGridView {
    /// One tile.
    public struct Tile: Hashable, Sendable {
        /// The tile's target identifier, unique in the app.
        public var id: TargetID
        /// The text shown.
        public var title: String
        /// The titles inside, for a folder; nil for a plain tile.
        public var folderContents: [String]?
        /// Whether the tile is a folder.
        public var isFolder: Bool { folderContents != nil }
    }

    /// A tile to create: a plain tile or a folder with its contents.
    public struct TileContent: Sendable {
        var title: String
        var folder: [String]?
        /// A plain tile.
        public static func item(_ title: String) -> TileContent { TileContent(title: title, folder: nil) }
        /// A folder tile holding `contents`.
        public static func folder(_ title: String, _ contents: [String] = []) -> TileContent {
            TileContent(title: title, folder: contents)
        }
    }

    /// The type tiles offer and the grid and its folders accept.
    public static let tileType: ContentType = "application/x-dragdrop-grid-tile"
    /// The insertion bar's colour, in 8-bit RGB (tests look for it on screen).
    nonisolated public static let insertionColor: (red: UInt8, green: UInt8, blue: UInt8) = (230, 97, 0)

    /// The grid's target identifier.
    public let id: TargetID
    /// The heading shown above the tiles, also the grid's accessible name.
    public let title: String
    /// The tiles, in reading order: what the grid holds now. Drops, edits, undo and redo change
    /// it (and ``onChange`` follows); tiles that arrive get fresh identifiers.
    public private(set) var tiles: [Tile]
    /// The selected tiles' identifiers, in grid order (M1: a drag from a selected tile carries
    /// all of them).
    public var selection: [TargetID] { view.selection }
    /// What a drop from another container does on the grid itself (S2): by default
    /// (`OperationPolicy/automatic`) a drag inside the grid moves and one from another
    /// container copies; `OperationPolicy/preferMove` makes drags from this app's other
    /// containers move. Folder tiles always take tiles as a move. A change after
    /// ``register(in:)`` takes effect as soon as no drag is running.
    public var operationPolicy: OperationPolicy = .automatic {
        didSet { optionsChanged() }
    }
    /// Selection mode (M1): a plain click toggles a tile instead of selecting only it.
    public var isSelectionMode: Bool {
        get { view.isSelectionMode }
        set {
            view.isSelectionMode = newValue
            onChange?()
        }
    }
    /// Called on the main actor after ``tiles``, ``selection`` or ``isSelectionMode`` changed.
    public var onChange: (@MainActor () -> Void)?
    /// Whether the edit menu offers Cut, Paste and Delete (C1). Set it to false when the app
    /// keeps the tiles elsewhere and only drops and Copy should change or read them.
    public var allowsEditing = true {
        didSet { view.editing = Self.editing(allowsEditing) }
    }
    /// Called when a folder opens: by spring loading during a drag (`duringDrag`) or by a
    /// double click. The app shows the folder's contents.
    public var onOpenFolder: (@MainActor (_ folder: Tile, _ duringDrag: Bool) -> Void)?
    /// The collection view showing the tiles.
    public let view: DragCollectionView

    /// The grid's root widget (heading and tiles), to put in a window.
    public var widget: UnsafeMutablePointer<GtkWidget> { view.widget }

    private let host: GtkDragHost
    private let storage: GridStorage
    private var nextNumber = 0
    private var parent: TargetID?
    /// Inside ``setTiles(_:selecting:)``: the view's selection change is part of it.
    private var changing = false
    private let reregistration = ReregistrationKey()
    private let notification = ReregistrationKey()

    /// Creates a grid of `tiles` with `columns` tiles per row, managed by `host`.
    public init(id: TargetID, title: String, tiles: [TileContent], columns: UInt32 = 4, host: GtkDragHost) {
        self.id = id
        self.title = title
        self.host = host
        self.tiles = []
        storage = GridStorage()
        var options = DragCollectionView.Options(itemType: Self.tileType)
        options.layout = .grid(columns: Int(columns))
        options.emptyText = ""
        view = DragCollectionView(id: id, title: title, host: host, options: options)
        view.editing = Self.editing(true)
        self.tiles = tiles.map { Tile(id: newID(), title: $0.title, folderContents: $0.folder) }
        storage.grid = self
        view.dataSource = storage
        view.onSelectionChanged = { [weak self] in
            guard let self, !self.changing else { return }
            self.onChange?()
        }
        view.onDragPrepared = { [weak self] in self?.watchAddToDragKey() }
        view.reloadData()
    }

    /// Registers the grid and its tiles with the host, inside the registered window `window`;
    /// from then on the window keeps the grid alive.
    public func register(in window: TargetID) throws(GtkDragHostError) {
        try view.register(in: window)
        parent = window
        host.keepAlive(self, while: id)
    }

    /// The tile with `id`.
    public func tile(_ id: TargetID) -> Tile? { tiles.first { $0.id == id } }

    /// Selects exactly `ids` (in grid order).
    public func select(_ ids: [TargetID]) { view.select(ids) }

    /// Selects every tile.
    public func selectAll() { view.selectAll() }

    // MARK: Deferred drops (A4)

    /// Decides whether a drop between the grid's tiles loads its content later (drops into
    /// folder tiles never do). Return true to show placeholders at once; then report progress
    /// with ``GtkDragHost/updateDeferredDrop(_:progress:)`` and end with
    /// ``finishDeferredDrop(_:failure:)``. Nil (the default): drops commit at once.
    public var defersDrop: (@MainActor (DropRequest) -> Bool)? {
        get { view.defersDrop }
        set { view.defersDrop = newValue }
    }

    /// The deferred drops still loading, oldest first.
    public var pendingDrops: [DropToken] { view.pendingDrops }

    /// Ends a deferred drop: without `failure` the tiles arrive where the placeholders are (one
    /// undo step with a move's removal from its source, U1, S4); with it, the placeholders go
    /// away and the reason is shown (A6). Unknown tokens are ignored.
    public func finishDeferredDrop(_ token: DropToken, failure: DropFailure? = nil) {
        view.finishDeferredDrop(token, failure: failure)
    }

    // MARK: Adding to a running drag (M2)

    /// Adds the tile under the pointer to the running drag (M2). Returns the added tile.
    ///
    /// Under X11 a GTK drag grabs the pointer and takes every key event: any button release
    /// ends the drag and no key reaches the window, so neither a second click nor a shortcut
    /// can add items there. Pressing Alt (a modifier, read from the keyboard's state while the
    /// drag runs) calls this instead; apps with a second pointer or touch call it on that tap.
    @discardableResult
    public func addTileUnderPointerToDrag() -> TargetID? {
        guard host.engine.isDragging, let point = host.engine.currentSession?.pointer,
            let hit = host.engine.registry.resolve(at: point).source, tile(hit) != nil
        else { return nil }
        var added: TargetID?
        host.drive { added = host.engine.tap(at: point) }
        host.diagnose("add-to-drag item=\(added?.rawValue ?? "none")")
        if let added { view.select(view.selection + [added]) }
        return added
    }

    /// While a drag of the grid's tiles runs, watches the Alt key: each press adds the tile under
    /// the pointer (M2).
    private func watchAddToDragKey() {
        GLibSource.once(afterMilliseconds: 30) { [weak self] in self?.pollAddToDragKey(wasDown: true) }
    }

    private func pollAddToDragKey(wasDown: Bool) {
        guard host.engine.isDragging else { return }
        let down = Self.altIsDown()
        if down, !wasDown { addTileUnderPointerToDrag() }
        GLibSource.once(afterMilliseconds: 30) { [weak self] in self?.pollAddToDragKey(wasDown: down) }
    }

    private static func altIsDown() -> Bool {
        guard let display = gdk_display_get_default(), let seat = gdk_display_get_default_seat(display),
            let keyboard = gdk_seat_get_keyboard(seat)
        else { return false }
        return gdk_device_get_modifier_state(keyboard).rawValue & GDK_ALT_MASK.rawValue != 0
    }

    // MARK: Changes

    private static func editing(_ allowed: Bool) -> DragCollectionView.EditingOptions {
        DragCollectionView.EditingOptions(cutAndPaste: allowed, delete: allowed)
    }

    /// Shows the view with the current policy; a registered grid registers again once no drag
    /// is running (a drag keeps its targets as they were when it started).
    private func optionsChanged() {
        var options = view.options
        options.operationPolicy = operationPolicy
        guard view.isRegistered else {
            let mode = view.isSelectionMode
            view.show(id: id, title: title, options: options)
            view.isSelectionMode = mode
            return
        }
        host.whenNoDragRuns(key: reregistration) { [weak self] in
            guard let self, let window = self.parent, self.view.isRegistered else { return }
            let selected = self.view.selection
            self.view.show(id: self.id, title: self.title, options: options)
            do { try self.register(in: window) } catch { self.host.onDiagnostic?("error: \(error)") }
            self.view.reloadData(selecting: selected)
        }
    }

    fileprivate func newID() -> TargetID {
        nextNumber += 1
        return TargetID("\(id.rawValue).\(nextNumber)")
    }

    /// The tile a dragged item stands for, from whichever grid in this app owns it.
    fileprivate func draggedTile(_ item: DragItem) -> Tile {
        let owner = (host.owner(of: item.id) as? DragCollectionView)?.dataSource as? GridStorage
        return owner?.grid?.tile(item.id) ?? tile(item.id) ?? Tile(id: item.id, title: item.name, folderContents: nil)
    }

    /// Replaces the tiles (a drop, an edit, an undo or a redo) and tells the view and the app.
    fileprivate func setTiles(_ new: [Tile], selecting: [TargetID]?) {
        let old = tiles.map(\.id)
        tiles = new
        changing = true
        view.applyChanges(DragCollectionView.changes(from: old, to: new.map(\.id)), selecting: selecting)
        changing = false
        // Once the engine call that changed them returned: a drop and its source's removal, or
        // an undo of both, are one change to the app.
        host.scheduleUpdate(key: notification) { [weak self] in self?.onChange?() }
    }

    /// Replaces the tiles with `after` as one undoable change; returns its undo.
    fileprivate func change(to after: [Tile], selecting: [TargetID]) -> UndoableAction {
        let before = tiles
        setTiles(after, selecting: selecting)
        return UndoableAction(
            undo: { [weak self] in self?.setTiles(before, selecting: []) },
            redo: { [weak self] in self?.setTiles(after, selecting: selecting) })
    }
}

/// The tiles behind the grid's collection view.
@MainActor
private final class GridStorage: DragCollectionDataSource {
    weak var grid: DragGridView?
    private var tiles: [DragGridView.Tile] { grid?.tiles ?? [] }

    var numberOfItems: Int { tiles.count }
    func itemID(at index: Int) -> TargetID { tiles[index].id }
    func title(at index: Int) -> String { tiles[index].title }
    func isFolder(at index: Int) -> Bool { tiles[index].isFolder }
    func detail(at index: Int) -> String? {
        tiles[index].folderContents.map { $0.isEmpty ? "Folder" : "Folder \u{00B7} \($0.count)" }
    }

    func collectionView(_ view: DragCollectionView, perform drop: DropRequest, at index: Int) -> DropResult {
        guard let grid else { return .failed(DropFailure(.failed, "\(view.title) is not available.")) }
        // Arrivals get new identifiers, so a move's originals and arrivals never share one.
        let arriving = drop.items.map { item in
            var tile = grid.draggedTile(item)
            tile.id = grid.newID()
            return tile
        }
        var after = tiles
        after.insert(contentsOf: arriving, at: min(max(0, index), after.count))
        return .committed(undo: grid.change(to: after, selecting: arriving.map(\.id)))
    }

    /// Tiles dropped on a folder go inside it (a folder's own contents with it).
    func collectionView(_ view: DragCollectionView, perform drop: DropRequest, intoFolderAt index: Int) -> DropResult {
        guard let grid, tiles.indices.contains(index), tiles[index].isFolder else {
            return .failed(DropFailure(.failed, "\(view.title) has no such folder any more."))
        }
        var after = tiles
        after[index].folderContents?.append(
            contentsOf: drop.items.flatMap { item -> [String] in
                let tile = grid.draggedTile(item)
                return tile.folderContents ?? [tile.title]
            })
        return .committed(undo: grid.change(to: after, selecting: []))
    }

    func collectionView(_ view: DragCollectionView, removeMovedItems moved: [DragItem], after drop: DropRequest)
        -> UndoableAction?
    {
        guard let grid else { return nil }
        let ids = Set(moved.map(\.id))
        let kept = tiles.filter { !ids.contains($0.id) }
        guard kept.count != tiles.count else { return nil }
        return grid.change(to: kept, selecting: grid.selection.filter { !ids.contains($0) })
    }

    /// Another app took tiles with a move: they leave the grid (S4).
    func collectionView(_ view: DragCollectionView, itemsMovedToOtherApp moved: [DragItem], app: AppID?)
        -> [TargetID]
    {
        guard let grid else { return [] }
        let ids = Set(moved.map(\.id))
        let leaving = tiles.filter { ids.contains($0.id) }.map(\.id)
        if !leaving.isEmpty { grid.setTiles(tiles.filter { !ids.contains($0.id) }, selecting: nil) }
        return leaving
    }

    func collectionView(_ view: DragCollectionView, deleteItems ids: [TargetID]) -> (
        name: String, action: UndoableAction
    )? {
        guard let grid else { return nil }
        let doomed = Set(ids)
        let kept = tiles.filter { !doomed.contains($0.id) }
        guard kept.count != tiles.count else { return nil }
        return ("Delete", grid.change(to: kept, selecting: []))
    }

    func collectionView(_ view: DragCollectionView, insertTitles titles: [String], at index: Int) -> (
        ids: [TargetID], name: String, action: UndoableAction
    )? {
        guard let grid else { return nil }
        let arriving = titles.map { DragGridView.Tile(id: grid.newID(), title: $0, folderContents: nil) }
        var after = tiles
        after.insert(contentsOf: arriving, at: min(max(0, index), after.count))
        let ids = arriving.map(\.id)
        return (ids, "Paste", grid.change(to: after, selecting: ids))
    }

    func collectionView(_ view: DragCollectionView, openFolderAt index: Int, duringDrag: Bool) {
        guard let grid, tiles.indices.contains(index) else { return }
        grid.onOpenFolder?(tiles[index], duringDrag)
    }
}
