import CGtk4
import DragDrop

/// A grid of tiles in reading order with multi-selection, whose tiles drag within the grid
/// (reorder), into folder tiles, and to other apps as text.
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
    /// The type folder tiles offer besides ``tileType`` (folders do not go into folders).
    public static let folderType: ContentType = "application/x-dragdrop-grid-folder"
    /// The insertion bar's colour, in 8-bit RGB (tests look for it on screen).
    nonisolated public static let insertionColor: (red: UInt8, green: UInt8, blue: UInt8) = (230, 97, 0)

    /// The grid's target identifier.
    public let id: TargetID
    /// The heading shown above the tiles, also the grid's accessible name.
    public let title: String
    /// The tiles, in reading order: what the grid holds now. Drops, edits, undo and redo change
    /// it (and ``onChange`` follows); tiles that arrive get fresh identifiers.
    public internal(set) var tiles: [Tile] = []
    /// The selected tiles' identifiers, in grid order (M1: a drag from a selected tile carries
    /// all of them).
    public internal(set) var selection: [TargetID] = []
    /// What a drop from another container does on the grid itself (S2): by default
    /// (`OperationPolicy/automatic`) a drag inside the grid moves and one from another
    /// container copies; `OperationPolicy/preferMove` makes drags from this app's other
    /// containers move. Folder tiles always take tiles as a move. Set it before
    /// ``register(in:)``; a change after registration takes effect as soon as no drag is running
    /// (the grid registers again).
    public var operationPolicy: OperationPolicy = .automatic {
        didSet { registrationChanged() }
    }
    /// Selection mode (M1): a plain click toggles a tile instead of selecting only it.
    public var isSelectionMode = false {
        didSet { onChange?() }
    }
    /// Called on the main actor after ``tiles``, ``selection`` or ``isSelectionMode`` changed.
    public var onChange: (@MainActor () -> Void)?
    /// Whether the edit menu offers Cut, Paste and Delete (C1). Set it to false when the app
    /// keeps the tiles elsewhere and only drops and Copy should change or read them.
    public var allowsEditing = true
    /// Called when a folder opens: by spring loading during a drag (`duringDrag`) or by a
    /// double click. The app shows the folder's contents.
    public var onOpenFolder: (@MainActor (_ folder: Tile, _ duringDrag: Bool) -> Void)?

    unowned let host: GtkDragHost
    let root: GObjectRef
    let flowBox: GObjectRef
    var children: [(id: TargetID, child: GObjectRef)] = []
    var registeredWindow: TargetID?
    var anchor: TargetID?
    var insertionShown: (child: GObjectRef, cssClass: String)?
    /// Deferred drops and their placeholder tiles (DragGridView+Placeholders.swift).
    let placeholders = DeferredDrops<Tile>()
    private var nextNumber = 0
    private let reregistration = ReregistrationKey()

    /// The grid's root widget (heading and tiles), to put in a window.
    public var widget: UnsafeMutablePointer<GtkWidget> { root.widget }

    var box: OpaquePointer { OpaquePointer(flowBox.raw) }

    /// Creates a grid of `tiles` with `columns` tiles per row, managed by `host`.
    public init(id: TargetID, title: String, tiles: [TileContent], columns: UInt32 = 4, host: GtkDragHost) {
        self.id = id
        self.title = title
        self.host = host
        root = GObjectRef(newWidget: gtk_box_new(GTK_ORIENTATION_VERTICAL, 6))
        flowBox = GObjectRef(newWidget: gtk_flow_box_new())
        self.tiles = tiles.map { Tile(id: newID(), title: $0.title, folderContents: $0.folder) }

        let heading = GtkWidgetSupport.heading(title)
        gtk_box_append(dd_box(root.raw), heading)
        gtk_flow_box_set_selection_mode(box, GTK_SELECTION_NONE)
        gtk_flow_box_set_homogeneous(box, 1)
        gtk_flow_box_set_min_children_per_line(box, columns)
        gtk_flow_box_set_max_children_per_line(box, columns)
        gtk_flow_box_set_row_spacing(box, 10)
        gtk_flow_box_set_column_spacing(box, 10)
        gtk_widget_set_valign(flowBox.widget, GTK_ALIGN_START)
        gtk_box_append(dd_box(root.raw), flowBox.widget)
        FocusNavigation.tabLeaves(flowBox.widget)
        gtk_widget_set_hexpand(root.widget, 1)
        gtk_widget_set_vexpand(root.widget, 1)
        GtkWidgetSupport.installCSS(Self.css, key: "dd-grid", for: root.widget)
        buildTiles()
        installEditMenu()
    }

    /// Registers the grid and its tiles with the host, inside the registered window `window`.
    public func register(in window: TargetID) throws(GtkDragHostError) {
        var container = DragTarget(id: id, name: title, frame: .zero, parent: window)
        container.accepts = [Self.tileType]
        container.insertion = .grid
        container.operationPolicy = operationPolicy
        container.clipsChildren = true
        try host.register(flowBox.widget, as: container, delegate: self)
        registeredWindow = window
        try registerTiles()
    }

    /// Registers the grid again with its current settings once no drag is running (after
    /// ``operationPolicy`` changed on a registered grid).
    private func registrationChanged() {
        guard registeredWindow != nil else { return }
        host.whenNoDragRuns(key: reregistration) { [weak self] in
            guard let self, let window = self.registeredWindow else { return }
            self.host.unregister(self.id)  // and its tiles
            do { try self.register(in: window) } catch { self.host.onDiagnostic?("error: \(error)") }
        }
    }

    /// The tile with `id`.
    public func tile(_ id: TargetID) -> Tile? { tiles.first { $0.id == id } }

    // MARK: Selection (M1)

    /// Selects exactly `ids` (in grid order).
    public func select(_ ids: [TargetID]) {
        let wanted = Set(ids)
        selection = tiles.map(\.id).filter(wanted.contains)
        for (tileID, child) in children {
            if wanted.contains(tileID) {
                gtk_widget_add_css_class(child.widget, "dd-selected")
            } else {
                gtk_widget_remove_css_class(child.widget, "dd-selected")
            }
        }
        onChange?()
    }

    /// A click on `tileID` with the modifier `state`: select it, toggle it (Ctrl, or selection
    /// mode) or extend to it (Shift).
    func clicked(_ tileID: TargetID, state: UInt32) {
        let ids = tiles.map(\.id)
        if state & GDK_SHIFT_MASK.rawValue != 0, let anchor, let from = ids.firstIndex(of: anchor),
            let to = ids.firstIndex(of: tileID)
        {
            select(Array(ids[min(from, to)...max(from, to)]))
            return
        }
        anchor = tileID
        if state & GDK_CONTROL_MASK.rawValue != 0 || isSelectionMode {
            select(selection.contains(tileID) ? selection.filter { $0 != tileID } : selection + [tileID])
        } else {
            select([tileID])
        }
    }

    // MARK: Tiles

    func newID() -> TargetID {
        nextNumber += 1
        return TargetID("\(id.rawValue).\(nextNumber)")
    }

    private func buildTiles() {
        for (_, child) in children { gtk_flow_box_remove(box, child.widget) }
        insertionShown = nil
        children = tiles.map { tile in
            let child = GObjectRef(newWidget: gtk_flow_box_child_new())
            let content = gtk_box_new(GTK_ORIENTATION_VERTICAL, 2)
            let label = gtk_label_new(tile.title)
            gtk_box_append(dd_box(UnsafeMutableRawPointer(content)), label)
            if let contents = tile.folderContents {
                let detail = gtk_label_new(contents.isEmpty ? "Folder" : "Folder · \(contents.count)")
                gtk_widget_add_css_class(detail, "dim-label")
                gtk_box_append(dd_box(UnsafeMutableRawPointer(content)), detail)
                gtk_widget_add_css_class(child.widget, "dd-folder")
            }
            gtk_widget_set_valign(content, GTK_ALIGN_CENTER)
            gtk_flow_box_child_set_child(gtkCast(child.raw, to: GtkFlowBoxChild.self), content)
            gtk_widget_set_size_request(child.widget, 96, 64)
            gtk_widget_add_css_class(child.widget, "dd-grid-tile")
            if selection.contains(tile.id) { gtk_widget_add_css_class(child.widget, "dd-selected") }
            attachClick(to: child.widget, tile: tile.id)
            gtk_flow_box_append(box, child.widget)
            return (tile.id, child)
        }
        placePlaceholders()
    }

    private func attachClick(to widget: UnsafeMutablePointer<GtkWidget>, tile: TargetID) {
        guard let click = gtk_gesture_click_new() else { return }
        gtk_gesture_single_set_button(dd_gesture_single(UnsafeMutableRawPointer(click)), guint(GDK_BUTTON_PRIMARY))
        let raw = UnsafeMutableRawPointer(click)
        let bits = PointerBits(raw)
        GSignal.connect(
            raw, "released",
            click: { [weak self] presses, _, _ in
                guard let self, let gesture = bits.pointer else { return }
                if presses == 2, let folder = self.tile(tile), folder.isFolder {
                    self.onOpenFolder?(folder, false)
                    return
                }
                self.clicked(tile, state: GtkWidgetSupport.currentState(of: gesture))
            })
        gtk_widget_add_controller(widget, click)
    }

    private func registerTiles() throws(GtkDragHostError) {
        for (tile, (_, child)) in zip(tiles, children) {
            var target = DragTarget(id: tile.id, name: tile.title, frame: .zero, parent: id)
            target.offers =
                tile.isFolder ? [Self.tileType, Self.folderType, .utf8PlainText] : [Self.tileType, .utf8PlainText]
            if tile.isFolder {
                target.accepts = [Self.tileType]
                target.operationPolicy = .preferMove
                target.springLoading = SpringLoadingConfiguration()
            }
            try host.register(child.widget, as: target, delegate: self)
            watchAddToDragKey(of: tile.id)
        }
    }

    /// Rebuilds the tiles from `tiles` and registers them again, after the engine call that
    /// changed the model returned.
    func setNeedsRebuild() {
        host.scheduleUpdate(key: self) { [weak self] in
            guard let self else { return }
            for (tileID, _) in self.children { self.host.unregister(tileID) }
            self.buildTiles()
            if self.registeredWindow != nil {
                do { try self.registerTiles() } catch { self.host.onDiagnostic?("error: \(error)") }
            }
            self.onChange?()
        }
    }

    /// Replaces the tiles and the selection.
    func setTiles(_ newTiles: [Tile], selecting: [TargetID]) {
        tiles = newTiles
        selection = tiles.map(\.id).filter(selecting.contains)
        setNeedsRebuild()
    }

    static let css = """
        .dd-grid-tile { border-radius: 8px; border: 1px solid rgba(0, 0, 0, 0.15); background-color: rgb(250, 250, 250); }
        .dd-grid-tile.dd-folder { background-color: rgb(252, 238, 190); }
        .dd-grid-tile.dd-selected { background-color: rgb(53, 132, 228); color: white; }
        .dd-grid-insert-before {
            box-shadow: -6px 0 0 0 rgb(\(insertionColor.red), \(insertionColor.green), \(insertionColor.blue));
        }
        .dd-grid-insert-after {
            box-shadow: 6px 0 0 0 rgb(\(insertionColor.red), \(insertionColor.green), \(insertionColor.blue));
        }
        """
}
