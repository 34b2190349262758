import CGtk4
import DragDrop

/// A list (or grid) of an app's own values, dragged and dropped as those values: a list of
/// `Reminder`s gives reminders to other lists and apps and takes reminders back, from its own
/// lists at once and from other apps through the forms the type reads (`Transferable`).
///
/// It is a ``DragCollectionView`` (virtualized: only the rows on screen have widgets) with its
/// own storage, an array: the app gives the values and a title for each, and reads ``values``
/// or ``onChange`` after a drop, an undo or a redo. No identifiers, MIME types or byte reading
/// in app code.
///
/// ```swift
/// struct Chore: Codable, Sendable, Transferable {
///     var title: String
///     static var transferRepresentation: TransferRepresentation<Chore> {
///         TransferRepresentation.codable(contentType: "application/x-chore")
///         TransferRepresentation.proxy(exporting: \.title) { Chore(title: $0) }
///     }
/// }
/// let toDo = DragValueList(id: "to-do", title: "To Do", values: [Chore(title: "Milk")], host: host) { $0.title }
/// try toDo.register(in: window.id)
/// ```
///
/// Everything the collection view does works: several items at once, rows making room,
/// reordering, autoscroll, keyboard dragging, the edit menu's Move To… and Delete, undo (U1).
/// A drop from a list of the same type in this app inserts the values at once; any other drop
/// (another app, another type) reads the values after the drop with placeholders at the drop
/// index (A4), and fails, changing nothing, when none of the item's forms can be read (A6).
@MainActor
public final class DragValueList<Value: Transferable>: DragCollectionDataSource, GtkDragRegistering {
    /// One row: its identifier (new for every arrival, so a copy is a row of its own) and value.
    private struct Row {
        var id: TargetID
        var value: Value
    }

    /// The collection view showing the values.
    public let view: DragCollectionView
    /// The list's target (its collection view's).
    public var id: TargetID { view.id }
    /// The view's root widget, to add to a window.
    public var widget: UnsafeMutablePointer<GtkWidget> { view.widget }
    /// Called after the values changed: a drop, a move out, a deletion, an undo or a redo.
    public var onChange: (@MainActor ([Value]) -> Void)?

    private var rows: [Row] {
        didSet { positions = nil }
    }
    /// Where each row is, built when a drop first asks after a change (a drop of 50,000 rows
    /// from a list of 100,000 looks each up once, not by a pass over the list).
    private var positions: [TargetID: Int]?
    private let titled: (Value) -> String
    private let prefix: String
    private var next = 0

    /// The values, in order.
    public var values: [Value] { rows.map(\.value) }

    /// A list of `values` titled by `title(value)` (its row's text, accessible name and what
    /// plain text gets), whose drops do what `policy` says (S2; `.preferMove` for lists whose
    /// values move between them, as reminders do). `kind` names the values in announcements.
    public init(
        id: TargetID? = nil, title: String, values: [Value], host: GtkDragHost, kind: Noun = .item,
        policy: OperationPolicy = .automatic, layout: DragCollectionView.Layout = .list,
        title titled: @escaping (Value) -> String
    ) {
        let exported = Value.exportedContentTypes
        let imported = Value.importedContentTypes
        let itemType = exported.first ?? imported.first ?? .utf8PlainText
        var options = DragCollectionView.Options(itemType: itemType, kind: kind)
        options.layout = layout
        options.extraOffers = Array(exported.dropFirst())
        options.extraAccepts = imported.filter { $0 != itemType }
        options.operationPolicy = policy
        let given = id
        let id = id ?? GtkDragHost.uniqueID(title)
        view = DragCollectionView(id: id, title: title, host: host, options: options)
        self.titled = titled
        prefix = id.rawValue
        rows = []
        rows = values.map { Row(id: newID(), value: $0) }
        view.dataSource = self
        view.reloadData()
        ValueListDirectory.add(self)
        if given == nil { host.registerWhenPlaced(self) }
    }

    /// Registers the list's targets under `parent` (a window or a container); from then on the
    /// window keeps the list alive until it closes or the list is unregistered.
    public func register(in parent: TargetID) throws(GtkDragHostError) {
        try view.register(in: parent)
        view.host.keepAlive(self, while: view.id)
    }

    /// Replaces the values (not an undoable edit: loading a document, say).
    public func setValues(_ values: [Value]) {
        set(values.map { Row(id: newID(), value: $0) }, selecting: [])
    }

    // MARK: DragCollectionDataSource

    public var numberOfItems: Int { rows.count }
    public func itemID(at index: Int) -> TargetID { rows[index].id }
    public func title(at index: Int) -> String { titled(rows[index].value) }

    public func collectionView(_ view: DragCollectionView, itemProviderAt index: Int) -> ItemProvider? {
        let value = rows[index].value
        return ItemProvider(app: view.host.engine.app, value: value, suggestedName: titled(value))
    }

    public func collectionView(_ view: DragCollectionView, perform drop: DropRequest, at index: Int) -> DropResult {
        if let local = ValueListDirectory.values(of: drop.items.map(\.id), as: Value.self) {
            return .committed(undo: insert(local, at: index))
        }
        // Another app, or another kind of value: read after the drop, behind placeholders.
        let data = drop.data
        let token = drop.token
        let host = view.host
        Task { @MainActor [weak self] in
            do throws(TransferError) {
                let values = try await data.values(Value.self)
                guard let self else { throw TransferError.cancelled }
                host.completeDeferredDrop(token, with: .committed(undo: self.insert(values, at: index)))
            } catch {
                host.completeDeferredDrop(token, with: .failed(error.dropFailure))
            }
        }
        return .deferred(placeholders: drop.items.count)
    }

    public func collectionView(_ view: DragCollectionView, removeMovedItems items: [DragItem], after drop: DropRequest)
        -> UndoableAction?
    {
        remove(Set(items.map(\.id)))
    }

    public func collectionView(_ view: DragCollectionView, itemsMovedToOtherApp items: [DragItem], app: AppID?)
        -> [TargetID]
    {
        let ids = Set(items.map(\.id))
        let left = rows.filter { ids.contains($0.id) }.map(\.id)
        _ = remove(ids)  // the other app owns them now: nothing to undo here
        return left
    }

    public func collectionView(_ view: DragCollectionView, deleteItems ids: [TargetID]) -> (
        name: String, action: UndoableAction
    )? {
        guard let action = remove(Set(ids)) else { return nil }
        // Title case, as undo menu items are: "Delete 2 Chores".
        let counted = view.options.kind.counted(ids.count).split(separator: " ")
            .map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: " ")
        return ("Delete \(counted)", action)
    }

    // MARK: Changes

    private func newID() -> TargetID {
        next += 1
        return TargetID("\(prefix).\(next)")
    }

    /// Inserts `values` as new rows at `index` (clamped: the list may have changed while they
    /// loaded); returns the undo.
    private func insert(_ values: [Value], at index: Int) -> UndoableAction {
        let before = rows
        var after = rows
        let arriving = values.map { Row(id: newID(), value: $0) }
        let at = max(0, min(index, after.count))
        after.insert(contentsOf: arriving, at: at)
        let selecting = arriving.map(\.id)
        set(after, selecting: selecting, changes: [.insert(arriving.count, at: at)])
        return UndoableAction(
            undo: { [weak self] in self?.set(before, selecting: []) },
            redo: { [weak self] in self?.set(after, selecting: selecting) })
    }

    /// Takes the rows `ids` out; returns the undo, nil when none was here.
    private func remove(_ ids: Set<TargetID>) -> UndoableAction? {
        let before = rows
        let after = rows.filter { !ids.contains($0.id) }
        guard after.count != before.count else { return nil }
        set(after, selecting: [])
        return UndoableAction(
            undo: { [weak self] in self?.set(before, selecting: []) },
            redo: { [weak self] in self?.set(after, selecting: []) })
    }

    private func set(_ new: [Row], selecting: [TargetID]? = nil, changes: [DragCollectionView.Change]? = nil) {
        let old = rows
        rows = new
        view.applyChanges(
            changes ?? DragCollectionView.changes(from: old.map(\.id), to: new.map(\.id)), selecting: selecting)
        onChange?(values)
    }

    /// The value of row `id`, if it is one of this list's.
    fileprivate func value(of id: TargetID) -> Value? {
        if positions == nil {
            positions = Dictionary(
                rows.enumerated().map { ($0.element.id, $0.offset) }, uniquingKeysWith: { first, _ in first })
        }
        return positions?[id].map { rows[$0].value }
    }
}

/// The app's value lists, so a drop between two of them hands over the values themselves.
@MainActor
private enum ValueListDirectory {
    private final class Entry {
        weak var list: AnyObject?
        let value: @MainActor (TargetID) -> Any?
        init<Value>(_ list: DragValueList<Value>) {
            self.list = list
            value = { [weak list] id in list?.value(of: id) }
        }
    }

    private static var entries: [Entry] = []

    static func add<Value>(_ list: DragValueList<Value>) {
        entries.removeAll { $0.list == nil }
        entries.append(Entry(list))
    }

    /// The values of the rows `ids` when every one is a `Value` in a list of this app; nil
    /// otherwise (another app's items, or another type).
    static func values<Value>(of ids: [TargetID], as type: Value.Type) -> [Value]? {
        var values: [Value] = []
        for id in ids {
            guard let value = entries.lazy.compactMap({ $0.value(id) as? Value }).first else { return nil }
            values.append(value)
        }
        return values.isEmpty ? nil : values
    }
}
