import CGtk4
import DragDrop

/// A reorderable list of text items: a convenience over ``DragCollectionView`` for a list whose
/// items are only titles (a grocery list, a playlist's titles). Everything is the collection
/// view's: only the rows on screen have widgets, multi-selection (click, Ctrl-click,
/// Shift-click), rows making room (F8), autoscroll, keyboard dragging, the edit menu,
/// placeholders (A4), undo (U1). For an app's own values (reminders, tasks) use
/// ``DragValueList``, which drags and drops them as themselves.
///
/// Between two lists a drag copies by default, as the guidelines ask of different containers
/// (S2); a list whose items belong in one place at a time asks for a move with
/// ``operationPolicy`` (on every list that should receive moves). Holding Ctrl still forces a
/// copy, and Shift a move.
///
/// ```swift
/// let groceries = DragListView(id: "groceries", title: "Groceries", items: ["Milk", "Eggs"], host: host)
/// groceries.operationPolicy = .preferMove   // drags from other lists move here, as in Reminders
/// groceries.onChange = { print(groceries.items.map(\.title)) }
/// gtk_box_append(box, groceries.widget)
/// try groceries.register(in: "main")
/// ```
///
/// Read the model through ``items`` and ``selection`` (both change with drops, edits, undo and
/// redo, and ``onChange`` tells of every change). The window keeps a registered list alive
/// until it closes or the list is unregistered.
@MainActor
public final class DragListView {
    /// One row's content.
    public struct Item: Hashable, Sendable {
        /// The row's target identifier, unique in the app.
        public var id: TargetID
        /// The text shown.
        public var title: String
    }

    /// The type rows offer and lists accept.
    public static let itemType: ContentType = "application/x-dragdrop-list-item"

    /// The list's target identifier, unique in the app; rows get identifiers derived from it
    /// (`"groceries.1"`, `"groceries.2"`...).
    public let id: TargetID
    /// The heading shown above the rows, also the list's accessible name.
    public let title: String
    /// The rows, in order: what the list holds now. Drops, Cut, Paste, Delete, undo and redo
    /// change it (and ``onChange`` follows); items that arrive get fresh identifiers.
    public private(set) var items: [Item]
    /// The selected rows' identifiers, in list order (M1: a drag from a selected row carries all
    /// of them). Changed by clicks (Ctrl toggles, Shift extends), keys, and drops, which select
    /// what arrived.
    public var selection: [TargetID] { view.selection }
    /// What a drop from another container does (S2).
    ///
    /// - `OperationPolicy/automatic` (the default): the guidelines' rules: a drag inside the
    ///   list moves, a drag from another list or window copies (with a copy badge), a drag from
    ///   another app copies.
    /// - `OperationPolicy/preferMove`: drags from other lists of this app move here, as
    ///   reminders do between lists; drags from other apps still copy.
    /// - `OperationPolicy/alwaysCopy`: every drop copies, even a reorder inside the list.
    /// - `OperationPolicy/forbidden(reason:)`: the list refuses drops and says why.
    ///
    /// The policy is the destination's: for moves both ways between two lists, set it on both.
    /// A change after ``register(in:)`` takes effect as soon as no drag is running.
    public var operationPolicy: OperationPolicy {
        didSet { optionsChanged() }
    }
    /// What a row is called in announcements and undo names ("Undo Copy Video"); nil: "Item".
    /// A change after ``register(in:)`` takes effect as soon as no drag is running.
    public var itemKind: Noun? {
        didSet { optionsChanged() }
    }
    /// The question the user confirms before a drop on this list when such drops cannot be
    /// undone (U2); nil (the default): no question. A change after ``register(in:)`` takes
    /// effect as soon as no drag is running.
    public var confirmation: String? {
        didSet { optionsChanged() }
    }
    /// Called on the main actor after ``items`` or ``selection`` changed: after drops, edits,
    /// undo, redo, clicks and keys. Read the list's properties inside.
    public var onChange: (@MainActor () -> Void)?
    /// Whether the edit menu offers Cut, Paste and Delete (C1). Set it to false when the app
    /// keeps the rows elsewhere and only drops and Copy should change or read them.
    public var allowsEditing = true {
        didSet { view.editing = Self.editing(allowsEditing) }
    }
    /// The collection view showing the rows: for what the list does not forward (scrolling,
    /// focus, the items widget).
    public let view: DragCollectionView

    /// The list's root widget (heading and rows), to put in a window.
    public var widget: UnsafeMutablePointer<GtkWidget> { view.widget }

    private let host: GtkDragHost
    private let storage: Storage
    private var nextNumber = 0
    /// Where the list is registered (a window), while it is.
    private var parent: TargetID?
    /// Inside ``setItems(_:selecting:)``: the view's selection change is part of it.
    private var changing = false
    private let reregistration = ReregistrationKey()
    private let notification = ReregistrationKey()

    /// Creates a list showing `items` in order, managed by `host`; `operationPolicy` is the
    /// same as setting ``operationPolicy`` afterwards. Put ``widget`` in a window, then call
    /// ``register(in:)``.
    public init(
        id: TargetID, title: String, items: [String], host: GtkDragHost, operationPolicy: OperationPolicy = .automatic
    ) {
        self.id = id
        self.title = title
        self.host = host
        self.operationPolicy = operationPolicy
        self.items = []
        storage = Storage()
        var options = DragCollectionView.Options(itemType: Self.itemType)
        options.operationPolicy = operationPolicy
        options.growsWithContent = true
        options.emptyText = ""
        view = DragCollectionView(id: id, title: title, host: host, options: options)
        view.editing = Self.editing(true)
        self.items = items.map { Item(id: newID(), title: $0) }
        storage.list = self
        view.dataSource = storage
        view.onSelectionChanged = { [weak self] in
            guard let self, !self.changing else { return }
            self.onChange?()
        }
        view.reloadData()
    }

    /// Registers the list and its rows with the host, inside the registered window `window`
    /// (added with ``GtkDragHost/addWindow(_:id:name:undoShortcuts:)``): from then on its rows
    /// drag and it takes drops, and the window keeps the list alive. Throws when the window is
    /// not registered or the identifier is taken.
    public func register(in window: TargetID) throws(GtkDragHostError) {
        try view.register(in: window)
        parent = window
        host.keepAlive(self, while: id)
    }

    /// Selects every row.
    public func selectAll() { view.selectAll() }

    // MARK: Deferred drops (A4)

    /// Decides whether a drop on this list loads its content later. Return true to show
    /// placeholders at once; then report progress with ``GtkDragHost/updateDeferredDrop(_:progress:)``
    /// and end with ``finishDeferredDrop(_:failure:)``. Nil (the default): drops commit at once.
    public var defersDrop: (@MainActor (DropRequest) -> Bool)? {
        get { view.defersDrop }
        set { view.defersDrop = newValue }
    }

    /// The deferred drops still loading, oldest first.
    public var pendingDrops: [DropToken] { view.pendingDrops }

    /// Ends a deferred drop: without `failure` the items arrive where the placeholders are (one
    /// undo step with a move's removal from its source, U1, S4); with it, the placeholders go
    /// away and the reason is shown (A6). Unknown tokens are ignored.
    public func finishDeferredDrop(_ token: DropToken, failure: DropFailure? = nil) {
        view.finishDeferredDrop(token, failure: failure)
    }

    // MARK: Changes

    private static func editing(_ allowed: Bool) -> DragCollectionView.EditingOptions {
        DragCollectionView.EditingOptions(cutAndPaste: allowed, delete: allowed)
    }

    /// Shows the view with the current settings; a registered list registers again once no drag
    /// is running (a drag keeps its targets as they were when it started).
    private func optionsChanged() {
        var options = view.options
        options.operationPolicy = operationPolicy
        options.kind = itemKind ?? .item
        options.confirmation = confirmation
        guard view.isRegistered else {
            view.show(id: id, title: title, options: options)
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

    /// Replaces the rows (a drop, an edit, an undo or a redo) and tells the view and the app.
    fileprivate func setItems(_ new: [Item], selecting: [TargetID]?) {
        let old = items.map(\.id)
        items = new
        changing = true
        view.applyChanges(DragCollectionView.changes(from: old, to: new.map(\.id)), selecting: selecting)
        changing = false
        // Once the engine call that changed them returned: a drop and its source's removal, or
        // an undo of both, are one change to the app.
        host.scheduleUpdate(key: notification) { [weak self] in self?.onChange?() }
    }

    /// Replaces the rows with `after` as one undoable change; returns its undo.
    fileprivate func change(to after: [Item], selecting: [TargetID]) -> UndoableAction {
        let before = items
        setItems(after, selecting: selecting)
        return UndoableAction(
            undo: { [weak self] in self?.setItems(before, selecting: []) },
            redo: { [weak self] in self?.setItems(after, selecting: selecting) })
    }
}

/// The rows behind the list's collection view.
@MainActor
private final class Storage: DragCollectionDataSource {
    weak var list: DragListView?
    private var items: [DragListView.Item] { list?.items ?? [] }

    var numberOfItems: Int { items.count }
    func itemID(at index: Int) -> TargetID { items[index].id }
    func title(at index: Int) -> String { items[index].title }

    func collectionView(_ view: DragCollectionView, perform drop: DropRequest, at index: Int) -> DropResult {
        guard let list else { return .failed(DropFailure(.failed, "\(view.title) is not available.")) }
        // Arrivals get new identifiers, so a move's originals and arrivals never share one.
        let arriving = drop.items.map { DragListView.Item(id: list.newID(), title: $0.name) }
        var after = items
        after.insert(contentsOf: arriving, at: min(max(0, index), after.count))
        return .committed(undo: list.change(to: after, selecting: arriving.map(\.id)))
    }

    func collectionView(_ view: DragCollectionView, removeMovedItems moved: [DragItem], after drop: DropRequest)
        -> UndoableAction?
    {
        guard let list else { return nil }
        let ids = Set(moved.map(\.id))
        let kept = items.filter { !ids.contains($0.id) }
        guard kept.count != items.count else { return nil }
        return list.change(to: kept, selecting: list.selection.filter { !ids.contains($0) })
    }

    /// Another app took rows with a move: they leave the list (S4).
    func collectionView(_ view: DragCollectionView, itemsMovedToOtherApp moved: [DragItem], app: AppID?)
        -> [TargetID]
    {
        guard let list else { return [] }
        let ids = Set(moved.map(\.id))
        let leaving = items.filter { ids.contains($0.id) }.map(\.id)
        if !leaving.isEmpty { list.setItems(items.filter { !ids.contains($0.id) }, selecting: nil) }
        return leaving
    }

    func collectionView(_ view: DragCollectionView, deleteItems ids: [TargetID]) -> (
        name: String, action: UndoableAction
    )? {
        guard let list else { return nil }
        let doomed = Set(ids)
        let kept = items.filter { !doomed.contains($0.id) }
        guard kept.count != items.count else { return nil }
        return ("Delete", list.change(to: kept, selecting: []))
    }

    func collectionView(_ view: DragCollectionView, insertTitles titles: [String], at index: Int) -> (
        ids: [TargetID], name: String, action: UndoableAction
    )? {
        guard let list else { return nil }
        let arriving = titles.map { DragListView.Item(id: list.newID(), title: $0) }
        var after = items
        after.insert(contentsOf: arriving, at: min(max(0, index), after.count))
        let ids = arriving.map(\.id)
        return (ids, "Paste", list.change(to: after, selecting: ids))
    }
}
