import CGtk4
import DragDrop

/// A reorderable list of text items with multi-selection (click, Ctrl-click, Shift-click),
/// whose rows drag within the list, to other lists, and to other apps as text.
///
/// The list is a container target with a vertical insertion layout; each row is an item
/// target. Drops insert at the insertion index (rows make room, F8); moved items leave their
/// source after the destination committed them (S4); every drop is one undo step (U1).
///
/// Between two lists a drag copies by default, as the guidelines ask of different containers
/// (S2); a list whose items belong in one place at a time (reminders, tasks) asks for a move
/// with ``operationPolicy`` (on every list that should receive moves). Holding Ctrl still forces a copy, and Shift a move.
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
/// redo, and ``onChange`` tells of every change); drops and edits go through the host's engine,
/// so Ctrl+Z undoes them.
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
    /// of them). Changed by clicks (Ctrl toggles, Shift extends) and by drops, which select what
    /// arrived.
    public private(set) var selection: [TargetID] = []
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
    ///
    /// Holding Ctrl while dragging forces a copy, Shift a move. Set it before ``register(in:)``;
    /// a change after registration takes effect as soon as no drag is running (the list
    /// registers again).
    public var operationPolicy: OperationPolicy {
        didSet { registrationChanged() }
    }
    /// What a row is called in announcements and undo names ("Undo Copy Video"); nil: "Item".
    /// Takes effect on the next drag when set after ``register(in:)``.
    public var itemKind: Noun? {
        didSet { if registeredWindow != nil { setNeedsRebuild() } }
    }
    /// The question the user confirms before a drop on this list when such drops cannot be
    /// undone (U2); nil (the default): no question. Like ``operationPolicy``, best set before
    /// ``register(in:)``; a later change takes effect as soon as no drag is running.
    public var confirmation: String? {
        didSet { registrationChanged() }
    }
    /// Called on the main actor after ``items`` or ``selection`` changed (and the rows were
    /// rebuilt): after drops, edits, undo, redo and clicks. Read the list's properties inside.
    public var onChange: (@MainActor () -> Void)?
    /// Whether the edit menu offers Cut, Paste and Delete (C1). Set it to false when the app
    /// keeps the rows elsewhere and only drops and Copy should change or read them.
    public var allowsEditing = true

    unowned let host: GtkDragHost
    let root: GObjectRef
    let listBox: GObjectRef
    var rows: [(id: TargetID, row: GObjectRef)] = []
    private var registeredWindow: TargetID?
    private var nextNumber = 0
    private var rebuilding = false
    private var insertionShown: (row: GObjectRef, cssClass: String)?
    private let reregistration = ReregistrationKey()
    /// Deferred drops and their placeholder rows (DragListView+Placeholders.swift).
    let placeholders = DeferredDrops<Item>()

    /// The list's root widget (heading and rows), to put in a window.
    public var widget: UnsafeMutablePointer<GtkWidget> { root.widget }

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
        root = GObjectRef(newWidget: gtk_box_new(GTK_ORIENTATION_VERTICAL, 6))
        listBox = GObjectRef(newWidget: gtk_list_box_new())
        self.items = items.map { Item(id: newID(), title: $0) }

        let heading = GtkWidgetSupport.heading(title)
        gtk_box_append(dd_box(root.raw), heading)
        gtk_list_box_set_selection_mode(dd_list_box(listBox.raw), GTK_SELECTION_MULTIPLE)
        // With single-click activation GTK 4.8 adds every clicked row to a multiple selection;
        // without it, a click selects one row, Ctrl-click toggles and Shift-click extends.
        gtk_list_box_set_activate_on_single_click(dd_list_box(listBox.raw), 0)
        gtk_widget_add_css_class(listBox.widget, "boxed-list")
        FocusNavigation.tabLeaves(listBox.widget)
        gtk_widget_set_vexpand(listBox.widget, 1)
        gtk_box_append(dd_box(root.raw), listBox.widget)
        gtk_widget_set_hexpand(root.widget, 1)
        GSignal.connect(listBox.raw, "selected-rows-changed") { [weak self] in self?.selectionChanged() }
        buildRows()
        installEditMenu()
    }

    /// Registers the list and its rows with the host, inside the registered window `window`
    /// (added with ``GtkDragHost/addWindow(_:id:name:undoShortcuts:)``): from then on its rows
    /// drag and it takes drops. Throws when the window is not registered or the identifier is
    /// taken.
    public func register(in window: TargetID) throws(GtkDragHostError) {
        var container = DragTarget(id: id, name: title, frame: .zero, parent: window)
        container.accepts = [Self.itemType]
        container.insertion = .vertical
        container.operationPolicy = operationPolicy
        container.clipsChildren = true
        container.confirmation = confirmation
        try host.register(listBox.widget, as: container, delegate: self)
        registeredWindow = window
        try registerRows()
    }

    /// Registers the list again with its current settings once no drag is running (after
    /// ``operationPolicy`` or ``confirmation`` changed on a registered list).
    private func registrationChanged() {
        guard registeredWindow != nil else { return }
        host.whenNoDragRuns(key: reregistration) { [weak self] in
            guard let self, let window = self.registeredWindow else { return }
            self.host.unregister(self.id)  // and its rows
            do { try self.register(in: window) } catch { self.host.onDiagnostic?("error: \(error)") }
        }
    }

    // MARK: Rows

    func newID() -> TargetID {
        nextNumber += 1
        return TargetID("\(id.rawValue).\(nextNumber)")
    }

    private func buildRows() {
        rebuilding = true
        defer { rebuilding = false }
        for (_, row) in rows { gtk_list_box_remove(dd_list_box(listBox.raw), row.widget) }
        insertionShown = nil
        rows = items.map { item in
            let row = GObjectRef(newWidget: gtk_list_box_row_new())
            let label = gtk_label_new(item.title)
            gtk_label_set_xalign(dd_label(UnsafeMutableRawPointer(label)), 0)
            gtk_widget_set_margin_start(label, 12)
            gtk_widget_set_margin_end(label, 12)
            gtk_widget_set_margin_top(label, 10)
            gtk_widget_set_margin_bottom(label, 10)
            gtk_list_box_row_set_child(dd_list_box_row(row.raw), label)
            gtk_widget_add_css_class(row.widget, "dd-row")
            gtk_list_box_append(dd_list_box(listBox.raw), row.widget)
            if selection.contains(item.id) {
                gtk_list_box_select_row(dd_list_box(listBox.raw), dd_list_box_row(row.raw))
            }
            return (item.id, row)
        }
        placePlaceholders()
    }

    private func registerRows() throws(GtkDragHostError) {
        for (item, (_, row)) in zip(items, rows) {
            var target = DragTarget(id: item.id, name: item.title, frame: .zero, parent: id)
            target.offers = [Self.itemType, .utf8PlainText]
            if let itemKind { target.kind = itemKind }
            try host.register(row.widget, as: target, delegate: self)
        }
    }

    /// Rebuilds the rows from `items` and registers them again (after the engine call that
    /// changed the model returned).
    private func setNeedsRebuild() {
        host.scheduleUpdate(key: self) { [weak self] in
            guard let self else { return }
            for (rowID, _) in self.rows { self.host.unregister(rowID) }
            self.buildRows()
            if self.registeredWindow != nil {
                do { try self.registerRows() } catch { self.host.onDiagnostic?("error: \(error)") }
            }
            self.onChange?()
        }
    }

    func setItems(_ newItems: [Item], selecting: [TargetID]) {
        items = newItems
        selection = items.map(\.id).filter(selecting.contains)
        setNeedsRebuild()
    }

    private func selectionChanged() {
        guard !rebuilding else { return }
        var selected: Set<TargetID> = []
        for (rowID, row) in rows where gtk_list_box_row_is_selected(dd_list_box_row(row.raw)) != 0 {
            selected.insert(rowID)
        }
        selection = items.map(\.id).filter(selected.contains)
        onChange?()
    }
}

extension DragListView: GtkDragHostDelegate {
    public func dragHost(_ host: GtkDragHost, itemsForDragStartingAt item: TargetID) -> [TargetID] {
        selection.contains(item) ? selection : [item]
    }

    public func dragHost(_ host: GtkDragHost, perform drop: DropRequest) -> DropResult {
        if let deferred = deferIfAsked(drop) { return deferred }
        let before = items
        let index = min(max(0, drop.index ?? items.count), items.count)
        // Arrivals get new identifiers, so a move's originals and arrivals never share one.
        let arriving = drop.items.map { Item(id: newID(), title: $0.name) }
        var after = items
        after.insert(contentsOf: arriving, at: index)
        let selected = arriving.map(\.id)
        setItems(after, selecting: selected)
        return .committed(
            undo: UndoableAction(
                undo: { [weak self] in self?.setItems(before, selecting: []) },
                redo: { [weak self] in self?.setItems(after, selecting: selected) }))
    }

    public func dragHost(_ host: GtkDragHost, removeMovedItems moved: [DragItem], after drop: DropRequest)
        -> UndoableAction?
    {
        let ids = Set(moved.map(\.id))
        let before = items
        let kept = items.filter { !ids.contains($0.id) }
        guard kept.count != before.count else { return nil }
        let selected = selection
        setItems(kept, selecting: selected)
        return UndoableAction(
            undo: { [weak self] in self?.setItems(before, selecting: []) },
            redo: { [weak self] in self?.setItems(kept, selecting: []) })
    }

    /// Another app took rows with a move: they leave the list (S4).
    public func dragHost(_ host: GtkDragHost, itemsMovedToOtherApp moved: [DragItem], app: AppID?) -> [TargetID] {
        let ids = Set(moved.map(\.id))
        let leaving = items.filter { ids.contains($0.id) }.map(\.id)
        if !leaving.isEmpty { setItems(items.filter { !ids.contains($0.id) }, selecting: selection) }
        return leaving
    }

    public func dragHost(_ host: GtkDragHost, itemProviderFor item: TargetID) -> ItemProvider? {
        guard let title = items.first(where: { $0.id == item })?.title else { return nil }
        return ItemProvider(app: host.engine.app, representations: [.text(.utf8PlainText, title)])
    }

    public func dragHost(_ host: GtkDragHost, exportedRepresentationsFor ids: [TargetID]) -> [ExportedRepresentation] {
        let titles = ids.compactMap { id in items.first { $0.id == id }?.title }
        return [.text(titles.joined(separator: "\n"))]
    }

    public func dragHost(_ host: GtkDragHost, showInsertionAt index: Int?, in container: TargetID) {
        if let shown = insertionShown {
            gtk_widget_remove_css_class(shown.row.widget, shown.cssClass)
            insertionShown = nil
        }
        guard let index, !rows.isEmpty else { return }
        let shown =
            index < rows.count ? (rows[index].row, "dd-insert-before") : (rows[rows.count - 1].row, "dd-insert-after")
        gtk_widget_add_css_class(shown.0.widget, shown.1)
        insertionShown = shown
    }
}
