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
public final class DragListView: DragCollectionWidget, GtkDragRegistering {
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
    public var items: [Item] { store.elements }
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
        didSet {
            let policy = operationPolicy
            store.changeOptions { $0.operationPolicy = policy }
        }
    }
    /// What a row is called in announcements and undo names ("Undo Copy Video"); nil: "Item".
    /// A change after ``register(in:)`` takes effect as soon as no drag is running.
    public var itemKind: Noun? {
        didSet {
            let kind = itemKind ?? .item
            store.changeOptions { $0.kind = kind }
        }
    }
    /// The question the user confirms before a drop on this list when such drops cannot be
    /// undone (U2); nil (the default): no question. A change after ``register(in:)`` takes
    /// effect as soon as no drag is running.
    public var confirmation: String? {
        didSet {
            let question = confirmation
            store.changeOptions { $0.confirmation = question }
        }
    }
    /// Called on the main actor after ``items`` or ``selection`` changed: after drops, edits,
    /// undo, redo, clicks and keys. Read the list's properties inside.
    public var onChange: (@MainActor () -> Void)? {
        get { store.onChange }
        set { store.onChange = newValue }
    }
    /// Whether the edit menu offers Cut, Paste and Delete (C1). Set it to false when the app
    /// keeps the rows elsewhere and only drops and Copy should change or read them.
    public var allowsEditing = true {
        didSet { store.allowEditing(allowsEditing) }
    }
    /// The collection view showing the rows: for what the list does not forward (scrolling,
    /// focus, the items widget).
    public var view: DragCollectionView { store.view }

    /// The list's root widget (heading and rows), to put in a window.
    public var widget: UnsafeMutablePointer<GtkWidget> { view.widget }

    private let store: ElementStore<Item>

    /// Creates a list showing `items` in order, managed by `host`; `operationPolicy` is the
    /// same as setting ``operationPolicy`` afterwards. Put ``widget`` in a window, then call
    /// ``register(in:)``.
    public init(
        id: TargetID? = nil, title: String, items: [String], host: GtkDragHost,
        operationPolicy: OperationPolicy = .automatic
    ) {
        self.id = id ?? GtkDragHost.uniqueID(title)
        self.title = title
        self.operationPolicy = operationPolicy
        var options = DragCollectionView.Options(itemType: Self.itemType)
        options.operationPolicy = operationPolicy
        options.growsWithContent = true
        options.emptyText = ""
        store = ElementStore(
            id: self.id, title: title, host: host, options: options,
            elements: items.map { Item(id: TargetID(""), title: $0) })
        if id == nil { host.registerWhenPlaced(self) }
    }

    /// Registers the list and its rows with the host, inside the registered window `window`
    /// (added with ``GtkDragHost/addWindow(_:id:name:undoShortcuts:)``): from then on its rows
    /// drag and it takes drops, and the window keeps the list alive. Throws when the window is
    /// not registered or the identifier is taken.
    public func register(in window: TargetID) throws(GtkDragHostError) {
        try store.register(in: window, keeping: self)
    }

}

extension DragListView.Item: StoredElement {}
