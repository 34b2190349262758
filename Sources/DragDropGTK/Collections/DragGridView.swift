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
public final class DragGridView: DragCollectionWidget, GtkDragRegistering {
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
    public var tiles: [Tile] { store.elements }
    /// The selected tiles' identifiers, in grid order (M1: a drag from a selected tile carries
    /// all of them).
    public var selection: [TargetID] { view.selection }
    /// What a drop from another container does on the grid itself (S2): by default
    /// (`OperationPolicy/automatic`) a drag inside the grid moves and one from another
    /// container copies; `OperationPolicy/preferMove` makes drags from this app's other
    /// containers move. Folder tiles always take tiles as a move. A change after
    /// ``register(in:)`` takes effect as soon as no drag is running.
    public var operationPolicy: OperationPolicy = .automatic {
        didSet {
            let policy = operationPolicy
            store.changeOptions { $0.operationPolicy = policy }
        }
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
    public var onChange: (@MainActor () -> Void)? {
        get { store.onChange }
        set { store.onChange = newValue }
    }
    /// Whether the edit menu offers Cut, Paste and Delete (C1). Set it to false when the app
    /// keeps the tiles elsewhere and only drops and Copy should change or read them.
    public var allowsEditing = true {
        didSet { store.allowEditing(allowsEditing) }
    }
    /// Called when a folder opens: by spring loading during a drag (`duringDrag`) or by a
    /// double click. The app shows the folder's contents.
    public var onOpenFolder: (@MainActor (_ folder: Tile, _ duringDrag: Bool) -> Void)? {
        get { store.openFolder }
        set { store.openFolder = newValue }
    }
    /// The collection view showing the tiles.
    public var view: DragCollectionView { store.view }

    /// The grid's root widget (heading and tiles), to put in a window.
    public var widget: UnsafeMutablePointer<GtkWidget> { view.widget }

    private let host: GtkDragHost
    private let store: ElementStore<Tile>

    /// Creates a grid of `tiles` with `columns` tiles per row, managed by `host`.
    public init(id: TargetID? = nil, title: String, tiles: [TileContent], columns: UInt32 = 4, host: GtkDragHost) {
        self.id = id ?? GtkDragHost.uniqueID(title)
        self.title = title
        self.host = host
        var options = DragCollectionView.Options(itemType: Self.tileType)
        options.layout = .grid(columns: Int(columns))
        options.emptyText = ""
        store = ElementStore(
            id: self.id, title: title, host: host, options: options,
            elements: tiles.map { Tile(id: TargetID(""), title: $0.title, folderContents: $0.folder) })
        // A tile from any grid of the app arrives as itself (a folder with its contents).
        store.arrival = { [weak self] item in self?.draggedTile(item) ?? Tile(id: item.id, title: item.name) }
        store.intoFolder = { [weak self] tiles, folder, drop in
            var after = tiles
            after[folder].folderContents?.append(
                contentsOf: drop.items.flatMap { item -> [String] in
                    let tile = self?.draggedTile(item) ?? Tile(id: item.id, title: item.name)
                    return tile.folderContents ?? [tile.title]
                })
            return after
        }
        view.onDragPrepared = { [weak self] in self?.watchAddToDragKey() }
        if id == nil { host.registerWhenPlaced(self) }
    }

    /// Registers the grid and its tiles with the host, inside the registered window `window`;
    /// from then on the window keeps the grid alive.
    public func register(in window: TargetID) throws(GtkDragHostError) {
        try store.register(in: window, keeping: self)
    }

    /// The tile with `id`.
    public func tile(_ id: TargetID) -> Tile? { tiles.first { $0.id == id } }

    /// Selects exactly `ids` (in grid order).
    public func select(_ ids: [TargetID]) { view.select(ids) }

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
        DefaultSeat.modifiers.rawValue & GDK_ALT_MASK.rawValue != 0
    }

    /// The tile a dragged item stands for, from whichever grid in this app owns it.
    private func draggedTile(_ item: DragItem) -> Tile {
        let owner = (host.owner(of: item.id) as? DragCollectionView)?.dataSource as? ElementStore<Tile>
        return owner?.elements.first { $0.id == item.id } ?? tile(item.id) ?? Tile(id: item.id, title: item.name)
    }
}

extension DragGridView.Tile: StoredElement {
    init(id: TargetID, title: String) { self.init(id: id, title: title, folderContents: nil) }
    var detail: String? { folderContents.map { $0.isEmpty ? "Folder" : "Folder \u{00B7} \($0.count)" } }
}
