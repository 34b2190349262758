import CGtk4
import DragDrop
import Foundation

/// The app's tree behind a ``DragOutlineView``: mailboxes inside mailboxes, folders inside
/// folders. The view shows ``outline``'s rows that show (`OutlineTree/rows()`) and asks the
/// source to carry out what a person did: open or close a row, drop items at a place.
///
/// After the tree changed, call ``DragOutlineView/reloadData(selecting:)``. ``OutlineStore``
/// is a ready-made source over an `OutlineTree` the app fills.
@MainActor
public protocol DragOutlineDataSource: AnyObject {
    /// The tree as it stands.
    var outline: OutlineTree { get }

    /// Opens or closes `item` (its disclosure triangle, a double click, Return).
    func outlineView(_ view: DragOutlineView, setExpanded expanded: Bool, for item: TargetID)

    /// Performs a drop at `point` (T1): between two rows under a parent, or into a row. Items of
    /// this outline move with `OutlineTree/move(_:to:)` (T4); return how to undo it (T6).
    func outlineView(_ view: DragOutlineView, perform drop: DropRequest, at point: OutlineDropPoint) -> DropResult

    /// A second, dimmer line under the item's name; nil for none. Default: nil.
    func outlineView(_ view: DragOutlineView, detailFor item: TargetID) -> String?

    /// The item's data for drags (P1). Default: its name as UTF-8 text.
    func outlineView(_ view: DragOutlineView, itemProviderFor item: TargetID) -> ItemProvider?

    /// Takes items moved to another container out of the tree, after the destination committed
    /// them (S4); returns how to put them back. Moves inside the outline are the drop's own
    /// work: this is not asked for them. Default: nothing to remove.
    func outlineView(_ view: DragOutlineView, removeMovedItems items: [DragItem], after drop: DropRequest)
        -> UndoableAction?
}

extension DragOutlineDataSource {
    public func outlineView(_ view: DragOutlineView, detailFor item: TargetID) -> String? { nil }
    public func outlineView(_ view: DragOutlineView, itemProviderFor item: TargetID) -> ItemProvider? {
        ItemProvider(app: view.host.engine.app, representations: [.text(.utf8PlainText, outline.name(of: item))])
    }
    public func outlineView(_ view: DragOutlineView, removeMovedItems items: [DragItem], after drop: DropRequest)
        -> UndoableAction?
    { nil }
}

/// A hierarchical list with drag and drop (T1–T7): rows indented under their parents with
/// disclosure triangles, a drop between two rows at the depth the pointer's horizontal position
/// picks (the line is drawn at that depth) or into a row that holds children (it highlights),
/// never into a dragged item's own subtree (refused with the reason, T3), several items from
/// different parents at once (T4), every drop point reachable by keyboard and named by parent and
/// position (T5), and undo (T6).
///
/// It is a ``DragCollectionView`` showing the rows that show (virtualized: only the rows on
/// screen have widgets, T7) over the tree of a ``DragOutlineDataSource``, so it has everything
/// the collection view has: selection, flocking with a count, the edit menu, autoscroll.
///
/// ```swift
/// let store = OutlineStore(tree: mailboxes)
/// let outline = DragOutlineView(title: "Mailboxes", host: host, itemType: "application/x-mailbox")
/// outline.dataSource = store
/// gtk_box_append(box, outline.widget)   // registers itself once in the window
/// ```
@MainActor
public final class DragOutlineView {
    /// The list showing the rows.
    public let collection: DragCollectionView
    /// The tree behind the rows (held weakly: the app owns it).
    public weak var dataSource: (any DragOutlineDataSource)? {
        didSet { reloadData() }
    }
    /// The indentation of one level, in pixels.
    public let indent: Double
    unowned let host: GtkDragHost
    private let rows = OutlineRows()

    /// The widget to put in a window.
    public var widget: UnsafeMutablePointer<GtkWidget> { collection.widget }
    /// The outline's target identifier.
    public var id: TargetID { collection.id }

    /// Creates an empty outline of items of `itemType`; give it a ``dataSource``. With no `id`,
    /// it registers itself once placed in a window of `host`.
    ///
    /// `alsoTakes`: other content it takes, dropped on a row (messages on a mailbox, files on a
    /// folder): the whole row under the pointer is the drop point, never a gap between rows,
    /// and rows the tree refuses (`OutlineTree/refusals`) say why. `policy`: the operation
    /// for such content (S2; `.preferMove` for messages that move between mailboxes).
    /// `dropsOnRowsOnly`: rows too drop only into rows, for a tree whose children the app
    /// orders itself (folders sorted by name; `OutlineLayout/dropsOnRowsOnly`). `showsHeading`:
    /// the title above the rows (off when the app shows its own).
    public init(
        id: TargetID? = nil, title: String, host: GtkDragHost, itemType: ContentType, kind: Noun = .item,
        indent: Double = 20, alsoTakes: [ContentType] = [], policy: OperationPolicy = .automatic,
        dropsOnRowsOnly: Bool = false, showsHeading: Bool = true
    ) {
        self.host = host
        self.indent = indent
        var options = DragCollectionView.Options(itemType: itemType, kind: kind)
        options.showsHeading = showsHeading
        options.outline = OutlineLayout(
            indent: indent, origin: Self.padding, dropsFromOutsideOnRows: !alsoTakes.isEmpty,
            dropsOnRowsOnly: dropsOnRowsOnly)
        options.extraAccepts = alsoTakes
        options.operationPolicy = policy
        options.offersMoveAndCopyTo = false
        collection = DragCollectionView(id: id, title: title, host: host, options: options)
        rows.view = self
        collection.outlineView = self
        collection.dataSource = rows
        openAndCloseWithArrows()
    }

    /// Right opens the focused row, Left closes it (or goes to its parent when it is closed), as
    /// in every tree a desktop shows.
    private func openAndCloseWithArrows() {
        guard let keys = gtk_event_controller_key_new() else { return }
        GSignal.connect(
            UnsafeMutableRawPointer(keys), "key-pressed",
            key: { [weak self] keyval, _, state in
                guard let self, !self.host.engine.isDragging,
                    state & (GDK_CONTROL_MASK.rawValue | GDK_SHIFT_MASK.rawValue | GDK_ALT_MASK.rawValue) == 0,
                    keyval == UInt32(GDK_KEY_Right) || keyval == UInt32(GDK_KEY_Left),
                    let item = self.collection.focusedItem, let dataSource = self.dataSource
                else { return false }
                let open = self.tree.expanded.contains(item)
                if keyval == UInt32(GDK_KEY_Right) {
                    guard self.tree.containers.contains(item), !open else { return false }
                    dataSource.outlineView(self, setExpanded: true, for: item)
                    self.reloadData()
                } else if open {
                    dataSource.outlineView(self, setExpanded: false, for: item)
                    self.reloadData()
                } else if let parent = self.tree.parent(of: item) {
                    self.collection.scrollTo(parent)
                    if let cell = self.collection.boundByID[parent], let row = gtk_widget_get_parent(cell.widget) {
                        gtk_widget_grab_focus(row)
                    }
                }
                return true
            })
        gtk_widget_add_controller(collection.itemsWidget, keys)
    }

    /// Where a row's content starts, from the list's left edge (the row's padding).
    static let padding = 12.0

    /// Registers the outline inside the registered target `parent` (only for an outline made
    /// with an `id`).
    public func register(in parent: TargetID) throws(GtkDragHostError) { try collection.register(in: parent) }

    /// Reads the tree again and shows what changed, keeping the rows on screen in place.
    public func reloadData(selecting ids: [TargetID]? = nil) {
        rows.refresh(dataSource?.outline ?? OutlineTree())
        collection.reloadData(selecting: ids)
    }

    /// The selected items, in the order they show.
    public var selection: [TargetID] { collection.selection }

    /// Selects `ids`.
    public func select(_ ids: [TargetID]) { collection.select(ids) }

    /// Called after the selection changed (a click, a key, a reload).
    public var onSelectionChanged: (@MainActor () -> Void)? {
        get { collection.onSelectionChanged }
        set { collection.onSelectionChanged = newValue }
    }

    // MARK: For the collection view

    /// The tree as the view shows it.
    var tree: OutlineTree { rows.tree }

    /// Called when a person opens a row's content: a click on the row (not on its triangle,
    /// with no modifier held), a double click or Return. When set, these open the row (a
    /// mailbox's messages, a folder's files) instead of showing or hiding its children, which
    /// the triangle and the Right and Left keys still do. Nil: they show or hide the children.
    public var onOpen: (@MainActor (TargetID) -> Void)? {
        didSet { collection.reloadData() }
    }

    /// The row shown at data index `index`.
    func row(at index: Int) -> OutlineRow? { rows.rows[safe: index] }

    /// A row opened: what `onOpen` does when set, else the row opens or closes.
    func activate(_ item: TargetID) {
        if let onOpen {
            onOpen(item)
        } else {
            toggle(item)
        }
    }

    /// Opens a closed row, closes an open one.
    func toggle(_ item: TargetID) {
        guard let dataSource, tree.containers.contains(item) else { return }
        dataSource.outlineView(self, setExpanded: !tree.expanded.contains(item), for: item)
        reloadData()
    }

    /// The position among the rows that show where a drop between rows at `point` lands: the
    /// row it would come before (the count of rows for the very end). Nil for a drop on a row.
    func position(of point: OutlineDropPoint) -> Int? {
        guard case .between(let parent, let index, _) = point else { return nil }
        let siblings = tree.children(of: parent)
        if index < siblings.count { return rows.positions[siblings[index]] }
        if index > 0, let last = rows.positions[siblings[siblings.count - 1]] {
            // After the last sibling's rows that show.
            var next = last + 1
            while next < rows.rows.count, rows.rows[next].depth > rows.rows[last].depth { next += 1 }
            return next
        }
        guard let parent else { return 0 }
        return rows.positions[parent].map { $0 + 1 }
    }

    // MARK: Spring loading (T2)

    /// Rows a held drag opened (T2), the latest last: each closes again when the drag leaves it
    /// without dropping inside.
    private(set) var springOpened: [TargetID] = []
    /// Whether the rows it opened wait for the drag to end (``closeWhenTheDragEnds()``).
    private var waitsForTheDragEnd = false
    /// Where the last drop went (its parent), to keep the rows open that it went into.
    private var lastDropParent: TargetID??
    private let closingKey = UpdateKeyObject()
    private final class UpdateKeyObject {}

    /// A closed row under a held drag springs open (T2, SP1). Runs inside an engine call: the
    /// rows change once it is over.
    func springOpen(_ item: TargetID) {
        guard tree.containers.contains(item), !tree.expanded.contains(item) else { return }
        springOpened.append(item)
        host.scheduleUpdate(key: self) { [weak self] in
            guard let self, let dataSource = self.dataSource, !self.tree.expanded.contains(item) else { return }
            dataSource.outlineView(self, setExpanded: true, for: item)
            self.reloadData()
        }
    }

    /// The drop point moved (nil: none shows): a row the drag opened closes again once the
    /// drop point is outside it; when the drag is over, the rows it opened close unless the
    /// drop went inside them.
    func dropPointMoved(to point: OutlineDropPoint?) {
        guard !springOpened.isEmpty else { return }
        host.scheduleUpdate(key: closingKey) { [weak self] in
            guard let self else { return }
            let dragging = self.host.engine.isDragging
            // Where things are (or went): inside the rows that stay open.
            let place: TargetID?? = dragging ? point.map { $0.parent } : self.lastDropParent
            guard dragging ? point != nil : true else {
                // Off the outline (or refused): the rows stay open while the drag goes on, and
                // close when it ends without a drop inside them (it may end elsewhere).
                self.closeWhenTheDragEnds()
                return
            }
            let keep: (TargetID) -> Bool = { row in
                // The gap right above the row is still at it (the pointer on its top edge).
                if dragging, case .between(let parent, let index, _)? = point, parent == self.tree.parent(of: row),
                    self.tree.children(of: parent).firstIndex(of: row) == index
                {
                    return true
                }
                guard let outer = place, let parent = outer else { return false }
                return self.tree.contains(parent, inside: row)
            }
            let closing = self.springOpened.filter { !keep($0) }
            self.springOpened.removeAll { closing.contains($0) }
            if !dragging {
                self.springOpened = []
                self.lastDropParent = nil
            }
            guard !closing.isEmpty, let dataSource = self.dataSource else { return }
            for row in closing.reversed() where self.tree.expanded.contains(row) {
                dataSource.outlineView(self, setExpanded: false, for: row)
            }
            self.reloadData()
        }
    }

    /// Once the drag is over (the host says so), closes the rows it opened that the drop did
    /// not go into.
    private func closeWhenTheDragEnds() {
        guard !springOpened.isEmpty, !waitsForTheDragEnd else { return }
        waitsForTheDragEnd = true
        host.whenTheDragEnds { [weak self] in
            guard let self else { return }
            self.waitsForTheDragEnd = false
            self.dropPointMoved(to: nil)
        }
    }

    func perform(_ drop: DropRequest) -> DropResult {
        guard let dataSource else {
            return .failed(DropFailure(.failed, Localization.format(.notAvailable, ["name": .name(collection.title)])))
        }
        let point = drop.outline ?? .between(parent: nil, index: tree.children(of: nil).count, depth: 0)
        lastDropParent = .some(point.parent)
        let result = dataSource.outlineView(self, perform: drop, at: point)
        reloadData()
        return result
    }
}

/// The rows that show of an outline, as a ``DragCollectionDataSource``: what the collection view
/// lists, rebuilt only when the tree changed.
@MainActor
final class OutlineRows: DragCollectionDataSource {
    weak var view: DragOutlineView?
    private(set) var tree = OutlineTree()
    private(set) var rows: [OutlineRow] = []
    private(set) var positions: [TargetID: Int] = [:]
    private var shownRevision: Int?

    func refresh(_ tree: OutlineTree) {
        // The revision and the count tell a changed tree in O(1) (comparing 100,000 rows at
        // every reload would not be, T7).
        if shownRevision == tree.revision, tree.count == self.tree.count { return }
        self.tree = tree
        shownRevision = tree.revision
        rows = tree.rows()
        positions = Dictionary(rows.enumerated().map { ($1.id, $0) }) { first, _ in first }
    }

    var numberOfItems: Int { rows.count }
    func itemID(at index: Int) -> TargetID { rows[index].id }
    func title(at index: Int) -> String { tree.name(of: rows[index].id) }
    func detail(at index: Int) -> String? {
        guard let view else { return nil }
        return view.dataSource?.outlineView(view, detailFor: rows[index].id)
    }

    func collectionView(_ collection: DragCollectionView, perform drop: DropRequest, at index: Int) -> DropResult {
        view?.perform(drop) ?? .failed(DropFailure(.failed, Localization.format(.outlineGone)))
    }

    func collectionView(_ collection: DragCollectionView, removeMovedItems items: [DragItem], after drop: DropRequest)
        -> UndoableAction?
    {
        // A move inside the outline was the drop's whole work.
        guard let view, drop.destination != view.id, let dataSource = view.dataSource else { return nil }
        return dataSource.outlineView(view, removeMovedItems: items, after: drop)
    }

    func collectionView(_ collection: DragCollectionView, itemProviderAt index: Int) -> ItemProvider? {
        guard let view, let dataSource = view.dataSource else { return nil }
        return dataSource.outlineView(view, itemProviderFor: rows[index].id)
    }
}

/// A ready-made ``DragOutlineDataSource`` over an `OutlineTree`: rows open and close, drops of
/// the outline's own items move them (T4) with undo (T6), and items dropped from elsewhere are
/// added as new rows named like them. ``onChange`` tells the app to save.
@MainActor
public final class OutlineStore: DragOutlineDataSource {
    /// The tree.
    public var outline: OutlineTree
    /// Called after the tree changed (a drop, an undo, a row opened).
    public var onChange: (@MainActor () -> Void)?

    /// A store holding `tree`.
    public init(tree: OutlineTree) { outline = tree }

    public func outlineView(_ view: DragOutlineView, setExpanded expanded: Bool, for item: TargetID) {
        if expanded { outline.expanded.insert(item) } else { outline.expanded.remove(item) }
        onChange?()
    }

    public func outlineView(_ view: DragOutlineView, perform drop: DropRequest, at point: OutlineDropPoint)
        -> DropResult
    {
        let ids = drop.items.map(\.id)
        let before = outline
        if ids.allSatisfy(outline.holds) {
            do {
                _ = try outline.move(ids, to: point)
            } catch {
                return .failed(DropFailure(.forbidden, error.description))
            }
        } else {
            // From elsewhere: new rows named like the items, where the drop put them.
            var added: [TargetID] = []
            for item in drop.items {
                let id = TargetID("\(view.id.rawValue)-\(UUID().uuidString)")
                do {
                    try outline.append(id, name: item.name, under: point.parent)
                } catch {
                    outline = before
                    return .failed(DropFailure(.forbidden, error.description))
                }
                added.append(id)
            }
            _ = try? outline.move(added, to: point)
        }
        let after = outline
        onChange?()
        return .committed(
            undo: UndoableAction(
                undo: { [weak self, weak view] in
                    self?.outline = before
                    self?.onChange?()
                    view?.reloadData()
                },
                redo: { [weak self, weak view] in
                    self?.outline = after
                    self?.onChange?()
                    view?.reloadData()
                }))
    }
}
