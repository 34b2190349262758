import DragDrop

/// An element of a ``DragListView`` or ``DragGridView``: identified, titled, maybe a folder.
protocol StoredElement: Sendable {
    var id: TargetID { get set }
    var title: String { get }
    /// Whether it takes drops and springs open (a grid's folder tile).
    var isFolder: Bool { get }
    /// A second, dimmer line (a folder's count).
    var detail: String? { get }
    /// A plain element: pasted text, or an item that arrived from elsewhere.
    init(id: TargetID, title: String)
}

extension StoredElement {
    var isFolder: Bool { false }
    var detail: String? { nil }
}

/// The array behind a ``DragListView`` or ``DragGridView`` and the collection view showing it:
/// every change (a drop, a move out, Cut, Paste, Delete, undo, redo) replaces the array, shows
/// what changed, and tells the widget's `onChange` once the engine call that changed it
/// returned (a drop and its source's removal are one change to the app). Arrivals get fresh
/// identifiers derived from the widget's (`"groceries.1"`...), so a move's originals and
/// arrivals never share one.
@MainActor
final class ElementStore<Element: StoredElement>: DragCollectionDataSource {
    let view: DragCollectionView
    private let host: GtkDragHost
    private let prefix: String
    private(set) var elements: [Element] = []
    /// Called after the elements or the selection changed.
    var onChange: (@MainActor () -> Void)?
    /// What a dragged item becomes here (default: a plain element with the item's name).
    var arrival: (@MainActor (DragItem) -> Element)?
    /// What a drop on the folder at an index makes of the elements (nil: folders take nothing).
    var intoFolder: (@MainActor (_ elements: [Element], _ folder: Int, _ drop: DropRequest) -> [Element])?
    /// A folder opened: by a double click, or springing open under a drag.
    var openFolder: (@MainActor (Element, _ duringDrag: Bool) -> Void)?
    private var nextNumber = 0
    /// Where the widget is registered (a window), while it is.
    private var parent: TargetID?
    /// Inside ``set(_:selecting:)``: the view's selection change is part of it.
    private var changing = false
    private let reregistration = UpdateKey()
    private let notification = UpdateKey()

    init(id: TargetID, title: String, host: GtkDragHost, options: DragCollectionView.Options, elements: [Element]) {
        self.host = host
        prefix = id.rawValue
        view = DragCollectionView(id: id, title: title, host: host, options: options)
        view.editing = Self.editing(true)
        self.elements = elements.map { element in
            var element = element
            element.id = newID()
            return element
        }
        view.dataSource = self
        view.onSelectionChanged = { [weak self] in
            guard let self, !self.changing else { return }
            self.onChange?()
        }
        view.reloadData()
    }

    /// Registers the view under `window`; the window keeps `owner` (the widget) alive from then on.
    func register(in window: TargetID, keeping owner: AnyObject) throws(GtkDragHostError) {
        try view.register(in: window)
        parent = window
        host.keepAlive(owner, while: view.id)
    }

    /// Whether Cut, Paste and Delete are offered (C1).
    func allowEditing(_ allowed: Bool) { view.editing = Self.editing(allowed) }

    private static func editing(_ allowed: Bool) -> DragCollectionView.EditingOptions {
        DragCollectionView.EditingOptions(cutAndPaste: allowed, delete: allowed)
    }

    /// Changes the view's options; a registered view registers again once no drag is running
    /// (a drag keeps its targets as they were when it started).
    func changeOptions(_ change: @escaping (inout DragCollectionView.Options) -> Void) {
        var options = view.options
        change(&options)
        guard view.isRegistered else {
            let mode = view.isSelectionMode
            view.show(id: view.id, title: view.title, options: options)
            view.isSelectionMode = mode
            return
        }
        host.whenNoDragRuns(key: reregistration) { [weak self] in
            guard let self, let window = self.parent, self.view.isRegistered else { return }
            var options = self.view.options
            change(&options)
            let selected = self.view.selection
            let mode = self.view.isSelectionMode
            self.view.show(id: self.view.id, title: self.view.title, options: options)
            self.view.isSelectionMode = mode
            do { try self.view.register(in: window) } catch { self.host.onDiagnostic?("error: \(error)") }
            self.view.reloadData(selecting: selected)
        }
    }

    func newID() -> TargetID {
        nextNumber += 1
        return TargetID("\(prefix).\(nextNumber)")
    }

    /// Replaces the elements and tells the view now and the app once the engine call returned.
    func set(_ new: [Element], selecting: [TargetID]?) {
        let old = elements.map(\.id)
        elements = new
        changing = true
        view.applyChanges(DragCollectionView.changes(from: old, to: new.map(\.id)), selecting: selecting)
        changing = false
        host.scheduleUpdate(key: notification) { [weak self] in self?.onChange?() }
    }

    /// Replaces the elements with `after` as one undoable change; returns its undo.
    func change(to after: [Element], selecting: [TargetID]) -> UndoableAction {
        let before = elements
        set(after, selecting: selecting)
        return UndoableAction(
            undo: { [weak self] in self?.set(before, selecting: []) },
            redo: { [weak self] in self?.set(after, selecting: selecting) })
    }

    /// Inserts `arriving` (fresh identifiers given here) at `index`, selected; returns the undo.
    private func insert(_ arriving: [Element], at index: Int) -> (ids: [TargetID], undo: UndoableAction) {
        let fresh = arriving.map { element in
            var element = element
            element.id = newID()
            return element
        }
        var after = elements
        after.insert(contentsOf: fresh, at: min(max(0, index), after.count))
        let ids = fresh.map(\.id)
        return (ids, change(to: after, selecting: ids))
    }

    // MARK: DragCollectionDataSource

    var numberOfItems: Int { elements.count }
    func itemID(at index: Int) -> TargetID { elements[index].id }
    func title(at index: Int) -> String { elements[index].title }
    func isFolder(at index: Int) -> Bool { elements[index].isFolder }
    func detail(at index: Int) -> String? { elements[index].detail }

    func collectionView(_ view: DragCollectionView, perform drop: DropRequest, at index: Int) -> DropResult {
        let arriving = drop.items.map { arrival?($0) ?? Element(id: $0.id, title: $0.name) }
        return .committed(undo: insert(arriving, at: index).undo)
    }

    func collectionView(_ view: DragCollectionView, perform drop: DropRequest, intoFolderAt index: Int) -> DropResult {
        guard let intoFolder, elements.indices.contains(index), elements[index].isFolder else {
            return .failed(DropFailure(.forbidden, Localization.format(.noSuchFolder, ["name": .name(view.title)])))
        }
        return .committed(undo: change(to: intoFolder(elements, index, drop), selecting: []))
    }

    func collectionView(_ view: DragCollectionView, removeMovedItems moved: [DragItem], after drop: DropRequest)
        -> UndoableAction?
    {
        let ids = Set(moved.map(\.id))
        let kept = elements.filter { !ids.contains($0.id) }
        guard kept.count != elements.count else { return nil }
        return change(to: kept, selecting: view.selection.filter { !ids.contains($0) })
    }

    /// Another app took elements with a move: they leave (S4); nothing to undo here.
    func collectionView(_ view: DragCollectionView, itemsMovedToOtherApp moved: [DragItem], app: AppID?)
        -> [TargetID]
    {
        let ids = Set(moved.map(\.id))
        let leaving = elements.filter { ids.contains($0.id) }.map(\.id)
        if !leaving.isEmpty { set(elements.filter { !ids.contains($0.id) }, selecting: nil) }
        return leaving
    }

    func collectionView(_ view: DragCollectionView, deleteItems ids: [TargetID]) -> (
        name: String, action: UndoableAction
    )? {
        let doomed = Set(ids)
        let kept = elements.filter { !doomed.contains($0.id) }
        guard kept.count != elements.count else { return nil }
        return ("Delete", change(to: kept, selecting: []))
    }

    func collectionView(_ view: DragCollectionView, insertTitles titles: [String], at index: Int) -> (
        ids: [TargetID], name: String, action: UndoableAction
    )? {
        let inserted = insert(titles.map { Element(id: TargetID(""), title: $0) }, at: index)
        return (inserted.ids, "Paste", inserted.undo)
    }

    func collectionView(_ view: DragCollectionView, openFolderAt index: Int, duringDrag: Bool) {
        guard elements.indices.contains(index) else { return }
        openFolder?(elements[index], duringDrag)
    }
}

/// A widget made of a ``DragCollectionView`` (``DragListView``, ``DragGridView``): what it
/// forwards to its view, written once.
@MainActor
public protocol DragCollectionWidget: AnyObject {
    /// The collection view the widget is made of.
    var view: DragCollectionView { get }
}

extension DragCollectionWidget {
    /// Selects every item.
    public func selectAll() { view.selectAll() }

    /// Decides whether a drop between the items loads its content later (drops into folders
    /// never do). Return true to show placeholders at once (A4); then report progress with
    /// ``GtkDragHost/updateDeferredDrop(_:progress:)`` and end with
    /// ``finishDeferredDrop(_:failure:)``. Nil (the default): drops commit at once.
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
}
